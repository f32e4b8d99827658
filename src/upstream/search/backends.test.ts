/**
 * Each search backend against a local mock of its API on 127.0.0.1: the request as the provider
 * documents it (path, method, where the key goes, the fields), its answer read into pages, the
 * domain lists applied whatever the backend did, and failures as the codes the model is told.
 */
import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SearchConfig } from '../../config/load.ts';
import { SearchFailure, createSearchBackend, domainAllowed } from './index.ts';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let base = '';
const seen: Seen[] = [];
let answer: { status?: number; body: string; type?: string } = { body: '{}' };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
});

const backend = (provider: SearchConfig['provider'], apiKey: string | null = 'KEY-123') =>
  createSearchBackend({ provider, ...(apiKey !== null && { apiKey }), baseUrl: base, maxResults: 5 }, (url, init) => fetch(url, init));
const ask = { query: 'who won euro 2024', count: 2 };

describe('search backends', () => {
  it('Brave: GET /res/v1/web/search with the key in X-Subscription-Token; web.results read', async () => {
    answer = { body: JSON.stringify({ web: { results: [{ title: 'A', url: 'https://a.example/x', description: 'about a', age: '2 days ago' }, { title: 'B', url: 'https://b.example/' }, { title: 'C', url: 'https://c.example/' }] } }) };
    const hits = await backend('brave').search({ ...ask, country: 'GB' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/res/v1/web/search?q=who+won+euro+2024&count=2&country=gb' });
    expect(seen[0]!.headers['x-subscription-token']).toBe('KEY-123');
    expect(hits).toEqual([{ url: 'https://a.example/x', title: 'A', snippet: 'about a', pageAge: '2 days ago' }, { url: 'https://b.example/', title: 'B' }]);
  });

  it('Tavily: POST /search with the bearer key and the domain lists; results read', async () => {
    answer = { body: JSON.stringify({ results: [{ title: 'A', url: 'https://a.example/', content: 'about a', published_date: '2024-07-14' }] }) };
    const hits = await backend('tavily').search({ ...ask, allowedDomains: ['a.example'], blockedDomains: ['b.example'] });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/search' });
    expect(seen[0]!.headers.authorization).toBe('Bearer KEY-123');
    expect(JSON.parse(seen[0]!.body)).toEqual({ query: 'who won euro 2024', max_results: 2, include_domains: ['a.example'], exclude_domains: ['b.example'] });
    expect(hits).toEqual([{ url: 'https://a.example/', title: 'A', snippet: 'about a', pageAge: '2024-07-14' }]);
  });

  it('Exa: POST /search with x-api-key, numResults and highlights; highlights as the excerpt', async () => {
    answer = { body: JSON.stringify({ results: [{ title: 'A', url: 'https://a.example/', publishedDate: '2024-07-14T00:00:00.000Z', highlights: ['one', 'two'] }, { url: 'https://b.example/', text: 'page text' }] }) };
    const hits = await backend('exa').search(ask);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/search' });
    expect(seen[0]!.headers['x-api-key']).toBe('KEY-123');
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ query: 'who won euro 2024', numResults: 2, contents: { highlights: {} } });
    expect(hits).toEqual([{ url: 'https://a.example/', title: 'A', snippet: 'one … two', pageAge: '2024-07-14T00:00:00.000Z' }, { url: 'https://b.example/', snippet: 'page text' }]);
  });

  it('SearXNG: GET /search?format=json, no key; results read, cut to the count', async () => {
    answer = { body: JSON.stringify({ query: 'x', results: [{ url: 'https://a.example/', title: 'A', content: 'about a' }, { url: 'https://b.example/', title: 'B' }, { url: 'https://c.example/' }] }) };
    const hits = await backend('searxng', null).search(ask);
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/search?q=who+won+euro+2024&format=json' });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(hits.map((h) => h.url)).toEqual(['https://a.example/', 'https://b.example/']);
  });

  it('domain lists hold whatever the backend returned; non-http URLs are dropped', async () => {
    answer = { body: JSON.stringify({ results: [{ url: 'https://docs.a.example/p' }, { url: 'https://evil.example/' }, { url: 'javascript:alert(1)' }, { url: 'https://a.example.evil.test/' }] }) };
    const hits = await backend('searxng').search({ query: 'q', count: 5, allowedDomains: ['a.example'] });
    expect(hits.map((h) => h.url)).toEqual(['https://docs.a.example/p']);
    expect(domainAllowed('https://x.b.example/', undefined, ['b.example'])).toBe(false);
    expect(domainAllowed('https://b.example.org/', undefined, ['b.example'])).toBe(true);
    expect(domainAllowed('not a url', undefined, undefined)).toBe(false);
  });

  it('failures: 429 is too_many_requests, 401 or a non-JSON body unavailable; the key is never in the message', async () => {
    answer = { status: 429, body: 'slow down' };
    await expect(backend('brave').search(ask)).rejects.toMatchObject({ code: 'too_many_requests' });
    answer = { status: 401, body: 'bad key KEY-123' };
    const e = await backend('brave').search(ask).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SearchFailure);
    expect(e).toMatchObject({ code: 'unavailable' });
    expect((e as Error).message).not.toContain('KEY-123');
    answer = { body: '<html>', type: 'text/html' };
    await expect(backend('tavily').search(ask)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(backend('tavily').search({ query: 'q'.repeat(401), count: 1 })).rejects.toMatchObject({ code: 'query_too_long' });
  });

  it('an unreachable backend is unavailable', async () => {
    const down = createSearchBackend({ provider: 'brave', apiKey: 'k', baseUrl: 'http://127.0.0.1:9', maxResults: 5 }, (url, init) => fetch(url, init));
    await expect(down.search(ask)).rejects.toMatchObject({ code: 'unavailable' });
  });
});
