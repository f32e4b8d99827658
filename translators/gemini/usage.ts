/**
 * Gemini `usageMetadata` ⇄ canonical `Usage` (OpenAI semantics).
 * Gemini: `candidatesTokenCount` excludes `thoughtsTokenCount`; `promptTokenCount` includes
 * `cachedContentTokenCount`; tool-use prompt tokens are counted separately.
 */
import type { Usage } from '../../src/canonical/index.ts';
import type { GeminiUsageMetadata } from './wire.ts';

export function hasUsage(u: GeminiUsageMetadata | undefined): u is GeminiUsageMetadata {
  return !!u && (u.promptTokenCount !== undefined || u.totalTokenCount !== undefined || u.candidatesTokenCount !== undefined);
}

export function decodeUsage(u: GeminiUsageMetadata): Usage {
  const input = (u.promptTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0);
  const reasoning = u.thoughtsTokenCount ?? 0;
  const output = (u.candidatesTokenCount ?? 0) + reasoning;
  const usage: Usage = { inputTokens: input, outputTokens: output, totalTokens: input + output };
  if (u.cachedContentTokenCount) usage.cachedInputTokens = u.cachedContentTokenCount;
  if (u.thoughtsTokenCount !== undefined) usage.reasoningTokens = reasoning;
  return usage;
}

export interface GeminiUsageOut {
  promptTokenCount: number;
  candidatesTokenCount: number;
  totalTokenCount: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
}

export function encodeUsage(u: Usage): GeminiUsageOut {
  const reasoning = u.reasoningTokens ?? 0;
  const out: GeminiUsageOut = {
    promptTokenCount: u.inputTokens,
    candidatesTokenCount: Math.max(0, u.outputTokens - reasoning),
    totalTokenCount: u.totalTokens,
  };
  if (reasoning > 0) out.thoughtsTokenCount = reasoning;
  if (u.cachedInputTokens) out.cachedContentTokenCount = u.cachedInputTokens;
  return out;
}
