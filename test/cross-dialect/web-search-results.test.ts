/**
 * A search an upstream ran, through the real translators: Anthropic's streamed `server_tool_use`
 * and `web_search_tool_result` blocks as one web search, written for a Responses caller as the API
 * streams a `web_search_call`; another vendor's search in an Anthropic caller's history never
 * replayed to Anthropic as if it were Anthropic's own; Responses' page reads as Anthropic fetches.
 */
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/canonical/index.ts';
import { registry } from '../../translators/index.ts';
import { parseSse, testContext } from '../support/fixtures.ts';

const { anthropic, 'openai-responses': responses } = registry.chatCallers;
const A = { 'anthropic-version': '2023-06-01' };

const frames = (events: Array<[string, unknown]>) => events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
const use = { type: 'server_tool_use', id: 'srvtoolu_9', name: 'web_search', input: {} };
const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_9', content: [{ type: 'web_search_result', url: 'https://a.org/x', title: 'A', encrypted_content: 'EqAnthropic', page_age: null }] };
const claudeStream = frames([
  ['message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude-x', content: [], usage: { input_tokens: 5, output_tokens: 0 } } }],
  ['content_block_start', { type: 'content_block_start', index: 0, content_block: use }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"rust 2026"}' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  ['content_block_start', { type: 'content_block_start', index: 1, content_block: result }],
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  ['content_block_start', { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Rust 2026 is out.' } }],
  ['content_block_stop', { type: 'content_block_stop', index: 2 }],
  ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9, server_tool_use: { web_search_requests: 1 } } }],
  ['message_stop', { type: 'message_stop' }],
]);

describe('Anthropic upstream stream → Responses caller stream', () => {
  it('one web_search_call item with the query and the sources, then the message', () => {
    const req = responses.decodeRequest({ body: { model: 'm', input: 'news?', stream: true, tools: [{ type: 'web_search' }] }, headers: {}, params: {}, query: {} }, testContext()).value;
    const dec = registry.chatUpstreams.anthropic.createStreamDecoder(req, testContext());
    const events: StreamEvent[] = [...parseSse(claudeStream).flatMap((e) => dec.push(e)), ...dec.finish()];
    const search = events.find((e) => e.type === 'web-search');
    expect(search).toMatchObject({ part: { id: 'srvtoolu_9', kind: 'search', queries: ['rust 2026'], results: [{ url: 'https://a.org/x', title: 'A' }] } });
    const enc = responses.createStreamEncoder(req, testContext());
    const out = [...events.flatMap((e) => enc.push(e)), ...enc.finish()].map((f) => JSON.parse(f.data));
    const done = out.filter((f) => f.type === 'response.output_item.done').map((f) => f.item);
    expect(done.map((i) => i.type)).toEqual(['web_search_call', 'message']);
    expect(done[0]).toMatchObject({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'rust 2026', sources: [{ type: 'url', url: 'https://a.org/x' }] } });
    expect(JSON.stringify(out)).not.toContain('EqAnthropic');
    expect(out.at(-1)).toMatchObject({ type: 'response.completed' });
  });
});

describe('an Anthropic caller\'s history', () => {
  const ask = (content: unknown[]) =>
    anthropic.decodeRequest({ body: { model: 'm', max_tokens: 9, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content }, { role: 'user', content: 'more' }] }, headers: A, params: {}, query: {} }, testContext()).value;

  it('Anthropic\'s own search goes back to Anthropic as it was', () => {
    const req = ask([{ ...use, input: { query: 'q' } }, result, { type: 'text', text: 'found' }]);
    const out = registry.chatUpstreams.anthropic.encodeRequest(req, { name: 'a', model: 'claude-x', options: {} }, testContext());
    expect(JSON.parse(out.value.body as string).messages[1].content).toEqual([{ ...use, input: { query: 'q' } }, result, { type: 'text', text: 'found' }]);
  });

  it('a search another vendor ran (our carriers in it) never goes to Anthropic as its own: dropped, reported', () => {
    const caller = anthropic.encodeResponse(
      { id: 'x', model: 'm', created: 0, choices: [{ index: 0, content: [{ type: 'web-search', id: 'g1', kind: 'search', queries: ['q'], results: [{ url: 'https://a.org' }] }, { type: 'text', text: 'found' }], finishReason: { unified: 'stop' } }] },
      ask([{ type: 'text', text: 'earlier' }]),
      testContext(),
    ) as { content: unknown[] };
    const req = ask(caller.content);
    const out = registry.chatUpstreams.anthropic.encodeRequest(req, { name: 'a', model: 'claude-x', options: {} }, testContext());
    const sent = JSON.parse(out.value.body as string).messages[1].content;
    expect(sent).toEqual([{ type: 'text', text: 'found' }]);
    expect(out.warnings).toContainEqual({ code: 'dropped', path: 'messages[1].content[0]', detail: 'web-search' });
  });
});

describe('Responses page reads → Anthropic caller', () => {
  it('an open_page action is a web_fetch tool use and its result', () => {
    const req = anthropic.decodeRequest({ body: { model: 'm', max_tokens: 9, messages: [{ role: 'user', content: 'read it' }] }, headers: A, params: {}, query: {} }, testContext()).value;
    const res = registry.chatUpstreams['openai-responses'].decodeResponse(
      { id: 'resp_1', object: 'response', status: 'completed', model: 'gpt', output: [{ id: 'ws_1', type: 'web_search_call', status: 'completed', action: { type: 'open_page', url: 'https://a.org/p' } }, { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It says hi.', annotations: [] }] }] },
      req,
      testContext(),
    );
    const body = anthropic.encodeResponse(res, req, testContext()) as { content: Array<Record<string, any>>; usage: Record<string, unknown> };
    expect(body.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_fetch_tool_result', 'text']);
    expect(body.content[0]).toMatchObject({ name: 'web_fetch', input: { url: 'https://a.org/p' } });
    expect(body.content[1]).toMatchObject({ tool_use_id: body.content[0]!.id, content: { type: 'web_fetch_result', url: 'https://a.org/p' } });
    expect(body.usage.server_tool_use).toEqual({ web_search_requests: 0, web_fetch_requests: 1 });
  });
});
