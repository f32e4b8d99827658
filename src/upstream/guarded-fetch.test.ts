import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../canonical/index.ts';
import { createGuardedFetch, isForbiddenAddress, type GuardOptions } from './guarded-fetch.ts';

const isImage = (t: string) => t.startsWith('image/');

/** A fetcher that records what it was asked to reach. */
function recording(answer: (url: string) => Response = () => new Response('x')) {
  const calls: Array<{ url: string; pinnedAddress?: string }> = [];
  const fetch = (async (url: string, init: { pinnedAddress?: string }) => {
    calls.push({ url, pinnedAddress: init.pinnedAddress });
    return answer(url);
  }) as GuardOptions['fetch'];
  return { fetch, calls };
}

// Forbidden IPv4 ranges as [first octets, prefix length].
const V4_FORBIDDEN: Array<[number[], number]> = [
  [[0], 8], [[10], 8], [[100, 64], 10], [[127], 8], [[169, 254], 16], [[172, 16], 12], [[192, 0, 0], 24],
  [[192, 0, 2], 24], [[192, 168], 16], [[198, 18], 15], [[198, 51, 100], 24], [[203, 0, 113], 24], [[224], 4], [[240], 4],
];

const v4InRange = fc.constantFrom(...V4_FORBIDDEN).chain(([head, bits]) =>
  fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((low) => {
    const base = head.concat([0, 0, 0, 0]).slice(0, 4).reduce((n, o) => n * 256 + o, 0);
    return (base + low) >>> 0;
  }),
);

const octets = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const hex4 = (n: number) => [(n >>> 16).toString(16), (n & 0xffff).toString(16)];

/** Every way the WHATWG URL parser accepts to write this IPv4 address as a host. */
function v4Notations(n: number): string[] {
  const [a, b, c, d] = octets(n);
  const [hi, lo] = hex4(n);
  return [
    `${a}.${b}.${c}.${d}`,
    String(n),
    `0x${n.toString(16)}`,
    `0${n.toString(8)}`,
    `0x${a!.toString(16)}.0x${b!.toString(16)}.0x${c!.toString(16)}.0x${d!.toString(16)}`,
    `0${a!.toString(8)}.0${b!.toString(8)}.0${c!.toString(8)}.0${d!.toString(8)}`,
    `${a}.${(b! << 16) + (c! << 8) + d!}`,
    `${a}.${b}.${(c! << 8) + d!}`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${hi}:${lo}]`,
    `[0:0:0:0:0:FFFF:${hi}:${lo}]`,
    `[::${a}.${b}.${c}.${d}]`,
    `[::${hi}:${lo}]`,
    `[64:ff9b::${a}.${b}.${c}.${d}]`,
    `[64:ff9b::${hi}:${lo}]`,
    `[2002:${hi}:${lo}::1]`,
    `[::ffff:0:${a}.${b}.${c}.${d}]`,
  ];
}

const V6_FORBIDDEN = ['::1', '::', 'fe80::1', 'fe80::abcd:1234', 'fc00::1', 'fd12:3456::7', 'ff02::1', 'ff0e::fb', '2001:db8::1', '100::1', 'fd00:ec2::254'];

describe('isForbiddenAddress', () => {
  it('refuses every non-global address and the names of this machine and the metadata service', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.100.100.200', 'localhost', 'a.localhost', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0.0.0.0', 'metadata.google.internal', '[::ffff:a00:1]', ...V6_FORBIDDEN]) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
  });

  it('lets global unicast through, IPv4 embedded in IPv6 included', () => {
    for (const a of ['8.8.8.8', '172.32.0.1', 'example.com', '2001:4860::8888', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) expect(isForbiddenAddress(a), a).toBe(false);
  });
});

describe('guarded fetch', () => {
  it('property: a forbidden IPv4 address is refused in every notation the URL parser accepts, directly and after a redirect', async () => {
    await fc.assert(
      fc.asyncProperty(v4InRange, async (n) => {
        for (const host of v4Notations(n)) {
          let parsed: URL;
          try {
            parsed = new URL(`http://${host}/img.png`);
          } catch {
            continue; // not a notation the parser accepts
          }
          const { fetch, calls } = recording((url) => (url.startsWith('https://cdn.example') ? new Response(null, { status: 302, headers: { location: parsed.href } }) : new Response('x')));
          const g = createGuardedFetch({ fetch, allowHosts: [] });
          await expect(g(parsed.href), host).rejects.toThrow(/not allowed/);
          await expect(g('https://cdn.example/a.png'), host).rejects.toThrow(/not allowed/);
          expect(calls.map((c) => c.url)).toEqual(['https://cdn.example/a.png']);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('refuses forbidden IPv6 addresses in any spelling', async () => {
    const { fetch, calls } = recording();
    const g = createGuardedFetch({ fetch, allowHosts: [] });
    for (const a of V6_FORBIDDEN) {
      for (const spelled of [a, a.toUpperCase(), ipExpanded(a)]) await expect(g(`http://[${spelled}]/x.png`), spelled).rejects.toThrow(/not allowed/);
    }
    expect(calls).toEqual([]);
  });

  it('refuses non-http schemes and private hosts without fetching', async () => {
    const { fetch, calls } = recording();
    const g = createGuardedFetch({ fetch, allowHosts: [] });
    await expect(g('file:///etc/passwd')).rejects.toThrow(/Only http and https/);
    await expect(g('http://127.0.0.1/x.png')).rejects.toThrow(/not allowed/);
    await expect(g('http://[::1]/x.png')).rejects.toThrow(/not allowed/);
    expect(calls).toEqual([]);
  });

  it('checks what a name resolves to, and connects to the address it checked', async () => {
    const { fetch, calls } = recording();
    const resolving = createGuardedFetch({ fetch, allowHosts: [], resolveHost: async (h) => (h === 'sneaky.example' ? ['8.8.8.8', '10.0.0.5'] : ['93.184.216.34']) });
    await expect(resolving('http://sneaky.example/a.png')).rejects.toThrow(/private address/);
    await resolving('http://fine.example/a.png');
    expect(calls).toEqual([{ url: 'http://fine.example/a.png', pinnedAddress: '93.184.216.34' }]);
    const none = createGuardedFetch({ fetch, allowHosts: [], resolveHost: async () => [] });
    await expect(none('http://nowhere.example/a.png')).rejects.toThrow(/could not be resolved/);
  });

  it('re-checks every redirect hop, and bounds the number of hops', async () => {
    const { fetch } = recording((url) =>
      url.includes('public.example') ? new Response(null, { status: 302, headers: { location: 'http://[::ffff:169.254.169.254]/latest' } }) : new Response(null, { status: 301, headers: { location: '/again' } }),
    );
    const g = createGuardedFetch({ fetch, allowHosts: [], maxRedirects: 2 });
    await expect(g('http://public.example/a.png')).rejects.toThrow(/not allowed/);
    await expect(g('http://loop.example/a.png')).rejects.toThrow(/Too many redirects fetching media \(more than 2\)/);
  });

  it('enforces size and content type, and judges octet-stream by its bytes', async () => {
    const png = new Uint8Array(100);
    png.set([0x89, 0x50, 0x4e, 0x47]);
    const serve = (type: string, body: BodyInit = png as Uint8Array<ArrayBuffer>) => recording(() => new Response(body, { headers: { 'content-type': type } })).fetch;
    await expect(createGuardedFetch({ fetch: serve('image/png'), allowHosts: ['127.0.0.1'], maxBytes: 50 })('http://127.0.0.1/a.png')).rejects.toMatchObject({ kind: 'too-large' });
    const ok = await createGuardedFetch({ fetch: serve('image/png'), allowHosts: ['127.0.0.1'] })('http://127.0.0.1/a.png', { accept: isImage });
    expect(ok).toMatchObject({ mediaType: 'image/png' });
    expect(ok.data.byteLength).toBe(100);
    await expect(createGuardedFetch({ fetch: serve('text/html', '<html>'), allowHosts: ['127.0.0.1'] })('http://127.0.0.1/a.png', { accept: isImage })).rejects.toThrow(/text\/html, which is not acceptable/);
    const sniffed = await createGuardedFetch({ fetch: serve('application/octet-stream'), allowHosts: ['127.0.0.1'] })('http://127.0.0.1/a', { accept: isImage });
    expect(sniffed.mediaType).toBe('image/png');
    await expect(createGuardedFetch({ fetch: serve('application/octet-stream', 'plain text'), allowHosts: ['127.0.0.1'] })('http://127.0.0.1/a', { accept: isImage })).rejects.toBeInstanceOf(ProxyError);
  });

  it('one deadline for the whole fetch: a slow drip is a 504, never a 500', async () => {
    const drip = (async (_url: string, init: { signal?: AbortSignal }) =>
      new Response(
        new ReadableStream({
          async pull(c) {
            await new Promise((r) => setTimeout(r, 40));
            if (init.signal?.aborted) return c.error(init.signal.reason);
            c.enqueue(new Uint8Array([1]));
          },
        }),
        { headers: { 'content-type': 'image/png' } },
      )) as GuardOptions['fetch'];
    const g = createGuardedFetch({ fetch: drip, allowHosts: ['127.0.0.1'], timeoutMs: 200 });
    const started = Date.now();
    await expect(g('http://127.0.0.1/slow.png')).rejects.toMatchObject({ kind: 'invalid-request', status: 400, code: 'media_fetch_timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

/** `fe80::1` → `fe80:0:0:0:0:0:0:1`. */
function ipExpanded(a: string): string {
  const [head, tail] = a.split('::') as [string, string | undefined];
  if (tail === undefined) return a;
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  return [...h, ...Array(8 - h.length - t.length).fill('0'), ...t].join(':');
}
