/**
 * A tool whose parameters hold a nested free-form object (`{"type":"object","properties":{}}`, as
 * real agents' MCP tools do) reaches a Gemini upstream, from every caller dialect, without an
 * OBJECT whose `properties` is empty at any depth: Gemini answers that with a 400 ("should be
 * non-empty for OBJECT type") on every turn.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../translators/index.ts';
import { testContext } from '../support/fixtures.ts';

const empty = { type: 'object', properties: {} };
const parameters = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    options: { ...empty, description: 'Anything else' },
    edits: { type: 'array', items: { type: 'object', properties: { meta: empty, text: { type: 'string' } } } },
    filter: { anyOf: [empty, { type: 'string' }] },
  },
  required: ['path'],
};

const CALLERS: Array<[string, Record<string, unknown>, Record<string, string>, Record<string, string>?]> = [
  ['openai-chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'edit', parameters } }] }, {}],
  ['anthropic', { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'edit', input_schema: parameters }] }, { 'anthropic-version': '2023-06-01' }],
  ['openai-responses', { model: 'm', input: 'hi', tools: [{ type: 'function', name: 'edit', parameters }] }, {}],
  ['gemini-interactions', { model: 'm', input: 'hi', tools: [{ type: 'function', name: 'edit', parameters }] }, {}],
  ['gemini', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'edit', parametersJsonSchema: parameters }] }] }, {}, { model: 'm', method: 'generateContent' }],
];

describe.each(CALLERS)('%s caller → Gemini upstream', (id, body, headers, params = {}) => {
  it('no OBJECT with empty properties at any depth; the free-form objects stay objects', () => {
    const caller = registry.chatCallers[id as keyof typeof registry.chatCallers];
    const req = caller.decodeRequest({ body, headers, params, query: {} }, testContext()).value;
    const out = registry.chatUpstreams.gemini.encodeRequest(req, { name: 'g', model: 'gemini-2.5-flash', options: {} }, testContext()).value;
    const sent = JSON.parse(out.body as string);
    const declared = sent.tools[0].functionDeclarations[0].parameters;
    const objects: Array<Record<string, unknown>> = [];
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) return n.forEach(walk);
      if (!n || typeof n !== 'object') return;
      if ((n as Record<string, unknown>).type === 'OBJECT') objects.push(n as Record<string, unknown>);
      Object.values(n).forEach(walk);
    };
    walk(declared);
    expect(objects.length).toBe(5);
    for (const o of objects) expect(o.properties === undefined || Object.keys(o.properties as object).length > 0).toBe(true);
    expect(declared.properties.options).toEqual({ type: 'OBJECT', description: 'Anything else' });
  });
});
