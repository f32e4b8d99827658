/**
 * HTTP helpers every layer shares, whichever runtime makes the call: the upstream client's shape
 * (`FetchLike`), a cheap abort source (`Cancel`), reading a body under a size cap with nothing but
 * Web standard APIs, and a caller-chosen name as exactly one URL path segment (`modelSegment`).
 */
/**
 * An abort source as cheap as a flag: what a runtime's own client needs of the request's abort
 * (an AbortController and its listeners cost several µs per request on Node 20).
 */
export interface Cancel {
  readonly aborted: boolean;
  readonly reason: unknown;
  /** Call `fn` on abort; returns the unsubscribe. */
  onAbort(fn: () => void): () => void;
}

/** Upstream HTTP client. `connectTimeoutMs` is honoured where the runtime controls sockets. */
export type FetchLike = ((
  input: string,
  init: RequestInit & {
    connectTimeoutMs?: number;
    firstByteTimeoutMs?: number;
    /** Given instead of `signal` to a client that `handlesTimeouts`. */
    cancel?: Cancel;
    /**
     * Connect to this address (checked by the guarded fetcher) instead of resolving the URL's
     * host again; TLS and the Host header still use the host. Honoured where the runtime controls
     * sockets (Node).
     */
    pinnedAddress?: string;
  },
) => Promise<Response>) & {
  /**
   * The client enforces `firstByteTimeoutMs` itself (rejecting with a ProxyError 'timeout'),
   * so the flow need not build an AbortController and a timer per attempt.
   */
  handlesTimeouts?: boolean;
  /** The client sends a `ByteParts` body as it is (any other client is given the parts joined). */
  takesByteParts?: boolean;
};

/**
 * A request body in pieces that go out one after the other: a forwarded body with its model
 * renamed is the caller's bytes before the model, the new model, and the caller's bytes after it,
 * sent without copying the caller's bytes into a new buffer (src/flows/forward/).
 */
export class ByteParts {
  readonly byteLength: number;

  constructor(readonly parts: readonly Uint8Array[]) {
    let n = 0;
    for (const p of parts) n += p.byteLength;
    this.byteLength = n;
  }

  /** The pieces as one array (for a client that takes bodies whole). */
  join(): Uint8Array {
    const out = new Uint8Array(this.byteLength);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}

/** A body's bytes, whole or in the pieces they came in. */
export type Bytes = Uint8Array | ByteParts;

/**
 * The scratch buffer `flatBytes` copies pieces into, reused from one call to the next. A fresh
 * buffer of a body's size per request is what costs (`npm run bench:agent`, docs/performance.md): above a few
 * hundred KB the allocator maps fresh pages for it, which the kernel zeroes, and the buffer is
 * freed only when V8 collects it (2 MB cost 1.6–2.3 ms allocated fresh, 0.05–0.1 ms copied into
 * a buffer used before). Bodies past SCRATCH_MAX_BYTES get a buffer of their own, so the process
 * keeps at most that much for it, however large a body it has seen.
 */
let scratch: Uint8Array | undefined;
let scratchBusy = false;
export const SCRATCH_MAX_BYTES = 8 * 1024 * 1024;

/**
 * A Node Buffer where there is one: the scans search it natively (memchr, memmem), as they do a
 * body that came in one piece; a plain Uint8Array elsewhere.
 */
function newScratch(n: number): Uint8Array {
  const B = (globalThis as { Buffer?: { allocUnsafeSlow(n: number): Uint8Array } }).Buffer;
  return B ? B.allocUnsafeSlow(n) : new Uint8Array(n);
}

/**
 * Where an ASCII `needle` next occurs in `b` from `from` (-1: nowhere). A Node Buffer searches
 * natively (memmem); other byte arrays by their first byte, then the rest.
 */
export function asciiFinder(b: Uint8Array): (needle: string, from: number) => number {
  const native = b as Uint8Array & { readUInt8?: unknown; indexOf(value: string | number, from?: number): number };
  if (typeof native.readUInt8 === 'function') return (needle, from) => native.indexOf(needle, from);
  return (needle, from) => {
    const first = needle.charCodeAt(0);
    for (let k = b.indexOf(first, from); k >= 0; k = b.indexOf(first, k + 1)) {
      let j = 1;
      while (j < needle.length && b[k + j] === needle.charCodeAt(j)) j++;
      if (j === needle.length) return k;
    }
    return -1;
  };
}

/** Compare `this[sourceStart..sourceEnd)` with `target[targetStart..targetEnd)`: <0, 0 or >0, as Buffer#compare. */
export type NativeCompare = (this: Uint8Array, target: Uint8Array, targetStart: number, targetEnd: number, sourceStart: number, sourceEnd: number) => number;

/** Node's Buffer compares ranges of any byte array natively (memcmp); undefined elsewhere (Workers). */
export const nativeCompare = (): NativeCompare | undefined => (globalThis as { Buffer?: { prototype: { compare?: NativeCompare } } }).Buffer?.prototype.compare;

/**
 * `NativeCompare` in JavaScript, where there is no Buffer (Workers): four bytes at a time where
 * both ranges are aligned alike, else byte by byte. Slower than memcmp, still far less than a parse.
 */
export const jsCompare: NativeCompare = function (this: Uint8Array, target, targetStart, targetEnd, sourceStart, sourceEnd) {
  const n = Math.min(targetEnd - targetStart, sourceEnd - sourceStart);
  let k = 0;
  const a = this.byteOffset + sourceStart;
  const b = target.byteOffset + targetStart;
  if (n >= 64 && (a & 3) === (b & 3)) {
    for (; k < n && ((a + k) & 3) !== 0; k++) if (this[sourceStart + k] !== target[targetStart + k]) return this[sourceStart + k]! - target[targetStart + k]!;
    const words = (n - k) >> 2;
    const x = new Uint32Array(this.buffer, a + k, words);
    const y = new Uint32Array(target.buffer, b + k, words);
    let w = 0;
    while (w < words && x[w] === y[w]) w++;
    k += w << 2;
  }
  for (; k < n; k++) {
    const d = this[sourceStart + k]! - target[targetStart + k]!;
    if (d !== 0) return d;
  }
  return sourceEnd - sourceStart - (targetEnd - targetStart);
};

/**
 * `use(flat)` with the body as one contiguous array: the body itself when it is one piece, else
 * its pieces copied into a scratch buffer that the next call reuses. So `flat` (and any view of
 * it) is valid only until `use` returns: `use` must be synchronous and keep nothing of it but
 * copies (decoded text, offsets, copied bytes).
 */
export function flatBytes<T>(body: Bytes, use: (flat: Uint8Array) => T): T {
  if (!(body instanceof ByteParts)) return use(body);
  if (body.parts.length === 1) return use(body.parts[0]!);
  const n = body.byteLength;
  if (scratchBusy || n > SCRATCH_MAX_BYTES) return use(body.join());
  if (!scratch || scratch.byteLength < n) scratch = newScratch(Math.max(n, Math.min(SCRATCH_MAX_BYTES, (scratch?.byteLength ?? 0) * 2)));
  let at = 0;
  for (const p of body.parts) {
    scratch.set(p, at);
    at += p.byteLength;
  }
  scratchBusy = true;
  try {
    return use(scratch.subarray(0, n));
  } finally {
    scratchBusy = false;
  }
}

/**
 * `body` with the bytes from `start` to `end` replaced by `token`, as pieces: views of the body's
 * own pieces around the token, nothing copied.
 */
export function splicedParts(body: Bytes, start: number, end: number, token: Uint8Array): ByteParts {
  const pieces = body instanceof ByteParts ? body.parts : [body];
  const out: Uint8Array[] = [];
  let base = 0;
  let placed = false;
  for (const p of pieces) {
    const from = base;
    const to = base + p.byteLength;
    base = to;
    if (to <= start || from >= end) {
      if (from >= end && !placed) {
        out.push(token);
        placed = true;
      }
      if (p.byteLength > 0) out.push(p);
      continue;
    }
    // This piece holds part of the replaced range: keep what lies outside it.
    if (from < start) out.push(p.subarray(0, start - from));
    if (!placed) {
      out.push(token);
      placed = true;
    }
    if (to > end) out.push(p.subarray(end - from));
  }
  if (!placed) out.push(token);
  return new ByteParts(out);
}

/**
 * All bytes of a body, refused with `tooBig()` past `limit` — checked against a declared
 * content-length first, then while reading (a body need not declare its size).
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  limit: number,
  tooBig: () => Error,
): Promise<Uint8Array> {
  if (Number(declaredLength ?? 0) > limit) throw tooBig();
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooBig();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Unpaired UTF-16 surrogates (which `encodeURIComponent` refuses) → U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A caller-chosen name (a model, a deployment) as exactly ONE path segment of an upstream URL.
 *
 * Rule: every character outside `A-Z a-z 0-9 - _ . ! ~ * ' ( )` is percent-encoded as UTF-8
 * (`encodeURIComponent`), so `/`, `\`, `?`, `#`, `%`, `:`, spaces and control characters can
 * neither end the segment, nor start a query or fragment, nor be decoded twice. The names `.`
 * and `..` (and the empty name) are refused: URL parsers collapse a `.`/`..` segment even when
 * it is written `%2e`, so no encoding keeps them one segment. A lone surrogate becomes U+FFFD.
 *
 * Throws `unsendable(name)` for a name that cannot be a segment (the caller's error: canonical's
 * `unsendableModel`).
 */
export function modelSegment(name: string, unsendable: (name: string) => Error): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(name);
  } catch {
    encoded = encodeURIComponent(name.replace(LONE_SURROGATE, '\uFFFD'));
  }
  if (encoded === '' || encoded === '.' || encoded === '..') {
    throw unsendable(name);
  }
  return encoded;
}
