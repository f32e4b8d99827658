/** How a Responses caller names the canonical settings, for loss reports in its own terms
 * (a setting its wire spells as the canonical name, `temperature`, needs no entry). */
import type { SettingNames } from '../../src/canonical/index.ts';

export const settingNames: SettingNames = {
  toolChoice: 'tool_choice',
  parallelToolCalls: 'parallel_tool_calls',
  maxOutputTokens: 'max_output_tokens',
  topP: 'top_p',
  logprobs: 'include',
  topLogprobs: 'top_logprobs',
  responseFormat: 'text.format',
  'responseFormat.strict': 'text.format.strict',
  'reasoning.enabled': 'reasoning.effort',
  'reasoning.includeThoughts': 'reasoning.summary',
};
