/**
 * The Responses API's server-side state, as rules the flow applies toward upstreams that keep
 * none (src/flows/state.ts does the I/O): `previous_response_id` (the earlier response's input and
 * output go before this input; its instructions do not carry over) and `{"type":"item_reference",
 * "id"}` items (the AI SDK's default replay of what it was given, by the ids we minted), plus
 * `GET`/`DELETE /v1/responses/{id}` and `…/input_items` from what was kept.
 *
 * Kept per answered response: `resp:{id}` → `Stored` (below), and `item:{id}` → each item the
 * exchange brought (the caller's own input items and the output), as kept. What is kept may hold
 * more than the caller was shown (`KeptResponse`: another vendor's reasoning with its signature
 * when the caller did not ask for `reasoning.encrypted_content`), so a later turn by reference
 * still hands that vendor its signature back; what the caller reads back (retrieve, input items)
 * is what it was shown.
 * https://platform.openai.com/docs/api-reference/responses/create#responses-create-previous_response_id
 */
import { ProxyError, type StreamFrame } from '../../src/canonical/index.ts';
import type { DialectState, StateReference, TranslateContext } from '../types.ts';
import { listedItem } from './state-items.ts';
import { isJsonObject as isRecord } from '../../src/kit/index.ts';

type Wire = Record<string, unknown>;

const isArray = (x: unknown): x is unknown[] => Array.isArray(x);

const responseKey = (id: string) => `resp:${id}`;
const GONE = '(it expired, was deleted, or was answered by another deployment)';
const itemKey = (id: string) => `item:${id}`;

/**
 * What a Responses answer keeps (the encoders' `encodeKept` and stream `kept()`): the answer as
 * the caller got it, its output as kept where that is richer, and the ids of kept items the
 * caller never saw (a Gemini text signature's reasoning item, written only for callers that ask
 * for encrypted reasoning).
 */
export interface KeptResponse {
  response: Wire;
  output?: Wire[];
  hidden?: string[];
}

interface Stored {
  /** The answer as the caller got it. */
  response: Wire;
  /** The whole input it answered, references resolved, as listed items (with ids), as kept. */
  input: unknown[];
  /** Its output as kept, where richer than `response.output`. */
  output?: unknown[];
  /** Ids of items in `input` or `output` the caller was never shown. */
  hidden?: string[];
}

/** The input as a list of items (a string input is one user message). */
function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return isArray(input) ? input : [];
}

const isReference = (item: unknown): item is Wire & { id: string } =>
  isRecord(item) && item['type'] === 'item_reference' && typeof item['id'] === 'string';

function parseStored(text: string): Stored {
  const v = JSON.parse(text) as Stored;
  if (!isRecord(v) || !isRecord(v.response) || !isArray(v.input)) throw new Error('not a stored response');
  return v;
}

/** The output a later turn replays: as kept. */
const keptOutput = (s: Stored): unknown[] => (isArray(s.output) ? s.output : isArray(s.response['output']) ? s.response['output'] : []);

function keptOf(answer: unknown): KeptResponse | undefined {
  if (!isRecord(answer)) return undefined;
  // The encoders hand over a KeptResponse; a terminal frame's response (finalOf) is one as shown.
  if (isRecord(answer['response'])) return answer as unknown as KeptResponse;
  return { response: answer };
}

function references(body: unknown): { refs: StateReference[]; statefulOnly?: string } {
  if (!isRecord(body)) return { refs: [] };
  const refs: StateReference[] = [];
  const prev = body['previous_response_id'];
  if (typeof prev === 'string' && prev) refs.push({ key: responseKey(prev), param: 'previous_response_id', id: prev });
  const input = body['input'];
  if (isArray(input)) {
    input.forEach((item, i) => {
      if (isReference(item)) refs.push({ key: itemKey(item.id), param: `input[${i}].id`, id: item.id });
    });
  }
  // Served only where they are kept: a background run, a conversation, a prompt template stored at OpenAI.
  const statefulOnly = body['background'] === true ? 'background' : body['conversation'] != null ? 'conversation' : body['prompt'] != null ? 'prompt' : undefined;
  return statefulOnly ? { refs, statefulOnly } : { refs };
}

function expand(body: unknown, found: ReadonlyMap<string, string>): unknown {
  if (!isRecord(body)) return body;
  const take = (key: string): string => {
    const v = found.get(key);
    if (v === undefined) throw new Error(`missing ${key}`);
    return v;
  };
  const own = inputItems(body['input']).map((item) => (isReference(item) ? (JSON.parse(take(itemKey(item.id))) as unknown) : item));
  const prev = body['previous_response_id'];
  let input = own;
  if (typeof prev === 'string' && prev) {
    const stored = parseStored(take(responseKey(prev)));
    input = [...stored.input, ...keptOutput(stored), ...own];
    // (Item references always resolve to an item: only a previous response can add nothing.)
    if (input.length === 0) throw emptyHistory();
  }
  const { previous_response_id: _prev, ...rest } = body;
  return { ...rest, input };
}

function emptyHistory(): ProxyError {
  return new ProxyError('invalid-request', "Invalid 'input': empty once 'previous_response_id' is resolved (the response it names kept no input or output) and no new input was given.", {
    param: 'input',
    code: 'empty_array',
  });
}
/** The ids of every item the referenced answers kept, and those of them the caller never saw. */
function referenced(found: ReadonlyMap<string, string>): { ids: Set<string>; hidden: string[] } {
  const ids = new Set<string>();
  const hidden: string[] = [];
  const note = (item: unknown) => {
    if (isRecord(item) && typeof item['id'] === 'string') ids.add(item['id']);
  };
  for (const [key, text] of found) {
    if (key.startsWith('item:')) note(JSON.parse(text));
    else {
      const s = parseStored(text);
      for (const item of [...s.input, ...keptOutput(s)]) note(item);
      hidden.push(...(s.hidden ?? []));
    }
  }
  return { ids, hidden };
}

function record(request: unknown, answer: unknown, found: ReadonlyMap<string, string>, ctx: TranslateContext): Array<[string, string]> {
  const kept = keptOf(answer);
  if (!isRecord(request) || !kept || typeof kept.response['id'] !== 'string') return [];
  const before = referenced(found);
  const input = inputItems(request['input']).map((item) => listedItem(item, ctx));
  const output = kept.output ?? (isArray(kept.response['output']) ? kept.response['output'] : []);
  const hidden = [...before.hidden, ...(kept.hidden ?? [])];
  const value: Stored = { response: kept.response, input, ...(kept.output && { output: kept.output }), ...(hidden.length > 0 && { hidden }) };
  const out: Array<[string, string]> = [[responseKey(kept.response['id']), JSON.stringify(value)]];
  // The items this exchange brought (the referenced ones are kept already, under their answers).
  for (const item of [...input, ...output]) {
    if (isRecord(item) && typeof item['id'] === 'string' && item['type'] !== 'item_reference' && !before.ids.has(item['id'])) out.push([itemKey(item['id']), JSON.stringify(item)]);
  }
  return out;
}

/** The terminal event of a Responses stream carries the whole response. */
function finalOf(frame: StreamFrame): unknown {
  if (frame.event !== 'response.completed' && frame.event !== 'response.incomplete' && frame.event !== 'response.failed') return undefined;
  try {
    return (JSON.parse(frame.data) as Wire)['response'];
  } catch {
    return undefined;
  }
}

/**
 * The output items' keys of a stored response: deleting a response deletes them too, so an
 * `item_reference` to one of them is a 400 afterwards. Its input items are not its own (an id
 * there was minted for an earlier response, which still holds it).
 */
function ownedKeys(stored: string): string[] {
  return keptOutput(parseStored(stored)).flatMap((item) => (isRecord(item) && typeof item['id'] === 'string' ? [itemKey(item['id'])] : []));
}

/** `include` of a by-id route, however the client spelled the list (`include=a,b`, `include[]=a`). */
const includes = (query: Record<string, string>, what: string) =>
  [query['include'], query['include[]']].some((v) => v !== undefined && v.split(',').map((s) => s.trim()).includes(what));

/** An input item as the caller may read it back: encrypted reasoning only when `include` asks. */
function shown(item: unknown, encrypted: boolean): unknown {
  if (encrypted || !isRecord(item) || item['type'] !== 'reasoning' || item['encrypted_content'] === undefined) return item;
  const { encrypted_content: _e, ...rest } = item;
  return rest;
}

/** `GET /v1/responses/{id}/input_items`: a cursor page, newest first unless `order=asc`. */
function listInputItems(stored: string, query: Record<string, string>): unknown {
  const s = parseStored(stored);
  const hidden = new Set(s.hidden ?? []);
  const encrypted = includes(query, 'reasoning.encrypted_content');
  const asked = Number.parseInt(query['limit'] ?? '20', 10);
  // 1 to 100 (0 and below are 1, as -3 is); 20 when not a number.
  const limit = Number.isNaN(asked) ? 20 : Math.min(100, Math.max(1, asked));
  let items = s.input
    .filter((item) => !(isRecord(item) && typeof item['id'] === 'string' && hidden.has(item['id'])))
    // An entry kept before items were kept with ids: a positional one.
    .map((item, i) => (isRecord(item) && typeof item['id'] === 'string' ? item : { id: `item_${i}`, ...(isRecord(item) ? item : {}) }))
    .map((item) => shown(item, encrypted)) as Wire[];
  if (query['order'] !== 'asc') items = items.reverse();
  const after = query['after'];
  if (after) {
    const at = items.findIndex((it) => it['id'] === after);
    if (at < 0) throw new ProxyError('invalid-request', `No input item with id '${after}'.`, { param: 'after', code: 'invalid_value' });
    items = items.slice(at + 1);
  }
  const page = items.slice(0, limit);
  return { object: 'list', data: page, first_id: page[0]?.['id'] ?? null, last_id: page.at(-1)?.['id'] ?? null, has_more: items.length > page.length };
}

/** An id the store does not hold: a 400 naming the parameter, as OpenAI answers it. */
function notFound(param: string, id: string): ProxyError {
  const previous = param === 'previous_response_id';
  return new ProxyError('invalid-request', `${previous ? 'Previous response' : 'Item'} with id '${id}' not found ${GONE}.`, {
    param,
    code: previous ? 'previous_response_not_found' : 'item_not_found',
  });
}

export const responsesState: DialectState = {
  answer: { noun: 'Response', idParam: 'response_id' },
  notFound,
  references,
  expand,
  keeps: (body) => !(isRecord(body) && body['store'] === false),
  finalOf,
  record,
  keyOf: responseKey,
  ownedKeys,
  retrieved: (stored) => parseStored(stored).response,
  inputItems: listInputItems,
  deleted: (id) => ({ id, object: 'response', deleted: true }),
};
