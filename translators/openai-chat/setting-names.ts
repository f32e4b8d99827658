/** How a Chat Completions caller names the canonical settings, for loss reports in its own terms. */
import type { SettingNames } from '../../src/canonical/index.ts';

export const settingNames = {
  toolChoice: 'tool_choice',
  parallelToolCalls: 'parallel_tool_calls',
  maxOutputTokens: 'max_completion_tokens',
  temperature: 'temperature',
  topP: 'top_p',
  stop: 'stop',
  seed: 'seed',
  presencePenalty: 'presence_penalty',
  frequencyPenalty: 'frequency_penalty',
  candidateCount: 'n',
  logprobs: 'logprobs',
  topLogprobs: 'top_logprobs',
  responseFormat: 'response_format',
  'responseFormat.strict': 'response_format.json_schema.strict',
  reasoning: 'reasoning_effort',
  'reasoning.enabled': 'reasoning_effort',
  'reasoning.effort': 'reasoning_effort',
  modalities: 'modalities',
  user: 'user',
  metadata: 'metadata',
} as const satisfies SettingNames;
