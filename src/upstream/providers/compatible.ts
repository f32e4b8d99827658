/**
 * The OpenAI-compatible hosts (`openrouter`, `deepseek`, `mistral`, `groq`, `xai`, `together`,
 * `fireworks`, `cerebras`, `ollama`, `vllm`): the base URL as their docs give it to the OpenAI SDK
 * (defaults in src/config/providers.ts), a Bearer key, and each host's Chat Completions quirks as
 * encoder knobs (`UpstreamOptions`, documented in translators/types.ts). The same quirks apply to
 * a plain `openai` upstream whose base URL is on one of these hosts (`providerOfHost`): one table,
 * the default bases, says which host is whose.
 *
 * Evidence for each quirk (the e2e mocks in test/e2e/providers-azure-compat*.test.ts enforce it):
 * - `max_tokens`, not `max_completion_tokens`: Mistral answers the latter with a 422
 *   `extra_forbidden` (github.com/editor-code-assistant/eca/issues/231,
 *   github.com/OpenWhispr/openwhispr/issues/844); DeepSeek and Ollama ignore it.
 * - no `stream_options`: Mistral refuses it with a 422 and sends usage in its last chunk anyway
 *   (github.com/openai/openai-agents-python/issues/442, github.com/cline/cline/issues/582).
 * - Mistral tool-call ids are `[a-zA-Z0-9]{9}` ("Tool call id was call_… but must be a-z, A-Z,
 *   0-9, with a length of 9": github.com/langchain-ai/langchain/pull/24668).
 * - DeepSeek thinking mode: `reasoning_content` must come back on tool-call turns, else a 400
 *   (api-docs.deepseek.com/guides/thinking_mode, "Tool Calls").
 * - Groq refuses a content array in a system message ("'messages.0.content' : value must be a
 *   string": github.com/OpenHands/OpenHands/issues/4643); DeepSeek likewise
 *   (github.com/gptme/gptme/pull/896). Only there is text-only content joined into a string: the
 *   other hosts take arrays, and OpenRouter reads `cache_control` on the parts.
 * - OpenRouter searches and fetches for any model with its server tools `openrouter:web_search`
 *   and `openrouter:web_fetch` (openrouter.ai/docs/guides/features/server-tools/web-search; its
 *   `web` plugin and `:online` suffix are deprecated for them).
 */
import type { UpstreamOptions } from '../../../translators/types.ts';
import { COMPATIBLE_BASES, COMPATIBLE_PROVIDERS } from '../../config/provider-names.ts';
import type { Upstream } from '../../config/load.ts';
import type { Provider } from './types.ts';
import { joinUrl } from './url.ts';

export type CompatibleProviderName = (typeof COMPATIBLE_PROVIDERS)[number];

/** Every compatible host: the length limit as `max_tokens`. */
const COMMON: Partial<UpstreamOptions> = { maxTokensField: 'max_tokens' };

/**
 * Mistral's chat request fields (docs.mistral.ai/api, "Chat Completion"): its pydantic model
 * forbids any other (`store`, `user`, `logprobs`, `service_tier`, `reasoning_effort`… are a 422),
 * and the seed is `random_seed`.
 */
const MISTRAL_FIELDS = {
  allow: [
    'model', 'messages', 'temperature', 'top_p', 'max_tokens', 'stream', 'stop', 'random_seed', 'response_format', 'tools',
    'tool_choice', 'presence_penalty', 'frequency_penalty', 'n', 'prediction', 'parallel_tool_calls', 'prompt_mode', 'safe_prompt',
  ],
  rename: { seed: 'random_seed' },
} as const;

/** Each host's own knobs on top of COMMON. */
const QUIRKS: Record<CompatibleProviderName, Partial<UpstreamOptions>> = {
  openrouter: { webTools: 'openrouter' },
  deepseek: { replayReasoning: true, textContent: 'string' },
  mistral: { streamOptions: false, toolCallIds: 'alphanumeric-9', bodyFields: MISTRAL_FIELDS },
  groq: { textContent: 'string' },
  xai: {},
  together: {},
  fireworks: {},
  cerebras: {},
  ollama: {},
  vllm: {},
};

const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]', '0.0.0.0']);

/** Well-known host → provider, from the default bases (local servers have no well-known host). */
const BY_HOST: ReadonlyMap<string, CompatibleProviderName> = new Map(
  COMPATIBLE_PROVIDERS.map((name) => [new URL(COMPATIBLE_BASES[name]).hostname, name] as const).filter(([host]) => !LOCAL.has(host)),
);

/** The compatible provider whose well-known host a base URL is on (a plain upstream's quirks). */
export function providerOfHost(baseUrl: string): CompatibleProviderName | undefined {
  try {
    return BY_HOST.get(new URL(baseUrl).hostname.toLowerCase());
  } catch {
    return undefined;
  }
}

function compatibleProvider(name: CompatibleProviderName): (upstream: Upstream) => Provider {
  const options = { ...COMMON, ...QUIRKS[name] };
  return (upstream) => ({
    // The knobs are Chat Completions ones: another dialect on such a host is sent as is.
    options: () => (upstream.dialect === 'openai' ? options : {}),
    url: (req) => joinUrl(upstream.baseUrl, req.path),
  });
}

/** The factories of the compatible providers, by name (registered in index.ts). */
export const compatibleFactories = Object.fromEntries(COMPATIBLE_PROVIDERS.map((name) => [name, compatibleProvider(name)])) as Record<
  CompatibleProviderName,
  (upstream: Upstream) => Provider
>;
