/**
 * A Responses caller asking for compaction: `POST /responses/compact`, a trailing
 * `compaction_trigger`, or `context_management` (compaction at a threshold) → canonical.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { decodeRequest } from './decode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const decode = (body: unknown, params: Record<string, string> = {}) => decodeRequest({ body, headers: {}, params, query: {} });
const base = () => ({ model: 'gpt-5.1', input: 'hi' });

const fails = (body: unknown): ProxyError => proxyErrorOf(() => decode(body));

describe('decodeRequest: compaction asked for', () => {
  it('the compact route (method "compact") asks for a compaction; another method or none does not', () => {
    expect(decode(base(), { method: 'compact' }).value.compact).toBe(true);
    expect(decode(base(), { method: 'create' }).value).not.toHaveProperty('compact');
    expect(decode(base()).value).not.toHaveProperty('compact');
  });

  it('a compaction_trigger as the last item asks for one on the ordinary route', () => {
    const { value } = decode({ model: 'm', input: [{ role: 'user', content: 'q' }, { type: 'compaction_trigger' }] });
    expect(value.compact).toBe(true);
    expect(value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
  });
});

describe('decodeRequest: context_management', () => {
  it('compaction entries become compact edits, a threshold their trigger; the wire value is kept as written', () => {
    const cm = [{ type: 'compaction', compact_threshold: 200_000 }, { type: 'compaction' }, { type: 'compaction', compact_threshold: 1 }, { type: 'compaction', compact_threshold: null }];
    const { value } = decode({ ...base(), context_management: cm });
    expect(value.contextManagement).toStrictEqual({
      dialect: 'openai-responses',
      edits: [{ type: 'compact', trigger: 200_000 }, { type: 'compact' }, { type: 'compact', trigger: 1 }, { type: 'compact' }],
      raw: cm,
    });
  });

  it('absent or null, there is none', () => {
    expect(decode(base()).value).not.toHaveProperty('contextManagement');
    expect(decode({ ...base(), context_management: null }).value).not.toHaveProperty('contextManagement');
  });

  it.each([[{ type: 'compaction' }], ['compaction'], [5]])('not a list (%j) is a 400', (cm) => {
    const e = fails({ ...base(), context_management: cm });
    expect([e.message, e.param, e.code]).toEqual(["Invalid type for 'context_management': expected an array.", 'context_management', 'invalid_type']);
  });

  it.each([[{ type: 'clear_tool_uses' }], [{}], [null], ['compaction']])('an entry that is no compaction (%j) is a 400 naming its type', (entry) => {
    const e = fails({ ...base(), context_management: [{ type: 'compaction' }, entry] });
    expect([e.message, e.param, e.code]).toEqual(["Invalid value for 'context_management[1].type': only 'compaction' is supported.", 'context_management[1].type', 'invalid_value']);
  });

  it.each([[0], [-5], [1.5], ['1000'], [true]])('a threshold that is no positive integer (%j) is a 400', (threshold) => {
    const e = fails({ ...base(), context_management: [{ type: 'compaction', compact_threshold: threshold }] });
    expect([e.message, e.param, e.code]).toEqual([
      "Invalid value for 'context_management[0].compact_threshold': expected a positive integer.",
      'context_management[0].compact_threshold',
      'invalid_value',
    ]);
  });
});

describe('decodeRequest: a named tool choice needs tools', () => {
  it.each([[undefined], [[]]])('with tools %j, a named function is a 400', (tools) => {
    const e = fails({ ...base(), tools, tool_choice: { type: 'function', name: 'f' } });
    expect([e.message, e.param]).toEqual(["Invalid value for 'tool_choice': no tool named 'f' was given in 'tools'.", 'tool_choice']);
  });

  it('with the tool given, it is chosen', () => {
    expect(decode({ ...base(), tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'f' } }).value.toolChoice).toEqual({ type: 'tool', name: 'f' });
  });
});
