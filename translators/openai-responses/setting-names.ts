/** How a Responses caller names the canonical settings, for loss reports in its own terms. */
import type { SettingNames } from '../../src/canonical/index.ts';

export const settingNames: SettingNames = {
  toolChoice: 'tool_choice',
  parallelToolCalls: 'parallel_tool_calls',
  maxOutputTokens: 'max_output_tokens',
  temperature: 'temperature',
  topP: 'top_p',
  logprobs: 'include',
  topLogprobs: 'top_logprobs',
  responseFormat: 'text.format',
  'responseFormat.strict': 'text.format.strict',
  reasoning: 'reasoning',
  'reasoning.enabled': 'reasoning.effort',
  'reasoning.effort': 'reasoning.effort',
  'reasoning.includeThoughts': 'reasoning.summary',
  user: 'user',
  metadata: 'metadata',
};
