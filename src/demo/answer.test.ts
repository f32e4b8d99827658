import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../canonical/index.ts';
import { answerEvents, demoAnswer, exampleValue } from './answer.ts';

const who = { name: 'demo-x', label: 'X Dialect' };
const ids = { id: 'r1', callId: 'c1', created: 1 };
const ask = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'demo-x', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi there' }] }], stream: false, ...over });
const tool = { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer', minimum: 3 }, on: { type: 'boolean' } }, required: ['q', 'n'] } };

describe('demo answers', () => {
  it('echoes the last user text, with usage', () => {
    const r = demoAnswer(ask(), who, ids);
    expect(r.choices).toEqual([{ index: 0, content: [{ type: 'text', text: 'demo-x (X Dialect) echoes: Hi there' }], finishReason: { unified: 'stop' } }]);
    expect(r.usage).toEqual({ inputTokens: 3, outputTokens: 9, totalTokens: 12 });
  });

  it('calls the offered tool (the named one when forced), never when tool choice is none', () => {
    expect(demoAnswer(ask({ tools: [tool] }), who, ids).choices[0]).toMatchObject({ content: [{ type: 'tool-call', id: 'c1', name: 'lookup', arguments: '{"q":"Hi there","n":3}' }], finishReason: { unified: 'tool-calls' } });
    const two = [{ name: 'a' }, tool];
    expect(demoAnswer(ask({ tools: two, toolChoice: { type: 'tool', name: 'lookup' } }), who, ids).choices[0]!.content[0]).toMatchObject({ name: 'lookup' });
    expect(demoAnswer(ask({ tools: [tool], toolChoice: { type: 'none' } }), who, ids).choices[0]!.content[0]).toMatchObject({ type: 'text' });
    expect(demoAnswer(ask({ tools: [{ name: 'shell', custom: {} }] }), who, ids).choices[0]!.content[0]).toEqual({ type: 'tool-call', id: 'c1', name: 'shell', arguments: 'Hi there', custom: true });
  });

  it('after a tool result, says what the tool returned (named by its call when the result has no name)', () => {
    const req = ask({
      tools: [tool],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c9', name: 'lookup', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'tool-result', callId: 'c9', content: [{ type: 'text', text: '42' }] }] },
      ],
    });
    expect(demoAnswer(req, who, ids).choices[0]!.content).toEqual([{ type: 'text', text: 'demo-x (X Dialect) read the result: the lookup tool returned 42.' }]);
  });

  it('answers JSON when JSON is asked for', () => {
    expect(JSON.parse((demoAnswer(ask({ responseFormat: { type: 'json' } }), who, ids).choices[0]!.content[0] as { text: string }).text)).toEqual({ echo: 'demo-x (X Dialect) echoes: Hi there' });
  });

  it('values from a schema', () => {
    expect(exampleValue({ type: 'string', enum: ['b', 'c'] }, 't')).toBe('b');
    expect(exampleValue({ type: ['null', 'number'] }, 't')).toBe(1);
    expect(exampleValue({ type: 'array', items: { type: 'string' }, minItems: 1 }, 't')).toEqual(['t']);
    expect(exampleValue({ type: 'object', properties: { a: { type: 'object', properties: { b: { const: 7 } } } } }, 't')).toEqual({ a: { b: 7 } });
  });

  it('as a stream: one start, the text in pieces, a tool call in two argument deltas, usage, then finish', () => {
    const text = answerEvents(demoAnswer(ask(), who, ids));
    expect(text[0]).toEqual({ type: 'message-start', id: 'r1', model: 'demo-x', created: 1 });
    expect(text.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text).join('')).toBe('demo-x (X Dialect) echoes: Hi there');
    expect(text.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(1);
    expect(text.slice(-2).map((e) => e.type)).toEqual(['usage', 'finish']);
    const call = answerEvents(demoAnswer(ask({ tools: [tool] }), who, ids)).map((e) => e.type);
    expect(call).toEqual(['message-start', 'tool-call-start', 'tool-call-delta', 'tool-call-delta', 'tool-call-end', 'usage', 'finish']);
  });
});
