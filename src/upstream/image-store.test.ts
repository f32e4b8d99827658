import { describe, expect, it } from 'vitest';
import { fetchImageAsBase64, findHosted, hostImage, memoryImageStore, type ImageStore } from './image-store.ts';

// The stores' own contract (memory, Cache API) is test/conformance/image-store.test.ts.

describe('hosting', () => {
  it('hostImage gives an unguessable URL that findHosted answers until expiry', async () => {
    let t = 0;
    const store = memoryImageStore({ now: () => t });
    const url = await hostImage(store, 'https://proxy.example', { b64: 'AAEC', mediaType: 'image/jpeg' });
    const m = /^https:\/\/proxy\.example\/v1\/images\/hosted\/([A-Za-z0-9]{40}\.jpg)$/.exec(url ?? '');
    expect(m).not.toBeNull();
    const found = await findHosted(store, m![1]!);
    expect(found?.mediaType).toBe('image/jpeg');
    expect(found?.bytes).toEqual(new Uint8Array([0, 1, 2]));
    expect(await findHosted(store, '../etc/passwd')).toBeUndefined();
    t = 3_600_000;
    expect(await findHosted(store, m![1]!)).toBeUndefined();
  });

  it('hostImage gives no URL when the store kept nothing (the Cache API on workers.dev)', async () => {
    const forgetful: ImageStore = { put: async () => {}, get: async () => undefined };
    expect(await hostImage(forgetful, 'https://p', { b64: 'AAEC', mediaType: 'image/png' })).toBeUndefined();
  });

  it('hostImage refuses base64 that does not decode', async () => {
    await expect(hostImage(memoryImageStore(), 'https://p', { b64: '...TRUNCATED' })).rejects.toMatchObject({ status: 502 });
  });

  it('fetchImageAsBase64 fetches from the upstream host only', async () => {
    const fetched: string[] = [];
    const guarded = async (url: string) => {
      fetched.push(url);
      return { data: new Uint8Array([1, 2, 3]), mediaType: 'image/png' };
    };
    const signal = new AbortController().signal;
    const ok = await fetchImageAsBase64(guarded, 'https://api.example.com/v1', { url: 'https://api.example.com/f/1.png', revisedPrompt: 'r' }, signal);
    expect(ok).toEqual({ b64: 'AQID', mediaType: 'image/png', revisedPrompt: 'r' });
    await expect(fetchImageAsBase64(guarded, 'https://api.example.com/v1', { url: 'https://169.254.169.254/x' }, signal)).rejects.toMatchObject({ status: 502 });
    expect(fetched).toEqual(['https://api.example.com/f/1.png']);
  });
});
