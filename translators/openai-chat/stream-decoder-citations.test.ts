/**
 * A Chat Completions stream's `delta.annotations`: citations of the open text block, their spans
 * moved to it, and the search behind them when the request offered a hosted web tool.
 */
import { describe, expect, test } from 'vitest';
import type { ChatRequest, NativeTool, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'asked', system: [], messages: [], stream: true };
const webSearch: NativeTool = { dialect: 'anthropic', definition: { type: 'web_search_20250305' }, path: 'tools[1]', web: { kind: 'search' } };
const codeTool: NativeTool = { dialect: 'anthropic', definition: { type: 'code_execution_20250825' }, path: 'tools[0]' };

function run(frames: unknown[], r: ChatRequest = req): StreamEvent[] {
  const d = new OpenAIChatStreamDecoder(r, testContext());
  const out = frames.flatMap((f) => d.push({ data: JSON.stringify(f) }));
  return [...out, ...d.finish()];
}

const ch = (delta: unknown, finish: string | null = null) => ({ id: 'c1', model: 'm', created: 5, choices: [{ index: 0, delta, finish_reason: finish }] });
const ann = (url: string, start: number, end: number) => ({ type: 'url_citation', url_citation: { url, title: url.toUpperCase(), start_index: start, end_index: end } });
const of = (events: StreamEvent[], type: StreamEvent['type']) => events.filter((e) => e.type === type);

describe('annotations in a stream', () => {
  test('a text block after a refusal: its citations are at its own offsets, not the message\'s', () => {
    const events = run([ch({ content: 'Hello' }), ch({ refusal: 'no' }), ch({ content: ' world' }), ch({ annotations: [ann('https://a', 6, 11)] }), ch({}, 'stop')]);
    expect(of(events, 'citation')).toEqual([
      { type: 'citation', choice: 0, citation: { url: 'https://a', title: 'HTTPS://A', span: { start: 1, end: 6 }, raw: { dialect: 'openai-chat', value: ann('https://a', 6, 11) } } },
    ]);
  });

  test('a text block after a tool call: its citations are at its own offsets too', () => {
    const call = { index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const events = run([ch({ content: 'Hello' }), ch({ tool_calls: [call] }), ch({ content: ' world' }), ch({ annotations: [ann('https://a', 6, 11)] }), ch({}, 'stop')]);
    expect(of(events, 'citation').map((e) => (e as Extract<StreamEvent, { type: 'citation' }>).citation.span)).toEqual([{ start: 1, end: 6 }]);
  });

  test('annotations while no text block is open are not citations', () => {
    const events = run([ch({ refusal: 'no' }), ch({ annotations: [ann('https://a', 0, 2)] }), ch({}, 'stop')]);
    expect(of(events, 'citation')).toEqual([]);
  });

  test('a request with a hosted web tool among others: the cited pages are a search, before the finish', () => {
    const events = run([ch({ content: 'abc', annotations: [ann('https://a', 0, 3)] }), ch({}, 'stop')], { ...req, nativeTools: [codeTool, webSearch] });
    const search = of(events, 'web-search');
    expect(search).toEqual([
      { type: 'web-search', choice: 0, part: { type: 'web-search', id: expect.stringMatching(/^ws_/), kind: 'search', results: [{ url: 'https://a', title: 'HTTPS://A' }] } },
    ]);
    expect(events.indexOf(search[0]!)).toBe(events.findIndex((e) => e.type === 'finish') - 1);
  });

  test('no search for a request without a hosted web tool, cited or not', () => {
    expect(of(run([ch({ content: 'abc', annotations: [ann('https://a', 0, 3)] }), ch({}, 'stop')]), 'web-search')).toEqual([]);
    expect(of(run([ch({ content: 'abc', annotations: [ann('https://a', 0, 3)] }), ch({}, 'stop')], { ...req, nativeTools: [codeTool] }), 'web-search')).toEqual([]);
  });
});

describe('an error frame', () => {
  test('is reported as the upstream\'s own frame, and ends the stream', () => {
    const d = new OpenAIChatStreamDecoder(req, testContext());
    const events = d.push({ data: JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }) });
    expect(events).toEqual([{ type: 'error', error: expect.objectContaining({ message: 'overloaded' }), upstreamFrame: true }]);
    expect(d.push({ data: JSON.stringify(ch({ content: 'a' })) })).toEqual([]);
  });
});
