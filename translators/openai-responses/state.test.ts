import { describe, expect, it } from 'vitest';
import { responsesState as s } from './state.ts';

const user = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
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
    expect(s.references({ background: false, conversation: null }).statefulOnly).toBeUndefined();
    expect(s.references(null)).toEqual({ refs: [] });
  });

  it('record keeps the response with its whole input, and every item with an id', () => {
    const kept = new Map(s.record({ input: 'hello', instructions: 'be brief' }, answer));
    expect([...kept.keys()]).toEqual(['resp:resp_1', 'item:rs_1', 'item:msg_1']);
    expect(JSON.parse(kept.get('resp:resp_1')!)).toEqual({ response: answer, input: [user('hello')] });
    expect(JSON.parse(kept.get('item:msg_1')!)).toEqual(answer.output[1]);
    expect(s.record({ input: 'x' }, { output: [] })).toEqual([]);
  });

  it('expand: the previous input and output go first, references become their items, instructions do not carry over', () => {
    const found = new Map(s.record({ input: 'hello', instructions: 'be brief' }, answer));
    const body = { model: 'm', previous_response_id: 'resp_1', input: [{ type: 'item_reference', id: 'rs_1' }, user('again')] };
    expect(s.expand(body, found)).toEqual({ model: 'm', input: [user('hello'), ...answer.output, answer.output[0], user('again')] });
    expect(s.expand({ model: 'm', previous_response_id: 'resp_1', input: 'next' }, found)).toEqual({ model: 'm', input: [user('hello'), ...answer.output, user('next')] });
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
    const stored = new Map(s.record({ input: [user('a'), user('b'), user('c')] }, answer)).get('resp:resp_1')!;
    expect(s.retrieved(stored)).toEqual(answer);
    const page = s.inputItems(stored, { limit: '2' }) as { data: Array<{ id: string }>; has_more: boolean; first_id: string; last_id: string };
    expect(page.data.map((d) => d.id)).toEqual(['item_2', 'item_1']);
    expect(page).toMatchObject({ object: 'list', has_more: true, first_id: 'item_2', last_id: 'item_1' });
    const next = s.inputItems(stored, { limit: '2', after: 'item_1' }) as { data: Array<{ id: string }>; has_more: boolean };
    expect(next.data.map((d) => d.id)).toEqual(['item_0']);
    expect(next.has_more).toBe(false);
    expect((s.inputItems(stored, { order: 'asc' }) as { data: Array<{ id: string }> }).data.map((d) => d.id)).toEqual(['item_0', 'item_1', 'item_2']);
    expect(() => s.inputItems(stored, { after: 'zzz' })).toThrow(/No input item/);
    expect(s.deleted('resp_1')).toEqual({ id: 'resp_1', object: 'response', deleted: true });
    expect(s.keyOf('resp_9')).toBe('resp:resp_9');
  });

  it("deleting a response deletes its output items, not the input items it was given", () => {
    const stored = new Map(s.record({ input: [{ ...user('a'), id: 'msg_in' }] }, { ...answer, output: [...answer.output, { type: 'message', content: [] }, 'junk', { id: 7 }] })).get('resp:resp_1')!;
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

  it('record: nothing without an object request and a response id; references and items without ids are not kept as items', () => {
    expect(s.record('hi', answer)).toEqual([]);
    expect(s.record({ input: 'x' }, [answer])).toEqual([]);
    expect(s.record({ input: 'x' }, { ...answer, id: 7 })).toEqual([]);
    const kept = s.record({ input: [{ type: 'item_reference', id: 'msg_0' }, user('q'), { ...user('r'), id: 'msg_in' }, 'junk'] }, { id: 'resp_2', output: 'none' });
    expect(kept.map(([k]) => k)).toEqual(['resp:resp_2', 'item:msg_in']);
    expect(s.finalOf({ event: 'response.failed', data: JSON.stringify({ response: { id: 'f' } }) })).toEqual({ id: 'f' });
    expect(s.finalOf({ event: 'response.in_progress', data: JSON.stringify({ response: { id: 'p' } }) })).toBeUndefined();
  });

  it('input items: the limit is 1 to 100 (20 when not a number); an item keeps its own id; a non-object item gets one', () => {
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
