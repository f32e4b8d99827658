/**
 * Whatever model a caller names (after routing), the URL the proxy sends to keeps its origin, its
 * path prefix, its number of path segments and its query: the name is exactly one encoded path
 * segment (Gemini; Azure deployments, Vertex AI and Bedrock models) or lives in the body (OpenAI,
 * Anthropic). Checked for every upstream-side encoder of every dialect, then through every
 * provider that builds its own URL (whose base may carry a query), with arbitrary strings, parsed
 * as `fetch` would (WHATWG URL). One property for the whole URL, so it lives here and not in each
 * provider's unit tests.
 */
import fc from 'fast-check';
import { joinUrl, providerOf } from '../../src/upstream/providers/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type ImageRequest } from '../../src/canonical/index.ts';
import { chatDialects, registry } from '../../translators/index.ts';
import { geminiImages } from '../../translators/gemini/index.ts';
import { openaiImages } from '../../translators/openai-images/index.ts';
import type { CallerInput, ImageUpstream, UpstreamHttpRequest, UpstreamTarget } from '../../translators/types.ts';
import { testContext } from '../support/fixtures.ts';

const REF = 'refmodel';

const baseUrlOf: Record<string, string> = {
  'openai-chat': 'https://up.example:8443/gw/prefix/v1',
  anthropic: 'https://up.example:8443/gw/prefix',
  gemini: 'https://up.example:8443/gw/prefix',
  'openai-responses': 'https://up.example:8443/gw/prefix/v1',
  'gemini-interactions': 'https://up.example:8443/gw/prefix',
};

const target = (_base: string, model: string): UpstreamTarget => ({ name: 'up', model, apiKey: 'k', options: {} });

/** The URLs the proxy sends these requests to (a plain upstream: the base plus each path). */
const full = (base: string, reqs: UpstreamHttpRequest[]): string[] => reqs.map((r) => joinUrl(base, r.path));

/** Strings made of the pieces that have broken URL builders, plus any unicode. */
const hostileName = fc
  .array(
    fc.oneof(
      fc.constantFrom('/', '\\', '?', '#', '%', '%2F', '%2f', '%3F', '%23', '%2e', '%2E%2e', '..', '.', ' ', '\t', '\n', '\r', '\u0000', '\u007f', ':', '@', '&', '=', ';', 'models/', 'evil', 'gemini-2.5-pro', '\uD800', '\uDC00', '😀', 'é', '\u202e'),
      fc.string({ unit: 'binary', maxLength: 6 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

/** What the name must decode back to: lone surrogates become U+FFFD. */
const wellFormed = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s));

/**
 * `url` (built for `name`) against `ref` (built for REF): same origin, query, no fragment, same
 * segment count; each segment equal, or, where REF was, the encoded name (its `models/` prefix
 * may be dropped, as Gemini does).
 */
function expectSameShape(ref: string, url: string, name: string): void {
  const a = new URL(ref);
  const b = new URL(url);
  expect(b.origin).toBe(a.origin);
  expect(b.search).toBe(a.search);
  expect(b.hash).toBe('');
  const sa = a.pathname.split('/');
  const sb = b.pathname.split('/');
  expect(sb.length).toBe(sa.length);
  sa.forEach((seg, i) => {
    const at = seg.indexOf(REF);
    if (at < 0) return expect(sb[i]).toBe(seg);
    const tail = seg.slice(at + REF.length);
    expect(sb[i]!.startsWith(seg.slice(0, at))).toBe(true);
    expect(sb[i]!.endsWith(tail)).toBe(true);
    const encoded = sb[i]!.slice(at, sb[i]!.length - tail.length);
    expect(encoded).not.toMatch(/[/?#\\]/);
    const decoded = decodeURIComponent(encoded);
    const expected = wellFormed(name);
    expect([expected, expected.replace(/^models\//, '')]).toContain(decoded);
  });
}

/** Either the same URL shape, or a refusal naming the model (`.`, `..`, empty). */
function check(build: (model: string) => string[], name: string): void {
  const ref = build(REF);
  let got: string[];
  try {
    got = build(name);
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    expect((e as ProxyError).kind).toBe('invalid-request');
    expect((e as ProxyError).param).toBe('model');
    return;
  }
  expect(got.length).toBe(ref.length);
  got.forEach((r, i) => expectSameShape(ref[i]!, r, name));
}

const chatReq = (model: string, stream: boolean): ChatRequest => ({
  model,
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream,
});

function passthroughInputs(model: string): CallerInput[] {
  const body = { model, messages: [{ role: 'user', content: 'hi' }], contents: [{ parts: [{ text: 'hi' }] }] };
  const headers = { 'anthropic-version': '2023-06-01' };
  const inputs: CallerInput[] = [];
  for (const method of ['generateContent', 'streamGenerateContent', 'countTokens', 'count_tokens', undefined]) {
    for (const query of [{}, { alt: 'sse' }, { beta: 'true' }] as Array<Record<string, string>>) {
      inputs.push({ body, headers, params: method ? { model, method } : {}, query });
    }
  }
  return inputs;
}

const runs = { numRuns: 200 };

describe.each(chatDialects.map((d) => [d.id, d] as const))('upstream URL of %s', (_id, d) => {
  const base = baseUrlOf[d.id]!;
  const ctx = testContext();

  it('encodeRequest (plain and stream)', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        for (const stream of [false, true]) check((m) => full(base, [d.encodeRequest(chatReq(m, stream), target(base, m), ctx).value]), name);
      }),
      runs,
    );
  });

  it('encodePassthrough (every method and query a caller may send)', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        passthroughInputs('caller-model').forEach((input) => {
          check((m) => full(base, [d.encodePassthrough(input, JSON.stringify(input.body), target(base, m))]), name);
        });
      }),
      runs,
    );
  });

  it('encodeCountTokens and encodeModelListRequest', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        if (d.encodeCountTokens) check((m) => full(base, [d.encodeCountTokens!(chatReq(m, false), target(base, m), ctx)]), name);
        if (d.encodeModelListRequest) check((m) => full(base, [d.encodeModelListRequest!(target(base, m))]), name);
      }),
      runs,
    );
  });
});

const imageUpstreams: Array<[string, ImageUpstream, string]> = [
  ['openai-images', openaiImages, baseUrlOf['openai-chat']!],
  ['gemini images', geminiImages, baseUrlOf.gemini!],
];

describe.each(imageUpstreams)('upstream URL of %s', (_name, up, base) => {
  it('encodeImageRequest (generate, with n > 1)', () => {
    const req = (model: string): ImageRequest => ({ op: 'generate', model, prompt: 'a cat', images: [], n: 2 });
    fc.assert(
      fc.property(hostileName, (name) => check((m) => full(base, up.encodeImageRequest(req(m), target(base, m), testContext()).value), name)),
      runs,
    );
  });
});

/** Providers that build the URL themselves (paths, model segment, query), each base with a query of its own. */
const providerCases: Array<[string, Record<string, unknown>]> = [
  ['azure v1', { provider: 'azure', dialect: 'openai', baseUrl: 'https://res.example:8443/gw?tenant=a', apiKey: 'k' }],
  ['azure deployment URL', { provider: 'azure', dialect: 'openai', apiVersion: '2024-10-21', baseUrl: 'https://res.example:8443/gw?tenant=a', apiKey: 'k' }],
  ['azure openai-responses', { provider: 'azure', dialect: 'openai-responses', baseUrl: 'https://res.example:8443/gw?tenant=a', apiKey: 'k' }],
  ['vertex gemini', { provider: 'vertex', dialect: 'gemini', project: 'p', location: 'us-central1', accessToken: 't', baseUrl: 'https://psc.example:8443/gw?tenant=a' }],
  ['vertex interactions', { provider: 'vertex', dialect: 'gemini-interactions', project: 'p', location: 'us-central1', accessToken: 't', baseUrl: 'https://psc.example:8443/gw?tenant=a' }],
  ['vertex claude', { provider: 'vertex', dialect: 'anthropic', project: 'p', location: 'us-central1', accessToken: 't', baseUrl: 'https://psc.example:8443/gw?tenant=a' }],
  ['bedrock claude', { provider: 'bedrock', dialect: 'anthropic', region: 'us-east-1', apiKey: 'k', baseUrl: 'https://vpce.example:8443/gw?tenant=a' }],
];

describe.each(providerCases)('upstream URL through provider %s', (_name, cfg) => {
  const u = parseConfig({ open: true, upstreams: { up: cfg }, models: { '*': { upstream: 'up' } } }).upstreams.up!;
  const d = registry.chatUpstreams[u.dialect as keyof typeof registry.chatUpstreams];
  const provider = providerOf(u);
  const ctx = testContext();
  const targetOf = (model: string): UpstreamTarget => ({ name: 'up', model, apiKey: 'k', options: provider.options?.({ upstream: u, model }) ?? {} });
  const sent = (model: string, reqs: UpstreamHttpRequest[]) => reqs.map((r) => provider.url(r, { upstream: u, model }));

  it('encodeRequest (plain and stream)', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        for (const stream of [false, true]) check((m) => sent(m, [d.encodeRequest(chatReq(m, stream), targetOf(m), ctx).value]), name);
      }),
      runs,
    );
  });

  it('encodeCountTokens', () => {
    fc.assert(
      fc.property(hostileName, (name) => {
        if (d.encodeCountTokens) check((m) => sent(m, [d.encodeCountTokens!(chatReq(m, false), targetOf(m), ctx)]), name);
      }),
      runs,
    );
  });

  it('the examples: dot segments refused, traversal kept inside the segment, the base query after the path', () => {
    const url = (m: string) => sent(m, [d.encodeRequest(chatReq(m, false), targetOf(m), ctx).value])[0]!;
    for (const name of ['..', '.']) {
      let err: unknown;
      try {
        const got = url(name);
        // Only where the name lives in the body (Azure v1) may it go through: then the path is the reference's.
        expect(new URL(got).pathname).toBe(new URL(url(REF)).pathname);
      } catch (e) {
        err = e;
      }
      if (err !== undefined) expect(err).toMatchObject({ kind: 'invalid-request', param: 'model' });
    }
    const ref = new URL(url(REF));
    expect(ref.search.startsWith('?tenant=a')).toBe(true);
    expect(new URL(url('../../../x')).pathname).toBe(ref.pathname.replace(REF, '..%2F..%2F..%2Fx'));
    expect(() => url('\uD800')).not.toThrow();
  });
});

describe('examples from the report', () => {
  const gemini = chatDialects.find((d) => d.id === 'gemini')!;
  const url = (model: string) => joinUrl('https://g.example', gemini.encodeRequest(chatReq(model, false), target('https://g.example', model), testContext()).value.path);

  it('keeps traversal, query and fragment characters inside the model segment', () => {
    expect(url('gemini/../../../evil')).toBe('https://g.example/v1beta/models/gemini%2F..%2F..%2F..%2Fevil:generateContent');
    expect(url('x?key=1#y')).toBe('https://g.example/v1beta/models/x%3Fkey%3D1%23y:generateContent');
    expect(url('a%2F..%2Fb')).toBe('https://g.example/v1beta/models/a%252F..%252Fb:generateContent');
    expect(url('models/gemini-2.5-pro')).toBe('https://g.example/v1beta/models/gemini-2.5-pro:generateContent');
  });

  it('refuses names no encoding keeps one segment', () => {
    for (const name of ['', '.', '..', 'models/..']) {
      expect(() => url(name), name).toThrow(ProxyError);
    }
  });
});
