/**
 * A wire-accurate Gemini Interactions upstream answer for the mock upstream, scripted by its
 * output steps: the JSON `Interaction` (this turn's output steps only, `status`, `usage`), or the
 * SSE stream as the service frames it — each frame `event: <type>` + `data: {…, "event_type":
 * "<type>"}`: `interaction.created` (in_progress) → per step `step.start` / `step.delta`… /
 * `step.stop` → `interaction.completed` (no steps) → `event: done` / `data: [DONE]`; a failure
 * midway is an `error` event, then `done`. Shaped after `@google/genai` 2.32.0's `Interaction`,
 * `InteractionSSEEvent` and `Step` types and ../shared/spec/interactions-api.md.
 */
import type { MockHandler, MockReply } from './mock-upstream.ts';

export type InteractionsMockStep =
  | { type: 'text'; text: string }
  | { type: 'thought'; signature: string; summary?: string[] }
  | { type: 'function_call'; id: string; name: string; arguments: Record<string, unknown> };

export interface InteractionsMockScript {
  id?: string;
  model?: string;
  steps: InteractionsMockStep[];
  usage?: { input: number; output: number; thought?: number; cached?: number };
  /** `incomplete` (as at max_output_tokens); otherwise `requires_action` when a function is called, else `completed`. */
  incomplete?: boolean;
  /** Streams: `step.start` already carries the first text piece / the summary (as the docs' captures show). */
  contentInStart?: boolean;
  /** Streams only: after this many steps, an `error` event instead of the rest. */
  failAfter?: { steps: number; message: string; code?: string };
}

export const INTERACTIONS_CREATED = '2026-06-20T10:00:00Z';
export const INTERACTIONS_UPDATED = '2026-06-20T10:00:03Z';

/** Split text in up to `n` pieces (so deltas are really incremental). */
function pieces(text: string, n = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / n);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** A step as the Interaction's `steps` holds it. */
export function interactionsStep(step: InteractionsMockStep): Record<string, unknown> {
  switch (step.type) {
    case 'text':
      return { type: 'model_output', content: [{ type: 'text', text: step.text }] };
    case 'thought':
      return { type: 'thought', signature: step.signature, ...(step.summary ? { summary: step.summary.map((text) => ({ type: 'text', text })) } : {}) };
    case 'function_call':
      return { type: 'function_call', id: step.id, name: step.name, arguments: step.arguments };
  }
}

export function interactionsUsage(s: InteractionsMockScript): Record<string, unknown> {
  const u = s.usage ?? { input: 11, output: 7 };
  return {
    total_input_tokens: u.input,
    total_output_tokens: u.output,
    total_thought_tokens: u.thought ?? 0,
    total_cached_tokens: u.cached ?? 0,
    total_tool_use_tokens: 0,
    total_tokens: u.input + u.output + (u.thought ?? 0),
    input_tokens_by_modality: [{ modality: 'text', tokens: u.input }],
  };
}

function status(s: InteractionsMockScript): string {
  if (s.incomplete) return 'incomplete';
  return s.steps.some((st) => st.type === 'function_call') ? 'requires_action' : 'completed';
}

const head = (s: InteractionsMockScript) => ({ id: s.id ?? 'v1_mock_interaction_1', object: 'interaction', model: s.model ?? 'gemini-3-flash-preview' });

/** The JSON body of a finished interaction. */
export function interactionsJson(s: InteractionsMockScript): Record<string, unknown> {
  return {
    ...head(s),
    status: status(s),
    created: INTERACTIONS_CREATED,
    updated: INTERACTIONS_UPDATED,
    role: 'model',
    steps: s.steps.map(interactionsStep),
    usage: interactionsUsage(s),
  };
}

/** The stream's events, each `{event_type, …}`. */
export function interactionsEvents(s: InteractionsMockScript): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const add = (event_type: string, fields: Record<string, unknown>) => out.push({ event_type, ...fields });
  add('interaction.created', { interaction: { ...head(s), status: 'in_progress', created: INTERACTIONS_CREATED } });
  for (const [index, step] of s.steps.entries()) {
    if (s.failAfter && index >= s.failAfter.steps) break;
    switch (step.type) {
      case 'text': {
        const parts = pieces(step.text);
        const first = s.contentInStart ? parts.shift()! : undefined;
        add('step.start', { index, step: { type: 'model_output', content: first !== undefined ? [{ type: 'text', text: first }] : [] } });
        for (const text of parts) add('step.delta', { index, delta: { type: 'text', text } });
        break;
      }
      case 'thought': {
        const inStart = s.contentInStart ? (step.summary ?? []) : [];
        add('step.start', { index, step: { type: 'thought', signature: '', summary: inStart.map((text) => ({ type: 'text', text })) } });
        if (!s.contentInStart) for (const text of step.summary ?? []) add('step.delta', { index, delta: { type: 'thought_summary', content: { type: 'text', text } } });
        add('step.delta', { index, delta: { type: 'thought_signature', signature: step.signature } });
        break;
      }
      case 'function_call': {
        add('step.start', { index, step: { type: 'function_call', id: step.id, name: step.name, arguments: {} } });
        for (const fragment of pieces(JSON.stringify(step.arguments))) add('step.delta', { index, delta: { type: 'arguments_delta', arguments: fragment } });
        break;
      }
    }
    add('step.stop', { index });
  }
  if (s.failAfter) add('error', { error: { message: s.failAfter.message, code: s.failAfter.code ?? 'gateway_timeout' } });
  else add('interaction.completed', { interaction: { ...head(s), status: status(s), created: INTERACTIONS_CREATED, updated: INTERACTIONS_UPDATED, usage: interactionsUsage(s) } });
  return out;
}

/** The same as SSE frames, one chunk per event as the service flushes them, ending `done` / `[DONE]`. */
export function interactionsSseChunks(s: InteractionsMockScript): string[] {
  return [...interactionsEvents(s).map((e) => `event: ${e.event_type}\ndata: ${JSON.stringify(e)}\n\n`), 'event: done\ndata: [DONE]\n\n'];
}

/** A mock reply: the stream when asked for one, else the JSON body. */
export function interactionsReply(s: InteractionsMockScript, stream: boolean): MockReply {
  return stream
    ? { headers: { 'content-type': 'text/event-stream' }, chunks: interactionsSseChunks(s) }
    : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(interactionsJson(s)) };
}

/** A handler answering as the request asks (`stream: true` in its body → the stream). */
export function interactionsAnswer(s: InteractionsMockScript): MockHandler {
  return (req) => interactionsReply(s, req.json?.stream === true);
}

/** An HTTP error in Google's shape. */
export function interactionsError(code: number, status: string, message: string, headers: Record<string, string> = {}): MockReply {
  return { status: code, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ error: { code, message, status } }) };
}
