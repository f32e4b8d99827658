/**
 * OpenAI chat `logprobs` ⇄ canonical. Chat Completions callers must get what OpenAI always sends
 * and its OpenAPI document requires: `refusal` beside `content` (null when absent), and `bytes`
 * (the token's UTF-8 bytes) on every token and alternative, also for logprobs that came from
 * another vendor (Gemini's `logprobsResult` has no bytes).
 */
import type { Logprobs, TokenAlternative, TokenLogprob } from '../../src/canonical/index.ts';
import type { OpenAIChatOutLogprobs, OpenAIChatOutTokenLogprob } from './wire.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodeAlternative(t: Record<string, unknown>): TokenAlternative {
  const out: TokenAlternative = { token: typeof t.token === 'string' ? t.token : '', logprob: typeof t.logprob === 'number' ? t.logprob : 0 };
  if (Array.isArray(t.bytes)) out.bytes = t.bytes.filter((b): b is number => typeof b === 'number');
  return out;
}

function decodeTokens(list: unknown): TokenLogprob[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter(isRecord).map((t) => ({
    ...decodeAlternative(t),
    top: (Array.isArray(t.top_logprobs) ? t.top_logprobs : []).filter(isRecord).map(decodeAlternative),
  }));
}

/** A choice's (or chunk choice's) `logprobs` → canonical; undefined when it holds no tokens. */
export function decodeLogprobs(wire: unknown): Logprobs | undefined {
  if (!isRecord(wire)) return undefined;
  const content = decodeTokens(wire.content);
  const refusal = decodeTokens(wire.refusal);
  if (!content?.length && !refusal?.length) return undefined;
  return { content: content ?? [], ...(refusal ? { refusal } : {}) };
}

function encodeAlternative(t: TokenAlternative): OpenAIChatOutTokenLogprob {
  return { token: t.token, logprob: t.logprob, bytes: t.bytes ?? Array.from(new TextEncoder().encode(t.token)) };
}

/** Canonical → `{content, refusal}` with every required field, or null. */
export function encodeLogprobs(logprobs: Logprobs | undefined): OpenAIChatOutLogprobs | null {
  if (!logprobs) return null;
  const tokens = (list: TokenLogprob[] | undefined) => list?.map((t) => ({ ...encodeAlternative(t), top_logprobs: t.top.map(encodeAlternative) })) ?? null;
  return { content: logprobs.content.length || !logprobs.refusal ? tokens(logprobs.content) : null, refusal: tokens(logprobs.refusal) };
}
