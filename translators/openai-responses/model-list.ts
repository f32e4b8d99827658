/**
 * `GET /v1/models` for a Responses caller: OpenAI's list (`object: "list"`, `data[]`) and, in the
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
import type { ModelInfo } from '../types.ts';

/** One Codex catalogue entry (`ModelInfo`). */
function codexEntry(m: ModelInfo, priority: number): Record<string, unknown> {
  return {
    slug: m.id,
    display_name: m.id,
    description: `${m.id} via ${m.ownedBy}`,
    default_reasoning_level: 'medium',
    supported_reasoning_levels: [
      { effort: 'low', description: 'Quicker answers, lighter reasoning' },
      { effort: 'medium', description: 'Balanced speed and depth' },
      { effort: 'high', description: 'Deeper reasoning for harder problems' },
    ],
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
  };
}

export function encodeModelList(models: ModelInfo[]): unknown {
  // A configured glob (`gpt-*`) is a route, not a model Codex could select. With no model left,
  // no catalogue at all: Codex then keeps its bundled one instead of an empty one.
  const selectable = models.filter((m) => !m.id.includes('*'));
  return {
    object: 'list',
    data: models.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.ownedBy })),
    ...(selectable.length > 0 ? { models: selectable.map((m, i) => codexEntry(m, i)) } : {}),
  };
}
