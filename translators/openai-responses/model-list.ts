/**
 * Model lists. `GET /v1/models` for a Responses caller: OpenAI's list (`object: "list"`, `data[]`) and, in the
 * same object, the catalogue Codex reads for discovery (`models[]`). Codex fetches
 * `{base_url}/models?client_version=…` and decodes `{"models": [ModelInfo…]}`; an entry missing
 * any field without a serde default fails the whole catalogue, and Codex falls back to its
 * bundled one (codex-rs/protocol/src/openai_models.rs `ModelInfo`, codex-rs/codex-api/src/endpoint/
 * models.rs). So each entry carries every such field, with values the proxy can stand behind.
 *
 * Caveat: Codex takes an entry's `base_instructions` as that model's whole system prompt. The
 * proxy has none to offer, so it is empty; Codex users who pick a listed model should set their
 * own (`model_instructions_file`), or the model runs without Codex's prompt.
 */
import type { ModelInfo, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { asObject, upstreamHeaders } from './encode-request.ts';

const LEVELS = [
  { effort: 'low', description: 'Quicker answers, lighter reasoning' },
  { effort: 'medium', description: 'Balanced speed and depth' },
  { effort: 'high', description: 'Deeper reasoning for harder problems' },
];

/**
 * One Codex catalogue entry (`ModelInfo`). What the route states goes in too: its context window
 * (Codex compacts at 90 % of it unless told otherwise) and a forced effort as the only level
 * offered (the proxy applies it whatever Codex asks).
 */
function codexEntry(m: ModelInfo, priority: number): Record<string, unknown> {
  const forced = m.reasoning?.effort;
  return {
    slug: m.id,
    display_name: m.id,
    description: `${m.id} via ${m.ownedBy}`,
    default_reasoning_level: forced ?? 'medium',
    supported_reasoning_levels: forced ? [{ effort: forced, description: 'The effort this route always uses' }] : LEVELS,
    shell_type: 'shell_command',
    visibility: 'list',
    minimal_client_version: [0, 0, 0],
    supported_in_api: true,
    priority,
    upgrade: null,
    base_instructions: '',
    supports_reasoning_summaries: true,
    support_verbosity: false,
    default_verbosity: null,
    // Freeform apply_patch works against every upstream: the proxy lowers it where needed.
    apply_patch_tool_type: 'freeform',
    truncation_policy: { mode: 'bytes', limit: 10_000 },
    supports_parallel_tool_calls: true,
    experimental_supported_tools: [],
    input_modalities: ['text', 'image'],
    ...(m.contextWindow !== undefined && { context_window: m.contextWindow }),
  };
}

/** An OpenAI list entry, with the route's token limits where it states them (fields OpenAI's own list lacks). */
function openAIEntry(m: ModelInfo): Record<string, unknown> {
  return {
    id: m.id,
    object: 'model',
    created: m.created,
    owned_by: m.ownedBy,
    ...(m.contextWindow !== undefined && { context_window: m.contextWindow }),
    ...(m.maxOutputTokens !== undefined && { max_output_tokens: m.maxOutputTokens }),
  };
}

export function encodeModelList(models: ModelInfo[]): unknown {
  // A configured glob (`gpt-*`) is a route, not a model Codex could select. With no model left,
  // no catalogue at all: Codex then keeps its bundled one instead of an empty one.
  const selectable = models.filter((m) => !m.id.includes('*'));
  return {
    object: 'list',
    data: models.map(openAIEntry),
    ...(selectable.length > 0 ? { models: selectable.map((m, i) => codexEntry(m, i)) } : {}),
  };
}

export function encodeModelListRequest(target: UpstreamTarget): UpstreamHttpRequest {
  const { 'content-type': _json, ...headers } = upstreamHeaders(target);
  return { method: 'GET', path: '/models', headers, stream: false };
}

/** The upstream's model list: `data[].id` (OpenAI), or `models[].slug` (Codex's catalogue shape). */
export function decodeModelList(body: unknown): string[] {
  const obj = asObject(body);
  const data = Array.isArray(obj['data']) ? (obj['data'] as unknown[]).map((m) => asObject(m)['id']) : [];
  const models = Array.isArray(obj['models']) ? (obj['models'] as unknown[]).map((m) => asObject(m)['slug'] ?? asObject(m)['id']) : [];
  return [...new Set([...data, ...models].filter((id): id is string => typeof id === 'string'))];
}
