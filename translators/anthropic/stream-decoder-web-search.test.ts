/** Hosted web searches and fetches in an Anthropic upstream's stream: one `web-search` event when the result block ends. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { createStreamDecoder } from './stream-decoder.ts';

const req: ChatRequest = { model: 'claude', system: [], messages: [], stream: true };
const sse = (data: Record<string, unknown>): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });
const start = sse({ type: 'message_start', message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 5, output_tokens: 1 } } });
const end = [sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }), sse({ type: 'message_stop' })];
const open = (index: number, content_block: Record<string, unknown>) => sse({ type: 'content_block_start', index, content_block });
const json = (index: number, partial_json: string) => sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
const stop = (index: number) => sse({ type: 'content_block_stop', index });

function searches(events: SseEvent[]): unknown[] {
  const d = createStreamDecoder(req, testContext());
  const out: StreamEvent[] = [...[start, ...events, ...end].flatMap((e) => d.push(e)), ...d.finish()];
  return out.filter((e) => e.type === 'web-search').map((e) => (e as Extract<StreamEvent, { type: 'web-search' }>).part);
}

const result = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://a', title: 'A', encrypted_content: 'E' }] };

describe('anthropic stream decoder: web searches', () => {
  it('the use’s input from its streamed JSON, then its result: one search', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} };
    const parts = searches([open(0, use), json(0, '{"query":'), json(0, ''), json(0, '"oslo"}'), stop(0), open(1, result), stop(1)]);
    expect(parts).toEqual([{ type: 'web-search', id: 'srvtoolu_1', kind: 'search', queries: ['oslo'], results: [{ url: 'https://a', title: 'A' }], raw: { dialect: 'anthropic', value: [{ ...use, input: { query: 'oslo' } }, result] } }]);
  });

  it('JSON cut short, or none: the start block’s input stands', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'first' } };
    for (const deltas of [[json(0, '{"query":"os')], []]) {
      const [part] = searches([open(0, use), ...deltas, stop(0), open(1, result), stop(1)]) as Array<{ queries: string[] }>;
      expect(part!.queries).toEqual(['first']);
    }
  });

  it('a fetch and its result', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_fetch', input: { url: 'https://p' } };
    const fetched = { type: 'web_fetch_tool_result', tool_use_id: 'srvtoolu_2', content: { type: 'web_fetch_result', url: 'https://p/', content: { type: 'document', title: 'P' } } };
    expect(searches([open(0, use), stop(0), open(1, fetched), stop(1)])).toMatchObject([{ kind: 'fetch', url: 'https://p', results: [{ url: 'https://p/', title: 'P' }] }]);
  });

  it('a result for no known use, a second result for the same use, and other server tools are skipped', () => {
    const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } };
    const other = { type: 'server_tool_use', id: 'srvtoolu_9', name: 'code_execution', input: {} };
    const parts = searches([
      open(0, { ...result, tool_use_id: 'srvtoolu_0' }),
      stop(0),
      open(1, other),
      json(1, '{"code":"1"}'),
      stop(1),
      open(2, { ...result, tool_use_id: 'srvtoolu_9' }),
      stop(2),
      open(3, use),
      stop(3),
      open(4, result),
      stop(4),
      open(5, result),
      stop(5),
    ]);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ id: 'srvtoolu_1', queries: ['q'] });
  });
});
