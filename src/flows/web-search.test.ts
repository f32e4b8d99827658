/**
 * The search loop's pieces, pure: a model's web calls run (use limits, domain lists, backend
 * failures), the stream lane's decoder (web calls swallowed, markers as `web-search` events, one
 * message start, usage summed over rounds), the rounds' requests (forced once, the last one
 * answering without tools), and citations of the pages the text names.
 */
import { describe, expect, it } from 'vitest';
import type { SseEvent, StreamEvent, StreamStep, ToolCallPart, WebTool } from '../canonical/index.ts';
import { RequestScope } from '../observe/scope.ts';
import type { GuardedFetch } from '../upstream/guarded-fetch.ts';
import { SearchFailure, type SearchBackend } from '../upstream/search/index.ts';
import { citationsOf, citeResults } from './web-search-cite.ts';
import { MAX_ROUNDS, nextRound, searchesAsCalls, shownOfRound } from './web-search-loop.ts';
import { WebRunner } from './web-search-run.ts';
import { RoundStep, partsOfEvents } from './web-search-stream.ts';

const call = (name: string, args: unknown, id = 'c1'): ToolCallPart => ({ type: 'tool-call', id, name, arguments: JSON.stringify(args) });

function runner(tools: Record<string, WebTool>, o: { search?: SearchBackend['search']; fetch?: GuardedFetch } = {}) {
  const scope = new RequestScope('messages', 'req_1', () => 0);
  const asked: string[] = [];
  const backend: SearchBackend = {
    provider: 'brave',
    search: o.search ?? (async (a) => (asked.push(a.query), [{ url: 'https://a.example/', title: 'A', snippet: 'about a' }])),
  };
  const guardedFetch: GuardedFetch = o.fetch ?? (async () => ({ data: new TextEncoder().encode('<title>P</title><p>page</p>'), mediaType: 'text/html' }));
  return { r: new WebRunner({ scope, backend, guardedFetch, maxResults: 5 }, new Map(Object.entries(tools))), scope, asked };
}

describe('WebRunner', () => {
  it('a search: the part the caller sees, the result the model reads, the run on the log line without its query', async () => {
    const { r, scope } = runner({ web_search: { kind: 'search' } });
    const o = await r.run(call('web_search', { query: 'q1' }));
    expect(o.part).toEqual({ type: 'web-search', id: 'c1', kind: 'search', queries: ['q1'], results: [{ url: 'https://a.example/', title: 'A' }] });
    expect(o.result).toMatchObject({ type: 'tool-result', callId: 'c1', name: 'web_search' });
    expect((o.result.content[0] as { text: string }).text).toBe('Results for "q1":\n\n1. A\nURL: https://a.example/\nabout a');
    expect(scope.log.webRuns).toEqual([{ kind: 'search', backend: 'brave', results: 1, ms: 0 }]);
  });

  it('maxUses counts per kind; past it max_uses_exceeded, nothing run', async () => {
    const { r, asked } = runner({ web_search: { kind: 'search', maxUses: 1 } });
    await r.run(call('web_search', { query: 'a' }));
    const o = await r.run(call('web_search', { query: 'b' }, 'c2'));
    expect(asked).toEqual(['a']);
    expect(o.part.error).toBe('max_uses_exceeded');
    expect(o.result.isError).toBe(true);
  });

  it('bad arguments, a backend failure: error results, not exceptions', async () => {
    const { r } = runner({ web_search: { kind: 'search' } }, { search: async () => Promise.reject(new SearchFailure('too_many_requests', 'slow')) });
    expect((await r.run(call('web_search', { q: 'x' }))).part.error).toBe('invalid_tool_input');
    expect((await r.run({ type: 'tool-call', id: 'c', name: 'web_search', arguments: '{oops' })).part.error).toBe('invalid_tool_input');
    expect((await r.run(call('web_search', { query: 'x' }))).part.error).toBe('too_many_requests');
  });

  it('a page read: domain lists refuse outside them before any fetch; the page as text', async () => {
    let fetched = 0;
    const { r } = runner({ web_fetch: { kind: 'fetch', allowedDomains: ['a.example'] } }, { fetch: async () => (fetched++, { data: new TextEncoder().encode('<title>P</title><p>page</p>'), mediaType: 'text/html' }) });
    expect((await r.run(call('web_fetch', { url: 'https://b.example/' }))).part.error).toBe('url_not_allowed');
    expect((await r.run(call('web_fetch', { url: 'file:///etc/passwd' }))).part.error).toBe('invalid_tool_input');
    expect(fetched).toBe(0);
    const o = await r.run(call('web_fetch', { url: 'https://www.a.example/p' }));
    expect(o.part).toMatchObject({ kind: 'fetch', url: 'https://www.a.example/p', results: [{ url: 'https://www.a.example/p', title: 'P' }] });
    expect((o.result.content[0] as { text: string }).text).toBe('Title: P\nURL: https://www.a.example/p\n\npage');
  });
});

/** A fake upstream decoder: each SSE event's data is a JSON list of canonical events. */
const fake = (): StreamStep<SseEvent, StreamEvent> => ({ push: (e) => JSON.parse(e.data) as StreamEvent[], finish: () => [] });
const frame = (events: StreamEvent[]): SseEvent => ({ data: JSON.stringify(events) });
const usage = (n: number) => ({ inputTokens: n, outputTokens: 1, totalTokens: n + 1 });

describe('RoundStep', () => {
  const { r } = runner({ web_search: { kind: 'search' } });
  const part = { type: 'web-search' as const, id: 'c1', kind: 'search' as const, queries: ['q'], results: [] };

  it('swallows the web calls, makes markers web-search events, keeps one start, sums usage, ends with the last finish', () => {
    const step = new RoundStep(fake, r, 'M');
    const out = [
      ...step.push(frame([{ type: 'message-start', id: 'a', model: 'm', created: 1 }, { type: 'text-start' }, { type: 'text-delta', text: 'hi' }, { type: 'text-end' }])),
      ...step.push(frame([{ type: 'tool-call-start', index: 0, id: 'c1', name: 'web_search' }, { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' }, { type: 'tool-call-end', index: 0 }])),
      ...step.push(frame([{ type: 'finish', reason: { unified: 'tool-calls' } }, { type: 'usage', usage: usage(10) }])),
      // Forged by an upstream: another event name is no marker.
      ...step.push({ event: 'interlingua-web-forged', data: '[]' }),
      ...step.push({ event: 'M', data: JSON.stringify({ parts: [part], more: true }) }),
      ...step.push(frame([{ type: 'message-start', id: 'b', model: 'm', created: 2 }, { type: 'tool-call-start', index: 1, id: 'x', name: 'own' }, { type: 'tool-call-end', index: 1 }])),
      ...step.push(frame([{ type: 'usage', usage: usage(20) }, { type: 'finish', reason: { unified: 'tool-calls' } }])),
      ...step.finish(),
    ];
    expect(out.map((e) => e.type)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'web-search', 'tool-call-start', 'tool-call-end', 'usage', 'finish']);
    expect(out[5]).toMatchObject({ index: 0, name: 'own' }); // renumbered from the caller's view
    expect(out[7]).toEqual({ type: 'usage', usage: { inputTokens: 30, outputTokens: 2, totalTokens: 32 } });
  });

  it('a text block naming a page the searches found cites it right after its end; a block the upstream cited is left', () => {
    const found = { ...part, results: [{ url: 'https://a.example/x', title: 'A' }] };
    const step = new RoundStep(fake, r, 'M');
    step.push(frame([{ type: 'message-start', id: 'a', model: 'm', created: 1 }, { type: 'text-start' }, { type: 'text-delta', text: 'before https://a.example/x' }, { type: 'text-end' }]));
    step.push(frame([{ type: 'tool-call-start', index: 0, id: 'c1', name: 'web_search' }, { type: 'tool-call-end', index: 0 }]));
    step.push({ event: 'M', data: JSON.stringify({ parts: [found], more: true }) });
    const text = 'Intro.\n  See https://a.example/x for it.';
    const out = [
      ...step.push(frame([{ type: 'text-start' }, { type: 'text-delta', text: text.slice(0, 10) }, { type: 'text-delta', text: text.slice(10) }, { type: 'text-end' }])),
      ...step.push(frame([{ type: 'text-start' }, { type: 'text-delta', text: 'https://a.example/x' }, { type: 'citation', citation: { url: 'https://b.example' } }, { type: 'text-end' }])),
    ];
    expect(out.filter((e) => e.type === 'citation')).toEqual([
      { type: 'citation', citation: { url: 'https://a.example/x', title: 'A', span: { start: 9, end: text.length } } },
      { type: 'citation', citation: { url: 'https://b.example' } },
    ]);
    // Ours comes after the block it cites, and only for text after the search.
    expect(out.map((e) => e.type).slice(0, 6)).toEqual(['text-start', 'text-delta', 'text-delta', 'text-end', 'citation', 'text-start']);
  });

  it('a last round that called only web functions (not run) stops, not for tool calls', () => {
    const step = new RoundStep(fake, r, 'M');
    step.push(frame([{ type: 'tool-call-start', index: 0, id: 'c1', name: 'web_search' }, { type: 'tool-call-end', index: 0 }, { type: 'finish', reason: { unified: 'tool-calls', raw: 'tool_calls' } }]));
    expect(step.finish()).toEqual([{ type: 'finish', reason: { unified: 'stop', raw: 'tool_calls' } }]);
  });

  it('partsOfEvents: the model\'s turn, to send back', () => {
    expect(
      partsOfEvents([{ type: 'text-start' }, { type: 'text-delta', text: 'a' }, { type: 'text-end' }, { type: 'tool-call-start', index: 0, id: 'c', name: 'web_search' }, { type: 'tool-call-delta', index: 0, argumentsDelta: '{"query":' }, { type: 'tool-call-delta', index: 0, argumentsDelta: '"x"}' }]),
    ).toEqual([{ type: 'text', text: 'a' }, { type: 'tool-call', id: 'c', name: 'web_search', arguments: '{"query":"x"}' }]);
  });
});

describe('rounds', () => {
  const { r } = runner({ web_search: { kind: 'search' } });
  const base = { model: 'm', stream: false, system: [], messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'q' }] }], toolChoice: { type: 'tool' as const, name: 'web_search' } };
  const outcome = { part: { type: 'web-search' as const, id: 'c1', kind: 'search' as const, results: [] }, result: { type: 'tool-result' as const, callId: 'c1', name: 'web_search', content: [] } };

  it('the forced search forced once; the last round asked to answer without tools', () => {
    const next = nextRound(base, [call('web_search', { query: 'x' })], [outcome], 0);
    expect(next.toolChoice).toEqual({ type: 'auto' });
    expect(next.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(nextRound(base, [], [outcome], MAX_ROUNDS - 2).toolChoice).toEqual({ type: 'none' });
  });

  it('what the caller sees of a round: its web calls replaced by their searches in place', () => {
    const shown = shownOfRound([{ type: 'text', text: 'a' }, call('web_search', {}), call('own', {}, 'c2')], r, new Map([['c1', outcome]]));
    expect(shown.map((p) => p.type)).toEqual(['text', 'web-search', 'tool-call']);
  });
});

describe('earlier searches in the history', () => {
  it('as the web function\'s call and result where that kind is emulated; the same dialect\'s own and other kinds kept', () => {
    const search = { type: 'web-search' as const, id: 's1', kind: 'search' as const, queries: ['q'], results: [{ url: 'https://a.example/', title: 'A' }] };
    const failed = { ...search, id: 's2', results: [], error: 'max_uses_exceeded' };
    const fetch = { type: 'web-search' as const, id: 'f1', kind: 'fetch' as const, url: 'https://b.example/', results: [] };
    const own = { ...search, id: 's3', raw: { dialect: 'openai-chat' as const, value: {} } };
    const out = searchesAsCalls([{ role: 'assistant', content: [{ type: 'text', text: 'a' }, search, failed, fetch, own, { type: 'text', text: 'b' }] }], new Map([['search', 'web_search']]), 'openai-chat');
    expect(out.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([
      ['assistant', ['text', 'tool-call']],
      ['user', ['tool-result']],
      ['assistant', ['tool-call']],
      ['user', ['tool-result']],
      ['assistant', ['web-search', 'web-search', 'text']],
    ]);
    expect(out[1]!.content[0]).toMatchObject({ callId: 's1', content: [{ text: '1. A\nURL: https://a.example/' }] });
    expect(out[3]!.content[0]).toMatchObject({ isError: true, content: [{ text: 'Error (max_uses_exceeded)' }] });
  });
});

describe('citations', () => {
  it('a text naming a found page cites it over that line; text already cited or before any search is left', () => {
    const text = 'Intro.\n  Spain won ([A](https://a.example/x)).\nMore.';
    expect(citationsOf(text, [{ url: 'https://a.example/x', title: 'A' }, { url: 'https://none.example/' }])).toEqual([{ url: 'https://a.example/x', title: 'A', span: { start: 9, end: 46 } }]);
    expect(text.slice(9, 46)).toBe('Spain won ([A](https://a.example/x)).');
    const parts = citeResults([
      { type: 'text', text: 'see https://a.example/x' },
      { type: 'web-search', id: 's', kind: 'search', results: [{ url: 'https://a.example/x/' }] },
      { type: 'text', text: 'at https://a.example/x' },
      { type: 'text', text: 'https://a.example/x/', citations: [{ url: 'u' }] },
    ]);
    expect(parts.map((p) => (p.type === 'text' ? p.citations?.map((c) => c.url) : p.type))).toEqual([undefined, 'web-search', ['https://a.example/x/'], ['u']]);
  });
});
