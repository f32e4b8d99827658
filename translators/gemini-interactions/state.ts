/**
 * The Interactions API's server-side state, as rules the flow applies toward upstreams that keep
 * none (src/flows/state.ts does the I/O): `previous_interaction_id` (`store` defaults to true in
 * this API), plus `GET` / `DELETE /v1beta/interactions/{id}` from what was kept.
 *
 * Kept per answered interaction: `interaction:{id}` →
 * `{"interaction": <the answer as the caller got it, its output steps included>,
 *   "input": <the whole input it answered as steps, the history rebuilt from earlier turns first>,
 *   "settings": {system_instruction?, tools?, generation_config?}}`.
 * A continuation's input is the stored input, then the stored output steps, then its own input.
 * The docs' stateful function-calling turn sends only the `function_result` with
 * `previous_interaction_id` (not the tools again), so toward a stateless upstream the stored
 * `system_instruction`, `tools` and `generation_config` carry over where the new body has none.
 *
 * Streams: the `interaction.completed` frame carries no steps (stream-answer.ts), so `finalOf`
 * alone stores an interaction without output steps and a continuation would lose them. The flow
 * must fold the frames with `collect()` (a collector per stream; it returns the whole Interaction at
 * `interaction.completed`) instead of `finalOf` where the dialect state offers one.
 */
import { ProxyError, type StreamFrame } from '../../src/canonical/index.ts';
import type { DialectState, StateReference } from '../types.ts';
import { collectInteraction } from './stream-answer.ts';
import { MEDIA_CONTENT_TYPES } from './wire.ts';
import { isJsonObject as isRecord } from '../../src/kit/index.ts';

type Wire = Record<string, unknown>;


const interactionKey = (id: string) => `interaction:${id}`;

const CONTENT_TYPES = new Set<string>(['text', ...MEDIA_CONTENT_TYPES]);

/** Settings a continuation inherits from the interaction it continues, when it sends none. */
const CARRIED = ['system_instruction', 'tools', 'generation_config'] as const;

/** Steps a model makes (everything else in an input is the caller's). */
const MODEL_STEPS = new Set(['model_output', 'thought', 'function_call']);

/** `input` as a list of steps: a string, one content or a content list is one `user_input` step. */
export function inputSteps(input: unknown): unknown[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'user_input', content: [{ type: 'text', text: input }] }];
  if (!Array.isArray(input)) return [{ type: 'user_input', content: [input] }];
  const first = input[0];
  if (isRecord(first) && typeof first['type'] === 'string' && CONTENT_TYPES.has(first['type'])) return [{ type: 'user_input', content: input }];
  return input;
}

interface Stored {
  interaction: Wire;
  input: unknown[];
  settings?: Wire;
}

function parseStored(text: string): Stored {
  const v = JSON.parse(text) as Stored;
  if (!isRecord(v) || !isRecord(v.interaction) || !Array.isArray(v.input)) throw new Error('not a stored interaction');
  return v;
}

const outputSteps = (s: Stored): unknown[] => (Array.isArray(s.interaction['steps']) ? (s.interaction['steps'] as unknown[]) : []);

function references(body: unknown): { refs: StateReference[]; statefulOnly?: string } {
  if (!isRecord(body)) return { refs: [] };
  const refs: StateReference[] = [];
  const prev = body['previous_interaction_id'];
  if (typeof prev === 'string' && prev) refs.push({ key: interactionKey(prev), param: 'previous_interaction_id', id: prev });
  const statefulOnly = body['background'] === true ? 'background' : body['agent'] != null ? 'agent' : body['agent_config'] != null ? 'agent_config' : undefined;
  return statefulOnly ? { refs, statefulOnly } : { refs };
}

function expand(body: unknown, found: ReadonlyMap<string, string>): unknown {
  if (!isRecord(body)) return body;
  const prev = body['previous_interaction_id'];
  if (typeof prev !== 'string' || !prev) return body;
  const text = found.get(interactionKey(prev));
  if (text === undefined) throw new Error(`missing ${interactionKey(prev)}`);
  const stored = parseStored(text);
  const { previous_interaction_id: _prev, ...rest } = body;
  const input = [...stored.input, ...outputSteps(stored), ...inputSteps(body['input'])];
  if (input.length === 0) {
    throw new ProxyError('invalid-request', "'input' is empty once 'previous_interaction_id' is resolved (the interaction it names kept no steps) and no new input was given.", { param: 'input' });
  }
  const out: Wire = { ...rest, input };
  for (const key of CARRIED) {
    if (out[key] == null && stored.settings?.[key] != null) out[key] = stored.settings[key];
  }
  return out;
}

function record(request: unknown, response: unknown): Array<[string, string]> {
  if (!isRecord(request) || !isRecord(response) || typeof response['id'] !== 'string') return [];
  const settings: Wire = {};
  for (const key of CARRIED) if (request[key] != null) settings[key] = request[key];
  const value: Stored = { interaction: response, input: inputSteps(request['input']), settings };
  return [[interactionKey(response['id']), JSON.stringify(value)]];
}

/**
 * The `interaction.completed` frame's interaction (id, status, usage; no steps in a stream: see
 * the header, and `collect`).
 */
function finalOf(frame: StreamFrame): unknown {
  if (frame.event !== 'interaction.completed') return undefined;
  try {
    const data = JSON.parse(frame.data) as unknown;
    return isRecord(data) && isRecord(data['interaction']) ? data['interaction'] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `GET /v1beta/interactions/{id}`: the interaction's own timeline, its input steps first (the
 * breaking-changes guide). Its own input is what follows the last model step of the input kept
 * (a continuation's rebuilt history is earlier interactions' timeline, not this one's).
 */
function retrieved(text: string): unknown {
  const stored = parseStored(text);
  let from = 0;
  stored.input.forEach((step, i) => {
    if (isRecord(step) && typeof step['type'] === 'string' && MODEL_STEPS.has(step['type'])) from = i + 1;
  });
  return { ...stored.interaction, steps: [...stored.input.slice(from), ...outputSteps(stored)] };
}

/** The rules, plus a per-stream collector of the whole Interaction (`DialectState.collect`; see the header). */
export const interactionsState: DialectState & { collect(): (frame: StreamFrame) => unknown } = {
  answer: { noun: 'Interaction', idParam: 'id' },
  // An interaction that is not there is a 404 NOT_FOUND, as for a GET of it.
  notFound: (param, id) =>
    new ProxyError('not-found', `Interaction '${id}' not found (it expired, was deleted, or was answered by another deployment).`, { param, code: 'not_found' }),
  references,
  expand,
  keeps: (body) => !(isRecord(body) && body['store'] === false),
  finalOf,
  collect: collectInteraction,
  record,
  keyOf: interactionKey,
  ownedKeys: () => [],
  retrieved,
  inputItems: () => {
    throw new ProxyError('not-found', 'The Interactions API has no input-items listing; GET the interaction itself.', { code: 'NOT_FOUND' });
  },
  // The SDK's `InteractionDeleteResponse` is `Empty`: `{}`.
  deleted: () => ({}),
};
