/** How a Messages caller names the canonical settings, for loss reports in its own terms
 * (a setting its wire spells as the canonical name, `temperature`, needs no entry). */
import type { SettingNames } from '../../src/canonical/index.ts';

export const settingNames: SettingNames = {
  toolChoice: 'tool_choice',
  parallelToolCalls: 'tool_choice.disable_parallel_tool_use',
  maxOutputTokens: 'max_tokens',
  topP: 'top_p',
  topK: 'top_k',
  stop: 'stop_sequences',
  responseFormat: 'output_config.format',
  reasoning: 'thinking',
  'reasoning.enabled': 'thinking',
  'reasoning.effort': 'output_config.effort',
  'reasoning.budgetTokens': 'thinking.budget_tokens',
  'reasoning.includeThoughts': 'thinking.display',
  user: 'metadata.user_id',
};
