/**
 * Reasoning effort ↔ Anthropic `thinking.budget_tokens`.
 * Anthropic takes a token budget (≥ 1024 and < max_tokens, counted inside max_tokens:
 * https://docs.claude.com/en/docs/build-with-claude/extended-thinking); OpenAI takes an effort.
 *
 * | effort  | budget_tokens |
 * |---------|---------------|
 * | minimal | 1024 (the API minimum) |
 * | low     | 2048          |
 * | medium  | 8192          |
 * | high    | 24576         |
 */
import type { ReasoningEffort } from '../../src/canonical/index.ts';

export const MIN_THINKING_BUDGET = 1024;

export const budgetOfEffort: Record<ReasoningEffort, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 24576,
};

/** Anthropic `output_config.effort` → canonical effort (`xhigh`/`max` have no canonical peer). */
export function effortOfWire(effort: string): ReasoningEffort | undefined {
  switch (effort) {
    case 'low':
    case 'medium':
    case 'high':
      return effort;
    case 'xhigh':
    case 'max':
      return 'high';
    default:
      return undefined;
  }
}
