/**
 * The upstream a dialect encodes for (part of the dialect contract, re-exported by types.ts): the
 * target a request goes to, the per-upstream knobs from config that change its encoding, and the
 * HTTP request a dialect builds for it.
 */
import type { ByteParts, JsonBodyKeep } from '../src/kit/index.ts';

/** Per-upstream settings from config that change how requests are encoded. */
export interface UpstreamOptions {
  /** Anthropic: `max_tokens` when the caller gave none. */
  defaultMaxTokens?: number;
  /** Anthropic: `anthropic-version` to send (default `2023-06-01`). */
  anthropicVersion?: string;
  /** Anthropic: `anthropic-beta` values to always send. */
  anthropicBeta?: string[];
  /**
   * Anthropic: the only betas this upstream may receive — exact names, or a prefix ending in `*`
   * (`context-1m-*`). Any other beta (configured or the caller's) is never sent and is reported
   * as `dropped:anthropic-beta=NAME`. Undefined: every beta is forwarded.
   */
  anthropicBetaAllow?: string[];
  /** Gemini images: an edit's mask is refused (default) or approximated by an instruction. */
  imageMask?: 'refuse' | 'instruction';
  /** Extra headers to send upstream (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /**
   * OpenAI Chat and Responses: sent as `prompt_cache_key` when the request carries none (a keyed
   * hash of the caller's session, set by the proxy for hosts that take the field).
   */
  promptCacheKey?: string;
  /**
   * Wire knobs a host of the dialect needs (set by the upstream's provider, never by a caller):
   * `modelInBody: false` — the model is only in the URL (Anthropic on Vertex AI and Bedrock);
   * `countTokensModelInBody` — Anthropic count_tokens keeps `model` in the body all the same
   * (Vertex AI counts at one URL for every model, `count-tokens:rawPredict`);
   * `anthropicVersionInBody` — `anthropic_version` goes in the body, not the header;
   * `betasInBody` — betas go as `anthropic_beta` in the body, not the header (Bedrock);
   * `streamInBody: false` — the URL chooses streaming, `stream` is never in the body (Bedrock);
   * `countTokensBody: 'direct'` — Gemini countTokens takes `contents`, `systemInstruction`,
   * `tools`, `generationConfig` directly, not the `generateContentRequest` wrapper (Vertex AI);
   * `countTokensBody: 'invoke-model'` — Anthropic token counting sends the whole Messages body
   * (as the host's create call takes it), base64-encoded as `{input: {invokeModel: {body}}}`,
   * and reads `inputTokens` (Bedrock CountTokens).
   */
  modelInBody?: boolean;
  countTokensModelInBody?: boolean;
  anthropicVersionInBody?: string;
  betasInBody?: boolean;
  streamInBody?: boolean;
  countTokensBody?: 'wrapped' | 'direct' | 'invoke-model';
  /**
   * Chat Completions knobs of the OpenAI-compatible hosts (set by src/upstream/providers/compatible.ts;
   * unset is OpenAI proper and Azure), applied on the translated and the passthrough path alike:
   * `maxTokensField` — the length limit's name: `max_completion_tokens` (default) or `max_tokens`
   * (Mistral refuses the former with a 422, DeepSeek and Ollama ignore it);
   * `streamOptions: false` — no `stream_options` (Mistral refuses it; it sends usage anyway);
   * `replayReasoning` — an assistant turn's reasoning text goes back as `reasoning_content`
   * (DeepSeek thinking mode answers a tool-call turn without it with a 400);
   * `toolCallIds: 'alphanumeric-9'` — tool-call ids must match `[a-zA-Z0-9]{9}` (Mistral): other
   * ids are mapped deterministically, a call and its result to the same id;
   * `textContent: 'string'` — text-only content goes as one string, parts joined by a blank line
   * (Groq and DeepSeek take no content arrays in system and assistant messages);
   * `bodyFields` — the only top-level fields the host accepts, and renames (Mistral answers any
   * other field with a 422 `extra_forbidden`, and calls `seed` `random_seed`).
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /**
   * How the host runs a caller's hosted web tools itself: `'openrouter'` — OpenRouter's server
   * tools (`openrouter:web_search`, `openrouter:web_fetch`) for any model. Unset: only OpenAI's
   * search models search (`web_search_options`).
   */
  webTools?: 'openrouter';
  streamOptions?: boolean;
  replayReasoning?: boolean;
  toolCallIds?: 'alphanumeric-9';
  textContent?: 'string';
  bodyFields?: { allow: readonly string[]; rename?: Readonly<Record<string, string>> };
}

/** Where and how one upstream is called. Who hosts it (and so the full URL) is not the translator's business. */
export interface UpstreamTarget {
  /** Config name of the upstream (for messages, never a secret). */
  name: string;
  /** Model name to send (after routing renames). */
  model: string;
  /** Resolved credential: the upstream's own key, or the caller's forwarded one. */
  apiKey?: string;
  options: UpstreamOptions;
  /**
   * The last body sent to this upstream and model for the same caller (src/flows/forward/
   * turn-memo.ts): given to `jsonBody`, which reuses what is equal in it. Changes no byte.
   */
  sent?: JsonBodyKeep;
}

/**
 * A fully built upstream HTTP request, addressed relative to the upstream's base: the dialect's
 * own path as its vendor SDK appends it to a base URL (`/chat/completions`, `/v1/messages`,
 * `/v1beta/models/m:streamGenerateContent?alt=sse`). The provider the upstream names turns it
 * into the full URL (src/upstream/providers). Never contains a credential.
 */
export interface UpstreamHttpRequest {
  method: 'POST' | 'GET' | 'DELETE';
  /** Path and query, relative to the upstream's base URL; starts with `/`. */
  path: string;
  headers: Record<string, string>;
  /**
   * JSON text; bytes only when a same-dialect body is forwarded without decoding (`forwardRequest`),
   * in parts when its model is renamed.
   */
  body?: string | FormData | Uint8Array | ByteParts;
  /** The response is SSE. */
  stream: boolean;
}
