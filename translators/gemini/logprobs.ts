/**
 * Log probabilities: Gemini `logprobsResult` ⇄ canonical (OpenAI's `{content: [...]}` shape).
 * Gemini: `chosenCandidates[i] = {token, tokenId?, logProbability}` and
 * `topCandidates[i].candidates = [...]`, one entry per decoding step
 * (https://ai.google.dev/api/generate-content#LogprobsResult).
 */

import { isRecord, type Json } from './json.ts';

interface OpenAITop {
  token: string;
  logprob: number;
}
interface OpenAIToken extends OpenAITop {
  top_logprobs: OpenAITop[];
}

/** Gemini `logprobsResult` → `{content: [...]}`, or undefined when absent/unusable. */
export function decodeLogprobs(result: unknown): { content: OpenAIToken[] } | undefined {
  if (!isRecord(result) || !Array.isArray(result.chosenCandidates)) return undefined;
  const tops = Array.isArray(result.topCandidates) ? result.topCandidates : [];
  const content = result.chosenCandidates.filter(isRecord).map((c, i): OpenAIToken => {
    const step = tops[i];
    const alts = isRecord(step) && Array.isArray(step.candidates) ? step.candidates.filter(isRecord) : [];
    return {
      token: String(c.token ?? ''),
      logprob: Number(c.logProbability ?? 0),
      top_logprobs: alts.map((a) => ({ token: String(a.token ?? ''), logprob: Number(a.logProbability ?? 0) })),
    };
  });
  return { content };
}

/** Canonical (OpenAI shape) → Gemini `logprobsResult`, or undefined when there is nothing to carry. */
export function encodeLogprobs(logprobs: unknown): Json | undefined {
  if (!isRecord(logprobs) || !Array.isArray(logprobs.content)) return undefined;
  const tokens = logprobs.content.filter(isRecord);
  if (tokens.length === 0) return undefined;
  const cand = (t: Json) => ({ token: String(t.token ?? ''), logProbability: Number(t.logprob ?? 0) });
  return {
    topCandidates: tokens.map((t) => ({ candidates: Array.isArray(t.top_logprobs) ? t.top_logprobs.filter(isRecord).map(cand) : [] })),
    chosenCandidates: tokens.map(cand),
  };
}
