/**
 * The one guarded fetcher for URLs that come from callers or upstreams (media URLs to inline,
 * image results to encode): http/https only; no address a proxy must never be made to reach
 * (decided on the address, whatever its spelling: ipaddr.js parses it and names its range, and an
 * IPv4 address embedded in an IPv6 one is judged as itself); every redirect hop re-checked; on
 * Node the connection pinned to the address that was checked; one deadline for the whole fetch;
 * a size cap; the content type checked against what the caller's part claims.
 */
import ipaddr from 'ipaddr.js';
import { ProxyError, type ChatRequest, type MediaSource, type Message, type Part } from '../canonical/index.ts';
import { bytesToBase64, readCapped, type FetchLike } from '../kit/index.ts';

export interface FetchedMedia {
  data: Uint8Array;
  mediaType: string;
}

export interface GuardedFetchOptions {
  /** The content types acceptable here (checked against the response's, or its sniffed bytes). */
  accept?: (mediaType: string) => boolean;
  signal?: AbortSignal;
  /** A lower size cap than the fetcher's own, for this fetch (a page read for a model). */
  maxBytes?: number;
}

export type GuardedFetch = (url: string, opts?: GuardedFetchOptions) => Promise<FetchedMedia>;

export interface GuardOptions {
  fetch: FetchLike;
  /** Hostnames (or IP literals) allowed even when private/loopback, for local development. */
  allowHosts: string[];
  /**
   * Resolve a hostname to its addresses (Node). The fetch then connects to the checked address
   * (`pinnedAddress`), so a second DNS answer cannot send it elsewhere. Absent on Workers, whose
   * fetch cannot reach private networks.
   */
  resolveHost?: (host: string) => Promise<string[]>;
  maxBytes?: number;
  /** One deadline for the whole fetch: connect, redirects and body. */
  timeoutMs?: number;
  maxRedirects?: number;
}

/** Ranges ipaddr.js names in which an IPv6 address carries an IPv4 one. */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const b = a.toByteArray();
  const v4 = (at: number) => new ipaddr.IPv4(b.slice(at, at + 4));
  switch (a.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
      return a.toIPv4Address();
    case 'rfc6052': // NAT64 64:ff9b::/96
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return v4(12);
    case '6to4': // 2002:AABB:CCDD::/48
      return v4(2);
    case 'teredo': // 2001:0::/32, client address obfuscated in the last 32 bits
      return new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff));
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); `::1` and `::` too.
      return b.slice(0, 12).every((x) => x === 0) ? v4(12) : undefined;
  }
}

/**
 * True for addresses a proxy must never be made to reach on a caller's behalf: anything but
 * global unicast — loopback, private, link-local (cloud metadata), CGNAT, unique-local, multicast,
 * unspecified, reserved, documentation — and names that mean this machine or the metadata service.
 */
export function isForbiddenAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (a === 'localhost' || a.endsWith('.localhost') || a === 'metadata.google.internal' || a === 'metadata') return true;
  if (!ipaddr.isValid(a)) return false; // a hostname: judged by what it resolves to
  const parsed = ipaddr.parse(a);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const inner = embeddedIPv4(v6);
  if (inner) return inner.range() !== 'unicast';
  // Global unicast is 2000::/3; ipaddr.js calls the rest of ::/0 unicast too, which it is not.
  return v6.range() !== 'unicast' || (v6.parts[0]! & 0xe000) !== 0x2000;
}

const IMAGE_MAGIC: Array<[number[], string]> = [
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
  [[0x47, 0x49, 0x46, 0x38], 'image/gif'],
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
];

/** The media type the bytes announce (PNG, JPEG, GIF, WEBP, PDF), for bodies served as octet-stream. */
function sniff(b: Uint8Array): string | undefined {
  for (const [magic, type] of IMAGE_MAGIC) if (magic.every((x, i) => b[i] === x)) return type;
  if (b.length >= 12 && String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * A hop's URL checked: http or https, to an allowed host or a public address (a name resolved
 * first, where the runtime resolves: every address it gives must be public). Returns the address
 * to connect to (Node), when one was resolved.
 */
async function checkedHop(url: URL, allow: ReadonlySet<string>, resolveHost: GuardOptions['resolveHost']): Promise<string | undefined> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxyError('invalid-request', `Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (allow.has(host)) return undefined;
  if (isForbiddenAddress(host)) throw new ProxyError('invalid-request', `URL host ${host} is not allowed.`);
  if (!resolveHost || ipaddr.isValid(host)) return undefined;
  let addrs: string[];
  try {
    addrs = await resolveHost(host);
  } catch {
    throw new ProxyError('invalid-request', `URL host ${host} could not be resolved.`);
  }
  if (addrs.length === 0) throw new ProxyError('invalid-request', `URL host ${host} could not be resolved.`);
  if (addrs.some(isForbiddenAddress)) throw new ProxyError('invalid-request', `URL host ${host} resolves to a private address.`);
  return addrs[0];
}

export function createGuardedFetch(o: GuardOptions): GuardedFetch {
  const maxBytes = o.maxBytes ?? 20 * 1024 * 1024;
  const timeoutMs = o.timeoutMs ?? 15_000;
  const allow = new Set(o.allowHosts.map((h) => h.toLowerCase()));

  return async (href, opts = {}) => {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      throw new ProxyError('invalid-request', 'Invalid media URL.');
    }
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
    /** Whatever failed, as a caller-facing error: a 400 (the caller's URL), the deadline with its own code. */
    const failure = (e: unknown, what: string): ProxyError => {
      if (e instanceof ProxyError) return e;
      // The caller's URL could not be fetched in time: the caller's 400, as the vendors answer an
      // image URL they cannot download (never a 504, which would say the upstream was slow).
      if (deadline.aborted) return new ProxyError('invalid-request', `Fetching media from ${url.host} took longer than ${timeoutMs} ms.`, { code: 'media_fetch_timeout' });
      if (opts.signal?.aborted && opts.signal.reason instanceof ProxyError) return opts.signal.reason;
      return new ProxyError('invalid-request', `Could not ${what} media from ${url.host}.`);
    };
    const maxRedirects = o.maxRedirects ?? 3;
    for (let hop = 0; hop <= maxRedirects; hop++) {
      let res: Response;
      try {
        const pinnedAddress = await checkedHop(url, allow, o.resolveHost);
        res = await o.fetch(url.href, { method: 'GET', redirect: 'manual', signal, ...(pinnedAddress ? { pinnedAddress } : {}) });
      } catch (e) {
        throw failure(e, 'fetch');
      }
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (location) {
        await res.body?.cancel().catch(() => {});
        try {
          url = new URL(location, url);
        } catch {
          throw new ProxyError('invalid-request', `Media at ${url.host} redirects to an invalid URL.`);
        }
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new ProxyError('invalid-request', `Fetching media from ${url.host} failed with HTTP ${res.status}.`);
      }
      const declared = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
      // Refused before reading when the declared type is wrong; octet-stream is judged by its bytes.
      if (opts.accept && declared !== 'application/octet-stream' && !opts.accept(declared)) {
        await res.body?.cancel().catch(() => {});
        throw new ProxyError('invalid-request', `Media at ${url.host} is ${declared}, which is not acceptable here.`);
      }
      const cap = Math.min(maxBytes, opts.maxBytes ?? maxBytes);
      const tooBig = () => new ProxyError('too-large', `Media at ${url.host} exceeds ${cap} bytes.`);
      let data: Uint8Array;
      try {
        data = await readCapped(res.body, res.headers.get('content-length'), cap, tooBig);
      } catch (e) {
        throw failure(e, 'read');
      }
      const mediaType = declared === 'application/octet-stream' ? (sniff(data) ?? declared) : declared;
      if (opts.accept && !opts.accept(mediaType)) {
        throw new ProxyError('invalid-request', `Media at ${url.host} is ${mediaType}, which is not acceptable here.`);
      }
      return { data, mediaType };
    }
    throw new ProxyError('invalid-request', `Too many redirects fetching media (more than ${maxRedirects}).`);
  };
}

/** What a part may be fetched as: its own kind, and the exact type it claims when it claims one. */
function acceptFor(p: { type: 'image' | 'audio' | 'file'; source: MediaSource }): (mediaType: string) => boolean {
  const claimed = p.source.mediaType?.split(';')[0]!.trim().toLowerCase();
  if (claimed && claimed !== 'application/octet-stream') return (t) => t === claimed;
  switch (p.type) {
    case 'image':
      return (t) => t.startsWith('image/');
    case 'audio':
      return (t) => t.startsWith('audio/');
    case 'file':
      return (t) => t !== 'text/html' && !t.startsWith('image/svg');
  }
}

async function inlinePart(p: Part, fetch: GuardedFetch, signal: AbortSignal): Promise<Part> {
  switch (p.type) {
    case 'image':
    case 'audio':
    case 'file': {
      const { source } = p;
      if (source.type !== 'url' || !/^https?:/i.test(source.url)) return p;
      const got = await fetch(source.url, { accept: acceptFor(p), signal });
      return { ...p, source: { type: 'base64', mediaType: got.mediaType, data: bytesToBase64(got.data) } };
    }
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
