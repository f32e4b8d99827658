/**
 * OpenAI chat `logprobs` ⇄ canonical. Chat Completions callers must get what OpenAI always sends
 * and its OpenAPI document requires: `refusal` beside `content` (null when absent), and `bytes`
 * (the token's UTF-8 bytes) on every token and alternative, also for logprobs that came from
 * another vendor (Gemini's `logprobsResult` has no bytes). The token lists themselves are the
 * Responses API's too (translators/vendor/openai/logprobs.ts).
 */
import { decodeOpenAITokenLogprobs, encodeOpenAITokenLogprobs } from '../vendor/openai/index.ts';
import { type Logprobs, type TokenLogprob } from '../../src/canonical/index.ts';
import type { OpenAIChatOutLogprobs } from './wire.ts';
import { isJsonObject as isRecord } from '../../src/kit/index.ts';


/** A choice's (or chunk choice's) `logprobs` → canonical; undefined when it holds no tokens. */
export function decodeLogprobs(wire: unknown): Logprobs | undefined {
  if (!isRecord(wire)) return undefined;
  const content = decodeOpenAITokenLogprobs(wire.content);
  const refusal = decodeOpenAITokenLogprobs(wire.refusal);
  if (!content?.length && !refusal?.length) return undefined;
  return { content: content ?? [], ...(refusal ? { refusal } : {}) };
}

/** Canonical → `{content, refusal}` with every required field, or null. */
export function encodeLogprobs(logprobs: Logprobs | undefined): OpenAIChatOutLogprobs | null {
  if (!logprobs) return null;
  const tokens = (list: TokenLogprob[] | undefined) => (list ? encodeOpenAITokenLogprobs(list) : null);
  return { content: logprobs.content.length || !logprobs.refusal ? tokens(logprobs.content) : null, refusal: tokens(logprobs.refusal) };
}
