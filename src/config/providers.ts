/**
 * What the config knows about each provider: its name, its default base URL, and the fields it
 * requires — checked when the config loads, so a mistake names the field before anything runs.
 * How each host is called lives in src/upstream/providers.
 */
import type { UpstreamConfig } from './schema.ts';

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

/** The base URL an upstream gets when its config gives none; a message naming what is missing otherwise. */
export function defaultBaseUrl(u: UpstreamConfig): string | { missing: string } {
  switch (u.provider) {
    case undefined:
    case 'azure':
      return { missing: 'baseUrl' };
    case 'vertex':
      if (!u.location) return { missing: 'location' };
      return u.location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${u.location}-aiplatform.googleapis.com`;
    case 'bedrock':
      if (!u.region) return { missing: 'region' };
      return `https://bedrock-runtime.${u.region}.amazonaws.com`;
    default:
      return COMPATIBLE_BASES[u.provider];
  }
}

/** Fields a provider needs beyond a base URL: the first one missing, or undefined. */
export function missingField(u: UpstreamConfig): string | undefined {
  switch (u.provider) {
    case 'vertex':
      if (!u.project) return 'project';
      if (!u.location) return 'location';
      if (!u.credentials && !u.accessToken && !u.apiKey) return 'credentials';
      return undefined;
    case 'bedrock':
      if (!u.region) return 'region';
      if (!u.apiKey && !(u.accessKeyId && u.secretAccessKey)) return u.accessKeyId ? 'secretAccessKey' : 'accessKeyId';
      return undefined;
    default:
      return undefined;
  }
}
