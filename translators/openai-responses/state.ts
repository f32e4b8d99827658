/**
 * The Responses API's server-side state, as rules the flow applies toward upstreams that keep
 * none (src/flows/state.ts does the I/O): `previous_response_id` (the earlier response's input and
 * output go before this input; its instructions do not carry over) and `{"type":"item_reference",
 * "id"}` items (the AI SDK's default replay of what it was given, by the ids we minted), plus
 * `GET`/`DELETE /v1/responses/{id}` and `…/input_items` from what was kept.
 *
 * Kept per answered response: `resp:{id}` → `{"response": <the answer as the caller got it>,
 * "input": <the whole input it answered, references resolved>}`, and `item:{id}` → each item
 * (output items, and input items that carry an id).
 * https://platform.openai.com/docs/api-reference/responses/create#responses-create-previous_response_id
 */
import { ProxyError, type StreamFrame } from '../../src/canonical/index.ts';
import type { DialectState, StateReference } from '../types.ts';

type Wire = Record<string, unknown>;

const isRecord = (x: unknown): x is Wire => !!x && typeof x === 'object' && !Array.isArray(x);

const responseKey = (id: string) => `resp:${id}`;
const GONE = '(it expired, was deleted, or was answered by another deployment)';
const itemKey = (id: string) => `item:${id}`;

/** The input as a list of items (a string input is one user message). */
function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return Array.isArray(input) ? input : [];
}

const isReference = (item: unknown): item is Wire & { id: string } =>
  isRecord(item) && item['type'] === 'item_reference' && typeof item['id'] === 'string';

interface Stored {
  response: Wire;
  input: unknown[];
}

function parseStored(text: string): Stored {
  const v = JSON.parse(text) as Stored;
  if (!isRecord(v) || !isRecord(v.response) || !Array.isArray(v.input)) throw new Error('not a stored response');
  return v;
}

function references(body: unknown): { refs: StateReference[]; statefulOnly?: string } {
  if (!isRecord(body)) return { refs: [] };
  const refs: StateReference[] = [];
  const prev = body['previous_response_id'];
  if (typeof prev === 'string' && prev) refs.push({ key: responseKey(prev), param: 'previous_response_id', id: prev });
  const input = body['input'];
  if (Array.isArray(input)) {
    input.forEach((item, i) => {
      if (isReference(item)) refs.push({ key: itemKey(item.id), param: `input[${i}].id`, id: item.id });
    });
  }
  const statefulOnly = body['background'] === true ? 'background' : body['conversation'] != null ? 'conversation' : undefined;
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
    const output = Array.isArray(stored.response['output']) ? (stored.response['output'] as unknown[]) : [];
    input = [...stored.input, ...output, ...own];
  }
  const { previous_response_id: _prev, ...rest } = body;
  return { ...rest, input };
}

function record(request: unknown, response: unknown): Array<[string, string]> {
  if (!isRecord(request) || !isRecord(response) || typeof response['id'] !== 'string') return [];
  const input = inputItems(request['input']);
  const out: Array<[string, string]> = [[responseKey(response['id']), JSON.stringify({ response, input })]];
  const output = Array.isArray(response['output']) ? response['output'] : [];
  for (const item of [...input, ...output]) {
    if (isRecord(item) && typeof item['id'] === 'string' && item['type'] !== 'item_reference') out.push([itemKey(item['id']), JSON.stringify(item)]);
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
  const output = parseStored(stored).response['output'];
  return (Array.isArray(output) ? output : []).flatMap((item) => (isRecord(item) && typeof item['id'] === 'string' ? [itemKey(item['id'])] : []));
}

/** `GET /v1/responses/{id}/input_items`: a cursor page, newest first unless `order=asc`. */
function listInputItems(stored: string, query: Record<string, string>): unknown {
  const { input } = parseStored(stored);
  const asked = Number.parseInt(query['limit'] ?? '20', 10);
  // 1 to 100 (0 and below are 1, as -3 is); 20 when not a number.
  const limit = Number.isNaN(asked) ? 20 : Math.min(100, Math.max(1, asked));
  let items = input.map((item, i) => (isRecord(item) && typeof item['id'] === 'string' ? item : { id: `item_${i}`, ...(isRecord(item) ? item : {}) })) as Wire[];
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
