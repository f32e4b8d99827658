/**
 * The one guarded fetcher for URLs that come from callers or upstreams (image URLs to inline,
 * image results to encode): http/https only, no loopback/private/link-local/metadata addresses
 * unless allow-listed, every redirect re-checked, size cap, timeout, content-type check.
 */
import { ProxyError, bytesToBase64, readCapped, type ChatRequest, type FetchLike, type MediaSource, type Message, type Part } from '../canonical/index.ts';

export interface FetchedMedia {
  data: Uint8Array;
  mediaType: string;
}

export type GuardedFetch = (url: string, opts?: { accept?: RegExp; signal?: AbortSignal }) => Promise<FetchedMedia>;

export interface GuardOptions {
  fetch: FetchLike;
  /** Hostnames (or IP literals) allowed even when private/loopback, for local development. */
  allowHosts: string[];
  /** Resolve a hostname to its addresses (Node); absent where the platform forbids private egress. */
  resolveHost?: (host: string) => Promise<string[]>;
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
}

/** True for addresses a proxy must never be made to reach on a caller's behalf. */
export function isForbiddenAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (a === 'localhost' || a.endsWith('.localhost') || a === 'metadata.google.internal') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v4);
  if (m) {
    const [x, y] = [Number(m[1]), Number(m[2])];
    return (
      x === 0 || x === 10 || x === 127 || (x === 169 && y === 254) || (x === 172 && y >= 16 && y <= 31) ||
      (x === 192 && y === 168) || (x === 100 && y >= 64 && y <= 127) || x >= 224
    );
  }
  if (a.includes(':')) {
    return a === '::' || a === '::1' || a.startsWith('fe80:') || a.startsWith('fc') || a.startsWith('fd') || a.startsWith('ff');
  }
  return false;
}

export function createGuardedFetch(o: GuardOptions): GuardedFetch {
  const maxBytes = o.maxBytes ?? 20 * 1024 * 1024;
  const allow = new Set(o.allowHosts.map((h) => h.toLowerCase()));
  const check = async (url: URL) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ProxyError('invalid-request', `Only http and https URLs can be fetched, not ${url.protocol}`);
    }
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (allow.has(host)) return;
    if (isForbiddenAddress(host)) throw new ProxyError('invalid-request', `URL host ${host} is not allowed.`);
    if (o.resolveHost) {
      const addrs = await o.resolveHost(host).catch(() => {
        throw new ProxyError('invalid-request', `URL host ${host} could not be resolved.`);
      });
      if (addrs.some(isForbiddenAddress)) throw new ProxyError('invalid-request', `URL host ${host} resolves to a private address.`);
    }
  };
  return async (href, opts = {}) => {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      throw new ProxyError('invalid-request', 'Invalid media URL.');
    }
    const signal = AbortSignal.any([AbortSignal.timeout(o.timeoutMs ?? 15_000), ...(opts.signal ? [opts.signal] : [])]);
    for (let hop = 0; hop <= (o.maxRedirects ?? 3); hop++) {
      await check(url);
      let res: Response;
      try {
        res = await o.fetch(url.href, { method: 'GET', redirect: 'manual', signal });
      } catch {
        throw new ProxyError('invalid-request', `Could not fetch media from ${url.host}.`);
      }
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        url = new URL(res.headers.get('location')!, url);
        await res.body?.cancel();
        continue;
      }
      if (!res.ok) throw new ProxyError('invalid-request', `Fetching media from ${url.host} failed with HTTP ${res.status}.`);
      const mediaType = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
      if (opts.accept && !opts.accept.test(mediaType)) {
        await res.body?.cancel();
        throw new ProxyError('invalid-request', `Media at ${url.host} has unsupported content type ${mediaType}.`);
      }
      const tooBig = () => new ProxyError('too-large', `Media at ${url.host} exceeds ${maxBytes} bytes.`);
      const data = await readCapped(res.body, res.headers.get('content-length'), maxBytes, tooBig);
      return { data, mediaType };
    }
    throw new ProxyError('invalid-request', 'Too many redirects fetching media.');
  };
}

async function inlineSource(source: MediaSource, fetch: GuardedFetch, signal: AbortSignal): Promise<MediaSource> {
  if (source.type !== 'url' || !/^https?:/i.test(source.url)) return source;
  const got = await fetch(source.url, { signal });
  return { type: 'base64', mediaType: source.mediaType ?? got.mediaType, data: bytesToBase64(got.data) };
}

async function inlinePart(p: Part, fetch: GuardedFetch, signal: AbortSignal): Promise<Part> {
  switch (p.type) {
    case 'image':
    case 'audio':
    case 'file':
      return { ...p, source: await inlineSource(p.source, fetch, signal) };
    case 'tool-result':
      return { ...p, content: await Promise.all(p.content.map((c) => inlinePart(c, fetch, signal))) };
    default:
      return p;
  }
}

/** Replace http(s) media URLs with inline base64 (for upstreams that take no URLs). */
export async function inlineRemoteMedia(req: ChatRequest, fetch: GuardedFetch, scope: { upstreamAbort: AbortController }): Promise<ChatRequest> {
  const hasUrl = (parts: Part[]): boolean =>
    parts.some((p) =>
      p.type === 'tool-result' ? hasUrl(p.content) : (p.type === 'image' || p.type === 'audio' || p.type === 'file') && p.source.type === 'url',
    );
  if (!req.messages.some((m) => hasUrl(m.content))) return req;
  const signal = scope.upstreamAbort.signal;
  const messages: Message[] = await Promise.all(
    req.messages.map(async (m) => (hasUrl(m.content) ? { ...m, content: await Promise.all(m.content.map((p) => inlinePart(p, fetch, signal))) } : m)),
  );
  return { ...req, messages };
}
