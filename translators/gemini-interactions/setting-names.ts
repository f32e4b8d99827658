/** How an Interactions caller names the canonical settings, for loss reports in its own terms. */
import type { SettingNames } from '../../src/canonical/index.ts';

export const settingNames: SettingNames = {
  toolChoice: 'generation_config.tool_choice',
  maxOutputTokens: 'generation_config.max_output_tokens',
  temperature: 'generation_config.temperature',
  topP: 'generation_config.top_p',
  stop: 'generation_config.stop_sequences',
  seed: 'generation_config.seed',
  responseFormat: 'response_format',
  reasoning: 'generation_config.thinking_level',
  'reasoning.enabled': 'generation_config.thinking_level',
  'reasoning.effort': 'generation_config.thinking_level',
  'reasoning.includeThoughts': 'generation_config.thinking_summaries',
  modalities: 'response_format',
};
