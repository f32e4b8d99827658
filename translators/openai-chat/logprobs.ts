/**
 * `logprobs` as a Chat Completions caller must get them. Canonical logprobs are OpenAI's shape,
 * but those converted from another vendor (Gemini's `logprobsResult`) lack what OpenAI always
 * sends and its OpenAPI document requires: `refusal` beside `content`, and `bytes` (the token's
 * UTF-8 bytes, or null) on every token and alternative.
 */
import type { OpenAIChatOutLogprobs, OpenAIChatOutTokenLogprob } from './wire.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function bytesOf(t: Record<string, unknown>, token: string): number[] | null {
  if (t.bytes === null || Array.isArray(t.bytes)) return t.bytes as number[] | null;
  return Array.from(new TextEncoder().encode(token));
}

function encodeToken(t: Record<string, unknown>, withTop: boolean): OpenAIChatOutTokenLogprob {
  const token = typeof t.token === 'string' ? t.token : '';
  const out: OpenAIChatOutTokenLogprob = {
    token,
    logprob: typeof t.logprob === 'number' ? t.logprob : 0,
    bytes: bytesOf(t, token),
  };
  if (withTop) {
    out.top_logprobs = (Array.isArray(t.top_logprobs) ? t.top_logprobs : []).filter(isRecord).map((a) => encodeToken(a, false));
  }
  return out;
}

function encodeTokens(list: unknown): OpenAIChatOutTokenLogprob[] | null {
  return Array.isArray(list) ? list.filter(isRecord).map((t) => encodeToken(t, true)) : null;
}

/** Canonical choice logprobs → `{content, refusal}` with every required field, or null. */
export function encodeLogprobs(logprobs: unknown): OpenAIChatOutLogprobs | null {
  if (!isRecord(logprobs)) return null;
  return { ...logprobs, content: encodeTokens(logprobs.content), refusal: encodeTokens(logprobs.refusal) };
}
