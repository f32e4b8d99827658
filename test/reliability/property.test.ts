/**
 * Property tests: junk bodies never make a 500; random canonical requests survive every
 * dialect's encode → decode; any split of a fixture's bytes decodes to the same events.
 */
import fc from 'fast-check';
import { joinUrl } from '../../src/upstream/providers/index.ts';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import type { ChatRequest, Message, StreamEvent } from '../../src/canonical/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import { createSseChunkParser } from '../../src/sse/parse.ts';
import { chatDialects } from '../../translators/index.ts';
import type { ChatDialect, UpstreamTarget } from '../../translators/types.ts';
import { essence } from '../conformance/requests.ts';
import { fixtureText, testContext } from '../support/fixtures.ts';

const app = createApp({
  config: parseConfig({
    upstreams: {
      o: { dialect: 'openai', baseUrl: 'http://upstream.invalid/v1' },
      a: { dialect: 'anthropic', baseUrl: 'http://upstream.invalid' },
      g: { dialect: 'gemini', baseUrl: 'http://upstream.invalid' },
    },
    models: { 'claude-*': { upstream: 'a' }, 'gemini-*': { upstream: 'g' }, '*': { upstream: 'o' } },
  }),
  // Whatever gets through validation meets an upstream that is down: never a 500 either.
  fetch: async () => {
    throw new TypeError('fetch failed');
  },
});

const routes: Array<[string, Record<string, string>]> = [
  ['/v1/chat/completions', { authorization: 'Bearer k' }],
  ['/v1/messages', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }],
  ['/v1/messages/count_tokens', { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }],
  ['/v1beta/models/gemini-2.5-flash:generateContent', { 'x-goog-api-key': 'k' }],
  ['/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { 'x-goog-api-key': 'k' }],
  ['/v1beta/models/gemini-2.5-flash:countTokens', { 'x-goog-api-key': 'k' }],
  ['/v1/images/generations', { authorization: 'Bearer k' }],
  ['/v1/embeddings', { authorization: 'Bearer k' }],
  ['/v1beta/models/gemini-embedding-001:embedContent', { 'x-goog-api-key': 'k' }],
  ['/v1beta/models/gemini-embedding-001:batchEmbedContents', { 'x-goog-api-key': 'k' }],
];

/** JSON-ish values biased toward the shapes the decoders look at. */
const junk = fc.oneof(
  fc.jsonValue(),
  fc.record({
    model: fc.oneof(fc.string(), fc.constant('gpt-4o'), fc.constant('claude-x'), fc.integer()),
    messages: fc.oneof(fc.jsonValue(), fc.array(fc.record({ role: fc.oneof(fc.string(), fc.constantFrom('user', 'assistant', 'system', 'tool')), content: fc.jsonValue() }))),
    contents: fc.jsonValue(),
    max_tokens: fc.jsonValue(),
    tools: fc.jsonValue(),
    stream: fc.jsonValue(),
    input: fc.oneof(fc.jsonValue(), fc.array(fc.oneof(fc.string(), fc.array(fc.integer())))),
    requests: fc.oneof(fc.jsonValue(), fc.array(fc.record({ content: fc.jsonValue(), taskType: fc.jsonValue() }, { requiredKeys: [] }))),
    content: fc.jsonValue(),
  }, { requiredKeys: [] }),
);

describe('junk never produces a 500', () => {
  it.each(routes)('%s', async (path, headers) => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(junk.map((j) => JSON.stringify(j)), fc.string()), async (body) => {
        const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
        expect(res.status, body).not.toBe(500);
        expect(res.status).toBeGreaterThanOrEqual(200);
        const text = await res.text();
        expect(text).not.toMatch(/\n\s+at /); // no stack trace
      }),
      { numRuns: 150 },
    );
  });
});

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0);
const conversation = fc.array(text, { minLength: 1, maxLength: 6 }).map((texts): Message[] =>
  texts.map((t, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: t }] })),
).filter((m) => m.at(-1)!.role === 'user');

const canonical: fc.Arbitrary<ChatRequest> = fc.record({
  model: fc.constant('m'),
  system: fc.option(text, { nil: undefined }).map((s) => (s ? [{ type: 'text' as const, text: s }] : [])),
  messages: conversation,
  stream: fc.boolean(),
  maxOutputTokens: fc.integer({ min: 1, max: 4096 }),
  temperature: fc.option(fc.double({ min: 0, max: 1, noNaN: true }).map((x) => Math.round(x * 100) / 100), { nil: undefined }),
  topP: fc.option(fc.double({ min: 0.01, max: 1, noNaN: true }).map((x) => Math.round(x * 100) / 100), { nil: undefined }),
  stop: fc.option(fc.array(text, { minLength: 1, maxLength: 4 }), { nil: undefined }),
});

const baseUrlOf: Record<string, string> = {
  'openai-chat': 'https://u.example/v1',
  anthropic: 'https://u.example',
  gemini: 'https://u.example',
  'openai-responses': 'https://u.example/v1',
  'gemini-interactions': 'https://u.example',
};

describe.each(chatDialects.map((d) => [d.id, d] as const))('random requests survive %s', (_id, d: ChatDialect) => {
  it('encode → decode keeps the meaning', () => {
    fc.assert(
      fc.property(canonical, (generated) => {
        // The Responses API has no `stop` (reported as dropped; see test/conformance cannotCarry).
        const req = d.id === 'openai-responses' ? { ...generated, stop: undefined } : generated;
        const target: UpstreamTarget = { name: 'u', model: 'm', apiKey: 'k', options: {} };
        const enc = d.encodeRequest(req, target, testContext()).value;
        const url = new URL(joinUrl(baseUrlOf[d.id]!, enc.path));
        const m = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(enc.headers)) headers[k.toLowerCase()] = v;
        const back = d.decodeRequest(
          { body: JSON.parse(enc.body as string), headers, query: Object.fromEntries(url.searchParams), params: m ? { model: m[1]!, method: m[2]! } : {} },
          testContext(),
        ).value;
        expect(essence(back)).toEqual(essence(req));
      }),
      { numRuns: 200 },
    );
  });
});

const sseFixtures: Array<[ChatDialect, string, string]> = [
  [chatDialects[0], 'openai-chat', 'stream-parallel-tool-calls.sse'],
  [chatDialects[1], 'anthropic', 'stream-thinking-signature.sse'],
  [chatDialects[1], 'anthropic', 'stream-tool-use.sse'],
  [chatDialects[2], 'gemini', 'vertex-stream-thought-parallel-streamed-args.sse'],
  [chatDialects[2], 'gemini', 'stream-gemini3-tool-call.sse'],
  [chatDialects[3], 'openai-responses', 'stream-codex-reasoning-summaries-apply-patch.sse'],
];

function decode(d: ChatDialect, bytes: Uint8Array, cuts: number[]): StreamEvent[] {
  const parser = createSseChunkParser(1 << 22);
  const dec = d.createStreamDecoder({ model: 'm', system: [], messages: [], stream: true }, testContext());
  const out: StreamEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    for (const e of parser.push(bytes.subarray(at, cut))) out.push(...dec.push(e));
    at = cut;
  }
  for (const e of parser.finish()) out.push(...dec.push(e));
  return [...out, ...dec.finish()];
}

describe('any byte split decodes to the same events', () => {
  it.each(sseFixtures.map(([d, folder, f]) => [`${folder}/${f}`, d, folder, f] as const))('%s', (_n, d, folder, file) => {
    const bytes = new TextEncoder().encode(fixtureText(folder, file));
    const whole = decode(d, bytes, []);
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), (cuts) => {
        expect(decode(d, bytes, [...cuts].sort((a, b) => a - b))).toEqual(whole);
      }),
      { numRuns: 100 },
    );
  });
});

describe('deeply nested bodies are a 400, not a stack overflow', () => {
  const deepArray = '['.repeat(50_000) + ']'.repeat(50_000);
  const deepObject = '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000);
  const bodies: Array<[string, Record<string, string>, (d: string) => string]> = [
    ['/v1/chat/completions', routes[0]![1], (d) => `{"model":"claude-x","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${d}}}]}`],
    ['/v1/messages', routes[1]![1], (d) => `{"model":"gpt-4o","max_tokens":5,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","input_schema":${d}}]}`],
    [routes[3]![0], routes[3]![1], (d) => `{"contents":[{"parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"f","parameters":${d}}]}]}`],
  ];
  it.each(bodies.flatMap(([p, h, b]) => [[`${p} (arrays)`, p, h, b(deepArray)], [`${p} (objects)`, p, h, b(deepObject)]] as const))(
    '%s',
    async (_n, path, headers, body) => {
      const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('nests deeper than');
    },
  );
});
