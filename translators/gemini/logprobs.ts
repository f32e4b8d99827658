/**
 * Log probabilities: Gemini `logprobsResult` ⇄ canonical. Gemini:
 * `chosenCandidates[i] = {token, tokenId?, logProbability}` and `topCandidates[i].candidates = [...]`,
 * one entry per decoding step (https://ai.google.dev/api/generate-content#LogprobsResult).
 */
import type { Logprobs, TokenAlternative } from '../../src/canonical/index.ts';
import { isRecord, type Json } from './json.ts';

const alternative = (c: Json): TokenAlternative => ({ token: String(c.token ?? ''), logprob: Number(c.logProbability ?? 0) });

/** Gemini `logprobsResult` → canonical, or undefined when absent/unusable. */
export function decodeLogprobs(result: unknown): Logprobs | undefined {
  if (!isRecord(result) || !Array.isArray(result.chosenCandidates)) return undefined;
  const tops = Array.isArray(result.topCandidates) ? result.topCandidates : [];
  const content = result.chosenCandidates.filter(isRecord).map((c, i) => {
    const step = tops[i];
    const alts = isRecord(step) && Array.isArray(step.candidates) ? step.candidates.filter(isRecord) : [];
    return { ...alternative(c), top: alts.map(alternative) };
  });
  return { content };
}

/** Canonical → Gemini `logprobsResult`, or undefined when there is nothing to carry. */
export function encodeLogprobs(logprobs: Logprobs | undefined): Json | undefined {
  if (!logprobs || logprobs.content.length === 0) return undefined;
  const cand = (t: TokenAlternative) => ({ token: t.token, logProbability: t.logprob });
  return {
    topCandidates: logprobs.content.map((t) => ({ candidates: t.top.map(cand) })),
    chosenCandidates: logprobs.content.map(cand),
  };
}
