/** How a generateContent caller names the canonical settings, for loss reports in its own terms. */
import type { SettingNames } from '../../src/canonical/index.ts';

export const settingNames: SettingNames = {
  toolChoice: 'toolConfig.functionCallingConfig',
  maxOutputTokens: 'generationConfig.maxOutputTokens',
  temperature: 'generationConfig.temperature',
  topP: 'generationConfig.topP',
  topK: 'generationConfig.topK',
  stop: 'generationConfig.stopSequences',
  seed: 'generationConfig.seed',
  presencePenalty: 'generationConfig.presencePenalty',
  frequencyPenalty: 'generationConfig.frequencyPenalty',
  candidateCount: 'generationConfig.candidateCount',
  logprobs: 'generationConfig.responseLogprobs',
  topLogprobs: 'generationConfig.logprobs',
  responseFormat: 'generationConfig.responseMimeType',
  reasoning: 'generationConfig.thinkingConfig',
  'reasoning.enabled': 'generationConfig.thinkingConfig.thinkingBudget',
  'reasoning.effort': 'generationConfig.thinkingConfig.thinkingLevel',
  'reasoning.budgetTokens': 'generationConfig.thinkingConfig.thinkingBudget',
  'reasoning.includeThoughts': 'generationConfig.thinkingConfig.includeThoughts',
  modalities: 'generationConfig.responseModalities',
};
