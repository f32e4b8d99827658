/** How a Chat Completions caller names the canonical settings, for loss reports in its own terms
 * (a setting its wire spells as the canonical name, `temperature`, needs no entry). */
import type { SettingNames } from '../../src/canonical/index.ts';

export const settingNames = {
  toolChoice: 'tool_choice',
  parallelToolCalls: 'parallel_tool_calls',
  maxOutputTokens: 'max_completion_tokens',
  topP: 'top_p',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  candidateCount: 'n',
  topLogprobs: 'top_logprobs',
  responseFormat: 'response_format',
  'responseFormat.strict': 'response_format.json_schema.strict',
  reasoning: 'reasoning_effort',
  'reasoning.enabled': 'reasoning_effort',
  'reasoning.effort': 'reasoning_effort',
} as const satisfies SettingNames;
