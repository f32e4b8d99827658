import { describe, expect, it } from 'vitest';
import { ProxyError } from '../canonical/index.ts';
import { createGuardedFetch, isForbiddenAddress } from './guarded-fetch.ts';

describe('guarded fetch', () => {
  it('classifies private, loopback, link-local and metadata addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', 'localhost', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0', 'metadata.google.internal']) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', 'example.com', '2001:4860::8888']) expect(isForbiddenAddress(a), a).toBe(false);
  });

  it('refuses non-http schemes and private hosts without fetching', async () => {
    let calls = 0;
    const g = createGuardedFetch({ fetch: async () => (calls++, new Response('x')), allowHosts: [] });
    await expect(g('file:///etc/passwd')).rejects.toThrow(/Only http and https/);
    await expect(g('http://127.0.0.1/x.png')).rejects.toThrow(/not allowed/);
    await expect(g('http://[::1]/x.png')).rejects.toThrow(/not allowed/);
    expect(calls).toBe(0);
  });

  it('re-checks redirects and resolved addresses', async () => {
    const fetch = async (url: string) =>
      url.includes('public.example')
        ? new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest' } })
        : new Response('x');
    const g = createGuardedFetch({ fetch, allowHosts: [] });
    await expect(g('http://public.example/a.png')).rejects.toThrow(/not allowed/);
    const resolving = createGuardedFetch({ fetch: async () => new Response('x'), allowHosts: [], resolveHost: async () => ['10.0.0.5'] });
    await expect(resolving('http://sneaky.example/a.png')).rejects.toThrow(/private address/);
  });

  it('enforces size and content type, returns bytes', async () => {
    const fetch = async () => new Response(new Uint8Array(100), { headers: { 'content-type': 'image/png' } });
    const g = createGuardedFetch({ fetch, allowHosts: ['127.0.0.1'], maxBytes: 50 });
    await expect(g('http://127.0.0.1/a.png')).rejects.toMatchObject({ kind: 'too-large' });
    const ok = createGuardedFetch({ fetch, allowHosts: ['127.0.0.1'] });
    const got = await ok('http://127.0.0.1/a.png', { accept: /^image\// });
    expect(got.mediaType).toBe('image/png');
    expect(got.data.byteLength).toBe(100);
    await expect(ok('http://127.0.0.1/a.png', { accept: /^audio\// })).rejects.toBeInstanceOf(ProxyError);
  });
});
