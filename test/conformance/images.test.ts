/**
 * The images contract (translators/types.ts `ImageUpstream`, `ImageCaller`), run unchanged against
 * every implementation: each image upstream in the registry (OpenAI Images, Gemini image output)
 * plus Gemini's mask-approximating variant, and every image caller (OpenAI Images).
 *
 * Upstreams: every op either encodes or is refused as the caller's mistake (a ProxyError, never a
 * crash); the request is pure (its input untouched, the same twice) and keeps the key out of the
 * path; image bytes reach the upstream intact; `n` is one call asking for n or n calls; a success
 * answer decodes to images; a body of the wrong shape is the upstream's error; every error the
 * upstream writes decodes to its kind, with Retry-After kept, and a non-JSON error page too.
 * Callers: any body is a request or a 400; every error encodes to its status and back; a response
 * keeps its images in order.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ErrorKind, type ImageRequest, type ImageResponse } from '../../src/canonical/index.ts';
import { bytesToBase64 } from '../../src/kit/index.ts';
import { chatDialects, registry } from '../../translators/index.ts';
import { createGeminiImages } from '../../translators/gemini/image-upstream.ts';
import type { EncodedError, ImageUpstream, UpstreamTarget } from '../../translators/types.ts';
import { fixtureJson, testContext } from '../support/fixtures.ts';

interface UpstreamCase {
  up: ImageUpstream;
  model: string;
  /** How this upstream writes an error (its vendor's envelope). */
  wireError(err: ProxyError): EncodedError;
  /** A success answer this upstream sends. */
  answer: unknown;
}

const geminiChat = chatDialects.find((d) => d.id === 'gemini')!;
const gemini = (up: ImageUpstream): UpstreamCase => ({
  up,
  model: 'gemini-2.5-flash-image',
  wireError: (e) => geminiChat.encodeError(e),
  answer: fixtureJson('gemini', 'image-generation.json'),
});
const upstreams: Array<[string, UpstreamCase]> = [
  ...Object.entries(registry.imageUpstreams).map(([name, up]): [string, UpstreamCase] =>
    name === 'gemini'
      ? ['gemini', gemini(up!)]
      : [name, { up: up!, model: 'gpt-image-1', wireError: (e) => registry.imageCaller.encodeError(e), answer: fixtureJson('openai-images', 'generations-b64-revised-prompt.json') }],
  ),
  ['gemini (masks as instructions)', gemini(createGeminiImages({ mask: 'instruction' }))],
];

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 300 }, (_, i) => (i * 7) % 256)]);
const target = (model: string): UpstreamTarget => ({ name: 'up', model, apiKey: 'sk-secret-key', options: {} });

const requests: ImageRequest[] = [
  { op: 'generate', model: 'm', prompt: 'a fox in snow', images: [] },
  { op: 'generate', model: 'm', prompt: 'a fox', images: [], n: 3, size: '1024x1024' },
  { op: 'edit', model: 'm', prompt: 'add a hat', images: [{ data: PNG, mediaType: 'image/png', filename: 'fox.png' }] },
  { op: 'edit', model: 'm', prompt: 'add a hat', images: [{ data: PNG, mediaType: 'image/png' }], mask: { data: PNG, mediaType: 'image/png' } },
  { op: 'variation', model: 'm', images: [{ data: PNG, mediaType: 'image/png' }] },
];

/** Where the image bytes went: a multipart file's bytes, or base64 in a JSON body. */
async function carries(body: unknown, bytes: Uint8Array): Promise<boolean> {
  if (body instanceof FormData) {
    for (const [, v] of body) if (typeof v !== 'string' && Buffer.from(await v.arrayBuffer()).equals(Buffer.from(bytes))) return true;
    return false;
  }
  return typeof body === 'string' && body.includes(bytesToBase64(bytes));
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const kinds: ErrorKind[] = ['invalid-request', 'authentication', 'permission', 'not-found', 'too-large', 'rate-limit', 'overloaded', 'upstream', 'timeout'];
/** Kinds a status cannot tell apart on some wires. */
const sameAs = (k: ErrorKind): ErrorKind[] => (k === 'too-large' || k === 'timeout' || k === 'upstream' ? ['too-large', 'timeout', 'upstream', 'invalid-request', 'overloaded'] : [k]);

describe.each(upstreams)('image upstream: %s', (_name, c) => {
  const encode = (req: ImageRequest) => c.up.encodeImageRequest(req, target(c.model), testContext());

  it.each(requests.map((r) => [`${r.op}${r.n ? ` n=${r.n}` : ''}${r.mask ? ' with mask' : ''}`, r] as const))('%s: encodes purely, or is refused as the caller’s mistake', async (_label, req) => {
    let out;
    try {
      out = encode(deepFreeze(structuredClone(req)));
    } catch (e) {
      expect(e).toBeInstanceOf(ProxyError);
      expect(['invalid-request', 'unsupported']).toContain((e as ProxyError).kind);
      return;
    }
    expect(encode(req).value.map((r) => ({ ...r, body: r.body instanceof FormData ? [...r.body.keys()] : r.body }))).toEqual(
      out.value.map((r) => ({ ...r, body: r.body instanceof FormData ? [...r.body.keys()] : r.body })),
    );
    expect(out.value.length).toBeGreaterThan(0);
    if (req.n && out.value.length > 1) expect(out.value.length).toBe(req.n);
    for (const r of out.value) {
      expect(r.path.startsWith('/')).toBe(true);
      expect(r.path).not.toContain('sk-secret-key');
      if (typeof r.body === 'string') expect(() => JSON.parse(r.body as string)).not.toThrow();
      if (typeof r.body === 'string') expect(r.body).not.toContain('sk-secret-key');
    }
    for (const img of req.images) expect(await carries(out.value[0]!.body, img.data), 'image bytes sent intact').toBe(true);
  });

  it('a success answer decodes to images', () => {
    const req = requests[0]!;
    const res = c.up.decodeImageResponse(structuredClone(c.answer), req, testContext());
    expect(res.images.length).toBeGreaterThan(0);
    for (const img of res.images) expect(img.b64 ?? img.url).toBeTruthy();
    expect(Number.isInteger(res.created)).toBe(true);
  });

  it.each([null, 5, 'text', [], {}, { data: 'x' }, { candidates: 'x' }, { data: [5] }, { candidates: [{ content: { parts: 'x' } }] }])('a body of the wrong shape (%j) is the upstream’s error or no image, never a crash', (body) => {
    let res: ImageResponse;
    try {
      res = c.up.decodeImageResponse(body, requests[0]!, testContext());
    } catch (e) {
      expect(e).toBeInstanceOf(ProxyError);
      expect((e as ProxyError).status).toBeGreaterThanOrEqual(500);
      return;
    }
    expect(Array.isArray(res.images)).toBe(true);
    for (const img of res.images) expect(img.b64 ?? img.url).toBeTruthy();
  });

  it.each(kinds)('an upstream %s error decodes to its kind', (kind) => {
    const err = new ProxyError(kind, `a ${kind} problem`, { retryAfter: kind === 'rate-limit' ? 7 : undefined });
    const wire = c.wireError(err);
    const back = c.up.decodeError(wire.status, JSON.stringify(wire.body), { ...wire.headers });
    expect(back).toBeInstanceOf(ProxyError);
    expect(back.message).toContain(`a ${kind} problem`);
    expect(sameAs(kind)).toContain(back.kind);
    if (kind === 'rate-limit') expect(back.retryAfter).toBe(7);
  });

  it.each([502, 503, 429, 400])('a non-JSON error page (%i) is an error of that status’s kind', (status) => {
    const back = c.up.decodeError(status, '<html><body>Bad Gateway</body></html>', { 'content-type': 'text/html' });
    expect(back).toBeInstanceOf(ProxyError);
    expect(back.status === status || (status >= 500 && back.status! >= 500)).toBe(true);
  });
});

describe.each([[registry.imageCaller.id, registry.imageCaller] as const])('image caller: %s', (_id, caller) => {
  const up = registry.imageUpstreams.openai!;
  it.each([null, 5, 'x', [], { prompt: 5 }, { prompt: 'p', n: 'two' }, { prompt: 'p', n: 0 }, { prompt: 'p', size: {} }, { prompt: 'p', stream: true }, {}])('a body of %j is a request or a 400, never a crash', (body) => {
    try {
      caller.decodeImageRequest({ body, headers: {}, query: {}, params: {} }, 'generate', testContext());
    } catch (e) {
      expect(e).toBeInstanceOf(ProxyError);
      expect(['invalid-request', 'unsupported']).toContain((e as ProxyError).kind);
      expect(caller.encodeError(e as ProxyError).status).toBe(400);
    }
  });

  it.each(kinds)('%s encodes to an error status and back to its kind', (kind) => {
    const err = new ProxyError(kind, `a ${kind} problem`, { retryAfter: kind === 'rate-limit' ? 7 : undefined });
    const enc = caller.encodeError(err);
    expect(enc.status).toBeGreaterThanOrEqual(400);
    const back = up.decodeError(enc.status, JSON.stringify(enc.body), { ...enc.headers });
    expect(sameAs(kind)).toContain(back.kind);
    expect(back.message).toContain(`a ${kind} problem`);
  });

  it.each(['b64_json', 'url'] as const)('a response (%s) keeps its images in order', (responseFormat) => {
    const images = [{ b64: 'AAEC', mediaType: 'image/png' }, { url: 'https://img.example/2.png' }, { b64: 'AwQF', revisedPrompt: 'r' }];
    const req: ImageRequest = { op: 'generate', model: 'gpt-image-1', prompt: 'p', images: [], responseFormat };
    const wire = JSON.parse(JSON.stringify(caller.encodeImageResponse({ created: 1_700_000_000, images }, req)));
    const back = up.decodeImageResponse(wire, req, testContext());
    expect(back.images.map((i) => i.b64 ?? i.url)).toEqual(images.map((i) => i.b64 ?? i.url));
    expect(back.created).toBe(1_700_000_000);
  });
});
