/**
 * Hosting generated images at unguessable URLs on the proxy itself, for callers that asked for
 * `response_format: url` when the upstream answered in base64; and the other way round, fetching
 * an upstream's image URL (from that upstream's own host only) for callers that asked for base64.
 *
 * The store is injected (`AppOptions.imageStore`): an in-memory store with a byte cap and expiry
 * by default (Node), or `cacheApiImageStore(caches.default)` on Workers. Both are runtime-neutral.
 */
import { ProxyError, type GeneratedImage } from '../canonical/index.ts';
import { base64ToBytes, bytesToBase64, imageExtension } from '../kit/index.ts';
import type { GuardedFetch } from './guarded-fetch.ts';
import { randomToken } from '../observe/scope.ts';

/** How long a hosted image stays reachable (OpenAI's own URLs last 60 minutes). */
export const HOSTED_TTL_MS = 60 * 60 * 1000;
export const HOSTED_PREFIX = '/v1/images/hosted/';

export interface StoredImage {
  bytes: Uint8Array;
  mediaType: string;
  /** Unix milliseconds after which the image is gone. */
  expiresAt: number;
}

export interface ImageStore {
  put(id: string, bytes: Uint8Array, mediaType: string, ttlMs: number): Promise<void>;
  /** The image, or `undefined` once it expired or was evicted. */
  get(id: string): Promise<StoredImage | undefined>;
}

export interface MemoryStoreOptions {
  /** Total bytes kept; the oldest images are evicted first to make room. Default 256 MiB. */
  maxBytes?: number;
  /** Clock (Unix ms), injectable for tests. */
  now?: () => number;
}

/** In-memory store: expiry checked on access, oldest evicted first past the byte cap. */
export function memoryImageStore(o: MemoryStoreOptions = {}): ImageStore {
  const maxBytes = o.maxBytes ?? 256 * 1024 * 1024;
  const now = o.now ?? Date.now;
  // Insertion order is age order: the first entries are the oldest.
  const items = new Map<string, StoredImage>();
  let total = 0;
  const drop = (id: string) => {
    const item = items.get(id);
    if (item) total -= item.bytes.byteLength;
    items.delete(id);
  };
  const sweep = () => {
    const t = now();
    for (const [id, item] of items) if (item.expiresAt <= t) drop(id);
  };
  return {
    async put(id, bytes, mediaType, ttlMs) {
      if (bytes.byteLength > maxBytes) {
        throw new ProxyError('upstream', `The generated image (${bytes.byteLength} bytes) is larger than the image host's cap; ask for b64_json.`, { status: 507 });
      }
      sweep();
      for (const oldest of items.keys()) {
        if (total + bytes.byteLength <= maxBytes) break;
        drop(oldest);
      }
      items.set(id, { bytes, mediaType, expiresAt: now() + ttlMs });
      total += bytes.byteLength;
    },
    async get(id) {
      const item = items.get(id);
      if (!item) return undefined;
      if (item.expiresAt <= now()) {
        drop(id);
        return undefined;
      }
      return item;
    },
  };
}

/** The part of the standard `Cache` interface this needs (Workers: `caches.default`). */
export interface CacheLike {
  put(request: Request | string, response: Response): Promise<void>;
  match(request: Request | string): Promise<Response | undefined>;
  delete?(request: Request | string): Promise<boolean>;
}

/** Cache keys live under a host nobody can reach, so hosted images never collide with real URLs. */
const CACHE_ORIGIN = 'https://interlingua-hosted-images.invalid/';
const EXPIRES_HEADER = 'x-interlingua-expires-at';

/**
 * A store on the Cache API. The cache drops the entry after `max-age`; the expiry is also kept in
 * a header and checked on read, so an entry is never served late.
 */
export function cacheApiImageStore(cache: CacheLike, now: () => number = Date.now): ImageStore {
  return {
    async put(id, bytes, mediaType, ttlMs) {
      const expiresAt = now() + ttlMs;
      const headers = {
        'content-type': mediaType,
        'cache-control': `public, max-age=${Math.ceil(ttlMs / 1000)}`,
        [EXPIRES_HEADER]: String(expiresAt),
      };
      await cache.put(CACHE_ORIGIN + id, new Response(bytes as Uint8Array<ArrayBuffer>, { headers }));
    },
    async get(id) {
      const res = await cache.match(CACHE_ORIGIN + id);
      if (!res) return undefined;
      const expiresAt = Number(res.headers.get(EXPIRES_HEADER));
      if (!Number.isFinite(expiresAt) || expiresAt <= now()) {
        await res.body?.cancel();
        await cache.delete?.(CACHE_ORIGIN + id);
        return undefined;
      }
      return { bytes: new Uint8Array(await res.arrayBuffer()), mediaType: res.headers.get('content-type') ?? 'application/octet-stream', expiresAt };
    },
  };
}

/** Hosted names: 40 random base62 characters (≈ 238 bits) and the image's extension. */
const HOSTED_NAME = /^([A-Za-z0-9]{40})\.(png|jpg|webp|gif)$/;

/**
 * Store a base64 image and give its URL — or `undefined` when the store kept nothing (the Cache
 * API on a `workers.dev` hostname accepts a put and stores nothing): the image is read back, so a
 * URL is only handed out when it will answer.
 */
export async function hostImage(store: ImageStore, origin: string, image: GeneratedImage): Promise<string | undefined> {
  const bytes = base64ToBytes(image.b64 ?? '');
  if (!bytes || bytes.byteLength === 0) throw new ProxyError('upstream', 'The upstream returned an image that is not valid base64.', { status: 502 });
  const mediaType = image.mediaType ?? 'image/png';
  const id = randomToken(40);
  await store.put(id, bytes, mediaType, HOSTED_TTL_MS);
  if (!(await store.get(id))) return undefined;
  return `${origin}${HOSTED_PREFIX}${id}.${imageExtension(mediaType)}`;
}

/** A hosted image by its public name (`<40 chars>.<ext>`), or `undefined` when unknown or expired. */
export async function findHosted(store: ImageStore, name: string): Promise<StoredImage | undefined> {
  const m = HOSTED_NAME.exec(name);
  return m ? store.get(m[1]!) : undefined;
}

/**
 * An image URL the upstream returned, as base64: fetched through the guarded fetcher, and only
 * from the upstream's own host (an upstream must not be able to point the proxy anywhere else).
 */
export async function fetchImageAsBase64(
  fetch: GuardedFetch,
  upstreamBaseUrl: string,
  image: GeneratedImage,
  signal: AbortSignal,
): Promise<GeneratedImage> {
  const url = image.url ?? '';
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    throw new ProxyError('upstream', 'The upstream returned an image URL that is not valid.', { status: 502 });
  }
  const allowed = new URL(upstreamBaseUrl).hostname.toLowerCase();
  if (host !== allowed) {
    throw new ProxyError('upstream', `The upstream returned an image URL on another host (${host}); only ${allowed} is fetched. Ask for response_format url instead.`, { status: 502 });
  }
  const got = await fetch(url, { accept: (t) => t.startsWith('image/'), signal });
  const { url: _url, ...rest } = image;
  return { ...rest, b64: bytesToBase64(got.data), mediaType: got.mediaType };
}
