/**
 * The providers the config accepts and the compatible hosts' default bases: plain data that the
 * schema (which validates a provider's name) and providers.ts (which checks its fields) both read.
 */
export const COMPATIBLE_PROVIDERS = ['openrouter', 'deepseek', 'mistral', 'groq', 'xai', 'together', 'fireworks', 'cerebras', 'ollama', 'vllm'] as const;
export const PROVIDERS = ['azure', 'vertex', 'bedrock', ...COMPATIBLE_PROVIDERS] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** Default bases of the OpenAI-compatible hosts, as their docs give them to the OpenAI SDK. */
export const COMPATIBLE_BASES: Record<(typeof COMPATIBLE_PROVIDERS)[number], string> = {
  openrouter: 'https://openrouter.ai/api/v1',
  deepseek: 'https://api.deepseek.com',
  mistral: 'https://api.mistral.ai/v1',
  groq: 'https://api.groq.com/openai/v1',
  xai: 'https://api.x.ai/v1',
  together: 'https://api.together.xyz/v1',
  fireworks: 'https://api.fireworks.ai/inference/v1',
  cerebras: 'https://api.cerebras.ai/v1',
  ollama: 'http://127.0.0.1:11434/v1',
  vllm: 'http://127.0.0.1:8000/v1',
};
