import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/support/fixtures.ts';
import { responsesState as s } from './state.ts';

const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
/** A user message as kept and listed: with its minted id and a status. */
const listed = (text: string, n: number) => ({ ...user(text), id: `msg_test${String(n).padStart(4, '0')}`, status: 'completed' });
const record = (request: unknown, answer: unknown, found: ReadonlyMap<string, string> = new Map(), ctx = testContext()) => s.record(request, answer, found, ctx);
const answer = {
  id: 'resp_1',
  object: 'response',
  output: [
    { id: 'rs_1', type: 'reasoning', summary: [] },
    { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi!', annotations: [] }] },
  ],
};

describe('responses state rules', () => {
  it('references: previous_response_id first, then item references by position; background and conversation named', () => {
    expect(s.references({ input: 'hi' })).toEqual({ refs: [] });
    expect(s.references({ previous_response_id: 'resp_1', input: [user('a'), { type: 'item_reference', id: 'msg_1' }] })).toEqual({
      refs: [
        { key: 'resp:resp_1', param: 'previous_response_id', id: 'resp_1' },
        { key: 'item:msg_1', param: 'input[1].id', id: 'msg_1' },
      ],
    });
    expect(s.references({ background: true }).statefulOnly).toBe('background');
    expect(s.references({ conversation: 'conv_1' }).statefulOnly).toBe('conversation');
    expect(s.references({ prompt: { id: 'pmpt_1', version: '2' } }).statefulOnly).toBe('prompt');
    expect(s.references({ background: false, conversation: null, prompt: null }).statefulOnly).toBeUndefined();
    expect(s.references(null)).toEqual({ refs: [] });
  });

  it('record keeps the response with its whole input as listed items (ids minted), and every item', () => {
    const kept = new Map(record({ input: 'hello', instructions: 'be brief' }, answer));
    expect([...kept.keys()]).toEqual(['resp:resp_1', 'item:msg_test0001', 'item:rs_1', 'item:msg_1']);
    expect(JSON.parse(kept.get('resp:resp_1')!)).toEqual({ response: answer, input: [listed('hello', 1)] });
    expect(JSON.parse(kept.get('item:msg_1')!)).toEqual(answer.output[1]);
    expect(record({ input: 'x' }, { output: [] })).toEqual([]);
  });

  it('expand: the previous input and output go first, references become their items, instructions do not carry over', () => {
    const found = new Map(record({ input: 'hello', instructions: 'be brief' }, answer));
    const body = { model: 'm', previous_response_id: 'resp_1', input: [{ type: 'item_reference', id: 'rs_1' }, user('again')] };
    expect(s.expand(body, found)).toEqual({ model: 'm', input: [listed('hello', 1), ...answer.output, answer.output[0], user('again')] });
    expect(s.expand({ model: 'm', previous_response_id: 'resp_1', input: 'next' }, found)).toEqual({ model: 'm', input: [listed('hello', 1), ...answer.output, user('next')] });
    expect(() => s.expand({ input: [{ type: 'item_reference', id: 'nope' }] }, found)).toThrow();
  });

  it('keeps unless store is false; the terminal stream frame carries the response', () => {
    expect(s.keeps({})).toBe(true);
    expect(s.keeps({ store: true })).toBe(true);
    expect(s.keeps({ store: false })).toBe(false);
    expect(s.finalOf({ event: 'response.completed', data: JSON.stringify({ type: 'response.completed', response: answer }) })).toEqual(answer);
    expect(s.finalOf({ event: 'response.incomplete', data: JSON.stringify({ response: { id: 'x' } }) })).toEqual({ id: 'x' });
    expect(s.finalOf({ event: 'response.output_text.delta', data: '{}' })).toBeUndefined();
    expect(s.finalOf({ event: 'response.completed', data: 'not json' })).toBeUndefined();
  });

  it('retrieve, input items (newest first, paged) and delete answers', () => {
    const stored = new Map(record({ input: [user('a'), user('b'), user('c')] }, answer)).get('resp:resp_1')!;
    expect(s.retrieved(stored)).toEqual(answer);
    const page = s.inputItems(stored, { limit: '2' }) as { data: Array<{ id: string }>; has_more: boolean; first_id: string; last_id: string };
    expect(page.data).toEqual([listed('c', 3), listed('b', 2)]);
    expect(page).toMatchObject({ object: 'list', has_more: true, first_id: 'msg_test0003', last_id: 'msg_test0002' });
    const next = s.inputItems(stored, { limit: '2', after: 'msg_test0002' }) as { data: Array<{ id: string }>; has_more: boolean };
    expect(next.data.map((d) => d.id)).toEqual(['msg_test0001']);
    expect(next.has_more).toBe(false);
    expect((s.inputItems(stored, { order: 'asc' }) as { data: Array<{ id: string }> }).data.map((d) => d.id)).toEqual(['msg_test0001', 'msg_test0002', 'msg_test0003']);
    expect(() => s.inputItems(stored, { after: 'zzz' })).toThrow(/No input item/);
    expect(s.deleted('resp_1')).toEqual({ id: 'resp_1', object: 'response', deleted: true });
    expect(s.keyOf('resp_9')).toBe('resp:resp_9');
  });

  it("deleting a response deletes its output items, not the input items it was given", () => {
    const stored = new Map(record({ input: [{ ...user('a'), id: 'msg_in' }] }, { ...answer, output: [...answer.output, { type: 'message', content: [] }, 'junk', { id: 7 }] })).get('resp:resp_1')!;
    expect(s.ownedKeys(stored)).toEqual(['item:rs_1', 'item:msg_1']);
    expect(s.ownedKeys(JSON.stringify({ response: { id: 'r', output: 'none' }, input: [] }))).toEqual([]);
  });

  it('an id the store does not hold is a 400 naming it, as OpenAI words it', () => {
    expect(s.notFound('previous_response_id', 'resp_x')).toMatchObject({
      kind: 'invalid-request',
      message: "Previous response with id 'resp_x' not found (it expired, was deleted, or was answered by another deployment).",
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
    expect(s.notFound('input[2].id', 'msg_x')).toMatchObject({
      message: "Item with id 'msg_x' not found (it expired, was deleted, or was answered by another deployment).",
      param: 'input[2].id',
      code: 'item_not_found',
    });
    expect(s.answer).toEqual({ noun: 'Response', idParam: 'response_id' });
  });

  it('references: an empty previous id, references without a string id and a null conversation are none', () => {
    expect(s.references({ previous_response_id: '', input: [{ type: 'item_reference', id: 5 }, { type: 'message', id: 'msg_1' }, 'x'], conversation: null })).toEqual({ refs: [] });
    expect(s.references({ background: 'yes', conversation: { id: 'conv_1' } })).toEqual({ refs: [], statefulOnly: 'conversation' });
    expect(s.references([{ previous_response_id: 'resp_1' }])).toEqual({ refs: [] });
    expect(s.references({ previous_response_id: 7 })).toEqual({ refs: [] });
  });

  it('expand leaves a body that is no object alone and needs no store without references; a stored answer without output adds its input only', () => {
    expect(s.expand('text', new Map())).toBe('text');
    expect(s.expand({ model: 'm', previous_response_id: '', input: 'hi' }, new Map())).toEqual({ model: 'm', input: [user('hi')] });
    expect(s.expand({ model: 'm' }, new Map())).toEqual({ model: 'm', input: [] });
    expect(s.expand({ previous_response_id: 7, input: 'x' }, new Map())).toEqual({ input: [user('x')] });
    expect(() => s.expand({ input: [{ type: 'item_reference', id: 'gone' }] }, new Map())).toThrow('missing item:gone');
    const found = new Map([['resp:resp_0', JSON.stringify({ response: { id: 'resp_0', output: 'none' }, input: [user('a')] })]]);
    expect(s.expand({ previous_response_id: 'resp_0', input: 'b' }, found)).toEqual({ input: [user('a'), user('b')] });
    expect(() => s.expand({ previous_response_id: 'resp_0' }, new Map([['resp:resp_0', JSON.stringify({ response: {}, input: 'x' })]]))).toThrow(/not a stored response/);
    expect(() => s.expand({ previous_response_id: 'resp_0' }, new Map([['resp:resp_0', '[1]']]))).toThrow(/not a stored response/);
    expect(() => s.expand({ previous_response_id: 'resp_0' }, new Map([['resp:resp_0', JSON.stringify({ response: [], input: [] })]]))).toThrow(/not a stored response/);
  });

  it('expand: references that resolve to nothing, and no input besides, are a 400 naming input', () => {
    const empty = new Map([['resp:resp_0', JSON.stringify({ response: { id: 'resp_0', output: [] }, input: [] })]]);
    for (const input of [[], undefined]) {
      expect(() => s.expand({ model: 'm', previous_response_id: 'resp_0', input }, empty)).toThrow(
        expect.objectContaining({ kind: 'invalid-request', param: 'input', code: 'empty_array', message: expect.stringContaining("'previous_response_id'") }),
      );
    }
    expect(s.expand({ model: 'm', previous_response_id: 'resp_0', input: 'now' }, empty)).toEqual({ model: 'm', input: [user('now')] });
  });

  it('record: nothing without an object request and a response id; references and items without ids are not kept as items', () => {
    expect(record('hi', answer)).toEqual([]);
    expect(record({ input: 'x' }, [answer])).toEqual([]);
    expect(record({ input: 'x' }, { ...answer, id: 7 })).toEqual([]);
    const kept = record({ input: [{ type: 'item_reference', id: 'msg_0' }, user('q'), { ...user('r'), id: 'msg_in' }, 'junk'] }, { id: 'resp_2', output: 'none' });
    expect(kept.map(([k]) => k)).toEqual(['resp:resp_2', 'item:msg_test0001', 'item:msg_in']);
    expect(s.finalOf({ event: 'response.failed', data: JSON.stringify({ response: { id: 'f' } }) })).toEqual({ id: 'f' });
    expect(s.finalOf({ event: 'response.in_progress', data: JSON.stringify({ response: { id: 'p' } }) })).toBeUndefined();
  });

  it('input items kept before items had ids: the limit is 1 to 100 (20 when not a number); an item keeps its own id; one without gets its position', () => {
    const input = [...Array.from({ length: 120 }, (_, i) => user(String(i))), { ...user('own'), id: 'msg_own' }, 'junk'];
    const stored = JSON.stringify({ response: { id: 'r' }, input });
    const page = (query: Record<string, string>) => s.inputItems(stored, query) as { data: Array<Record<string, unknown>>; has_more: boolean; first_id: string | null; last_id: string | null };
    expect(page({ limit: '500' }).data).toHaveLength(100);
    expect(page({ limit: '-3' }).data).toHaveLength(1);
    expect(page({ limit: '0' }).data).toHaveLength(1);
    expect(page({ limit: 'many' }).data).toHaveLength(20);
    expect(page({}).data).toHaveLength(20);
    const first = page({ limit: '2' });
    expect(first.data).toEqual([{ id: 'item_121' }, { ...user('own'), id: 'msg_own' }]);
    expect(page({ limit: '1', after: 'item_121' }).data).toEqual([{ ...user('own'), id: 'msg_own' }]);
    expect(page({ order: 'desc', limit: '1', after: 'msg_own' }).data).toEqual([{ id: 'item_119', ...user('119') }]);
    expect(page({ order: 'asc', limit: '1', after: 'item_119' }).data).toEqual([{ ...user('own'), id: 'msg_own' }]);
    const last = page({ order: 'asc', after: 'msg_own' });
    expect(last).toEqual({ object: 'list', data: [{ id: 'item_121' }], first_id: 'item_121', last_id: 'item_121', has_more: false });
    expect(page({ after: 'item_0' })).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    expect(() => page({ after: 'nope' })).toThrow(expect.objectContaining({ kind: 'invalid-request', message: "No input item with id 'nope'.", param: 'after', code: 'invalid_value' }));
  });
});

describe('responses state: items as the API lists them', () => {
  const listedOf = (input: unknown) => JSON.parse(new Map(record({ input }, { id: 'resp_i', output: [] })).get('resp:resp_i')!).input;

  it('messages: typed, with an id and a status, content as parts; an assistant message is an output message', () => {
    expect(listedOf([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }, { role: 'developer', content: [{ type: 'input_text', text: 'rules' }] }])).toEqual([
      { type: 'message', role: 'user', id: 'msg_test0001', status: 'completed', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'assistant', id: 'msg_test0002', status: 'completed', content: [{ type: 'output_text', text: 'hello', annotations: [], logprobs: [] }] },
      { type: 'message', role: 'developer', id: 'msg_test0003', status: 'completed', content: [{ type: 'input_text', text: 'rules' }] },
    ]);
    expect(listedOf([{ role: 'assistant', content: [{ type: 'input_text', text: 'a' }, { type: 'output_text', text: 'b', annotations: [{ type: 'x' }] }, { type: 'refusal', refusal: 'no' }] }])[0].content).toEqual([
      { type: 'output_text', text: 'a', annotations: [], logprobs: [] },
      { type: 'output_text', text: 'b', annotations: [{ type: 'x' }], logprobs: [] },
      { type: 'refusal', refusal: 'no' },
    ]);
    expect(listedOf([{ role: 'user', content: [{ type: 'input_image', image_url: 'https://x/i.png' }, { type: 'input_image', image_url: 'https://x/j.png', detail: 'low' }] }])[0].content).toEqual([
      { type: 'input_image', image_url: 'https://x/i.png', detail: 'auto' },
      { type: 'input_image', image_url: 'https://x/j.png', detail: 'low' },
    ]);
  });

  it('tool calls, their outputs and reasoning: prefixed ids, a status where the API has one; given ids and statuses kept', () => {
    expect(
      listedOf([
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
        { type: 'custom_tool_call', call_id: 'c2', name: 'g', input: 'x' },
        { type: 'custom_tool_call_output', call_id: 'c2', output: 'y' },
        { type: 'reasoning', encrypted_content: 'e' },
        { type: 'function_call', id: 'fc_given', call_id: 'c3', name: 'f', arguments: '{}', status: 'incomplete' },
        { type: 'web_search_call', status: 'completed' },
      ]),
    ).toEqual([
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}', id: 'fc_test0001', status: 'completed' },
      { type: 'function_call_output', call_id: 'c1', output: 'ok', id: 'fco_test0002', status: 'completed' },
      { type: 'custom_tool_call', call_id: 'c2', name: 'g', input: 'x', id: 'ctc_test0003', status: 'completed' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: 'y', id: 'ctco_test0004', status: 'completed' },
      { type: 'reasoning', encrypted_content: 'e', id: 'rs_test0005', summary: [] },
      { type: 'function_call', id: 'fc_given', call_id: 'c3', name: 'f', arguments: '{}', status: 'incomplete' },
      { type: 'web_search_call', status: 'completed', id: 'item_test0006' },
    ]);
  });
});

describe('responses state: what is kept beyond what the caller was shown', () => {
  const carrier = 'il1.carried-anthropic-thinking';
  const shownOutput = [
    { id: 'rs_a', type: 'reasoning', summary: [] },
    { id: 'msg_a', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }] },
  ];
  const keptOutput = [{ ...shownOutput[0], encrypted_content: carrier }, shownOutput[1], { id: 'rs_hidden', type: 'reasoning', summary: [], encrypted_content: 'il1.text-signature' }];
  const kept = { response: { id: 'resp_a', object: 'response', output: shownOutput }, output: keptOutput, hidden: ['rs_hidden'] };

  it('retrieve shows the answer as it was; a continuation replays it as kept, signature and all', () => {
    const found = new Map(record({ input: 'q' }, kept));
    expect(s.retrieved(found.get('resp:resp_a')!)).toEqual(kept.response);
    expect(JSON.parse(found.get('item:rs_a')!)).toEqual(keptOutput[0]);
    expect(s.ownedKeys(found.get('resp:resp_a')!)).toEqual(['item:rs_a', 'item:msg_a', 'item:rs_hidden']);
    expect(s.expand({ previous_response_id: 'resp_a', input: 'next' }, found)).toEqual({ input: [listed('q', 1), ...keptOutput, user('next')] });
    expect(s.expand({ input: [{ type: 'item_reference', id: 'rs_a' }] }, found)).toEqual({ input: [keptOutput[0]] });
  });

  it('the next turn lists what the caller saw: no hidden item; encrypted content only when include asks', () => {
    const ctx = testContext();
    const first = new Map(record({ input: 'q' }, kept, new Map(), ctx));
    const request = s.expand({ previous_response_id: 'resp_a', input: 'next' }, first);
    const second = new Map(record(request, { id: 'resp_b', output: [] }, first, ctx));
    // The referenced answer's items are kept already, under it: only the new input item is added.
    expect([...second.keys()]).toEqual(['resp:resp_b', 'item:msg_test0002']);
    const stored = second.get('resp:resp_b')!;
    expect(JSON.parse(stored).hidden).toEqual(['rs_hidden']);
    const ids = (q: Record<string, string>) => (s.inputItems(stored, { order: 'asc', ...q }) as { data: Array<Record<string, unknown>> }).data;
    expect(ids({}).map((i) => i['id'])).toEqual(['msg_test0001', 'rs_a', 'msg_a', 'msg_test0002']);
    expect(ids({})[1]).toEqual(shownOutput[0]);
    expect(ids({ include: 'reasoning.encrypted_content' })[1]).toEqual(keptOutput[0]);
    expect(ids({ 'include[]': 'message.output_text.logprobs,reasoning.encrypted_content' })[1]).toEqual(keptOutput[0]);
    // Its continuation still replays the hidden item to the upstream.
    expect((s.expand({ previous_response_id: 'resp_b', input: 'third' }, second) as { input: unknown[] }).input).toContainEqual(keptOutput[2]);
  });
});
