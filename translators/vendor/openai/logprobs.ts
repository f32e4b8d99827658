/**
 * OpenAI's per-token log probabilities, `[{token, logprob, bytes, top_logprobs: [{token, logprob,
 * bytes}]}]`, the same in Chat Completions (`logprobs.content`) and Responses (`output_text.logprobs`):
 * read and written in one place. Written tokens always carry `bytes` (the token's UTF-8 bytes),
 * also when the logprobs came from a vendor that sends none (Gemini).
 */
import type { TokenAlternative, TokenLogprob } from '../../../src/canonical/logprobs.ts';
import { isJsonObject as isRecord } from '../../../src/kit/index.ts';

export interface OpenAITokenAlternative {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface OpenAITokenLogprob extends OpenAITokenAlternative {
  top_logprobs: OpenAITokenAlternative[];
}


function decodeAlternative(t: Record<string, unknown>): TokenAlternative {
  const out: TokenAlternative = { token: typeof t.token === 'string' ? t.token : '', logprob: typeof t.logprob === 'number' ? t.logprob : 0 };
  if (Array.isArray(t.bytes)) out.bytes = t.bytes.filter((b): b is number => typeof b === 'number');
  return out;
}

/** A wire token list → canonical; undefined when it is not a list. */
export function decodeOpenAITokenLogprobs(list: unknown): TokenLogprob[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter(isRecord).map((t) => ({
    ...decodeAlternative(t),
    top: (Array.isArray(t.top_logprobs) ? t.top_logprobs : []).filter(isRecord).map(decodeAlternative),
  }));
}

function encodeAlternative(t: TokenAlternative): OpenAITokenAlternative {
  return { token: t.token, logprob: t.logprob, bytes: t.bytes ?? Array.from(new TextEncoder().encode(t.token)) };
}

export function encodeOpenAITokenLogprobs(list: readonly TokenLogprob[]): OpenAITokenLogprob[] {
  return list.map((t) => ({ ...encodeAlternative(t), top_logprobs: t.top.map(encodeAlternative) }));
}
