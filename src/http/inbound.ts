/**
 * The caller's request as every route sees it, whichever runtime received it (`CallerRequest`),
 * and the inbound plumbing shared by the routes: bodies under a size limit, JSON parsed into a
 * caller error, multipart forms, headers and query as plain records, the public origin.
 */
import { MAX_JSON_DEPTH, flatBytes, nestsDeeperThan, readCapped, type Bytes } from '../kit/index.ts';
import { ProxyError } from '../canonical/index.ts';
import type { CallerInput, ChatCaller } from '../../translators/types.ts';
import type { ChatCall } from '../flows/context.ts';
import type { InboundKey } from '../config/load.ts';
import { parseLatin1Json } from './latin1-json.ts';

/** A caller's request, from whichever runtime received it. */
export interface CallerRequest {
  method: string;
  /** The path, without the query. */
  path: string;
  /** Scheme and authority the request arrived at (`http://127.0.0.1:8787`). */
  origin: string;
  /** Lowercased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  query: Record<string, string>;
  /** The body's bytes, refused past `limit`. */
  bytes(limit: number): Promise<Uint8Array>;
  /** The body's bytes in the pieces they came in (not copied into one), refused past `limit`; else `bytes`. */
  parts?(limit: number): Promise<Bytes>;
  /** The body as text, refused past `limit` bytes. */
  text(limit: number): Promise<string>;
  /** Call `fn` if the caller goes away before its reply is complete. */
  onGone(fn: () => void): void;
  /** Workers: keep the isolate alive for work after the reply (`ctx.waitUntil`), e.g. a trace export. */
  waitUntil?: (p: Promise<unknown>) => void;
  /** A turn on a Responses WebSocket: the request id of the socket's upgrade. */
  socket?: string;
}

/** A Web `Request` (Workers, Hono, tests) as a CallerRequest. */
export function webCallerRequest(req: Request): CallerRequest {
  const url = new URL(req.url);
  const bytes = (limit: number) =>
    readCapped(req.body, req.headers.get('content-length'), limit, () => tooLarge(limit)).catch(async (e: unknown) => {
      // Read the refused body to its end (up to a bound) before answering: a runtime that answers
      // while the caller is still sending resets the connection (workerd does), and the caller
      // sees a network error instead of the 413.
      if (e instanceof ProxyError && e.kind === 'too-large') await discard(req.body, DISCARD_MAX_BYTES);
      throw e;
    });
  return {
    method: req.method,
    path: url.pathname,
    origin: url.origin,
    headers: headerRecord(req.headers),
    query: queryRecord(req.url),
    bytes,
    text: async (limit) => new TextDecoder().decode(await bytes(limit)),
    onGone: (fn) => req.signal?.addEventListener('abort', fn, { once: true }),
  };
}

/** How much of a refused body is read and thrown away so the 413 reaches the caller. */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

async function discard(body: ReadableStream<Uint8Array> | null, max: number): Promise<void> {
  if (!body) return;
  try {
    const reader = body.getReader();
    for (let seen = 0; seen <= max; ) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // Already cancelled or locked (readCapped stopped reading): nothing left to drain.
  }
}

export function tooLarge(limit: number): ProxyError {
  return new ProxyError('too-large', `Request body exceeds the limit of ${limit} bytes.`, { code: 'request_too_large' });
}

export function parseJsonBody(text: string): unknown {
  if (!text.trim()) throw new ProxyError('invalid-request', 'The request body is empty; expected a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ProxyError(
      'invalid-request',
      'We could not parse the JSON body of your request. The body must be valid JSON.',
      { code: 'invalid_json' },
    );
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw new ProxyError('invalid-request', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`, { code: 'invalid_json' });
  }
  return value;
}

/** A multipart/form-data body, read under `limit` and parsed by the platform's own parser. */
export async function readMultipart(req: CallerRequest, limit: number, what: string): Promise<FormData> {
  const type = req.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new ProxyError('invalid-request', `The ${what} route takes multipart/form-data, not '${type || 'no content type'}'.`);
  }
  const bytes = await req.bytes(limit);
  try {
    return await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ProxyError('invalid-request', 'The multipart body could not be parsed.');
  }
}

export function headerRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = k in out ? `${out[k]}, ${v}` : v;
  });
  return out;
}

export function queryRecord(url: string): Record<string, string> {
  const q = url.indexOf('?');
  if (q < 0) return {};
  const out: Record<string, string> = {};
  new URLSearchParams(url.slice(q + 1)).forEach((v, k) => {
    out[k] = v;
  });
  return out;
}

/**
 * The origin callers reached the proxy at: the request's, or what a reverse proxy says in
 * `x-forwarded-proto` / `x-forwarded-host` when it sent them.
 */
export function publicOrigin(req: Pick<CallerRequest, 'origin' | 'headers'>): string {
  const url = new URL(req.origin);
  const proto = req.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase();
  const host = req.headers['x-forwarded-host']?.split(',')[0]?.trim();
  const scheme = proto === 'http' || proto === 'https' ? proto : url.protocol.slice(0, -1);
  const authority = host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? host : url.host;
  return `${scheme}://${authority}`;
}

/** What every route reads of the caller's request once: lowercased headers and the query. */
export interface Inbound {
  headers: Record<string, string>;
  query: Record<string, string>;
  /** The caller's credential, from whichever place its dialect puts it. */
  credential?: string;
  /** The inbound key it matched (set once checked; none when the proxy has no keys). */
  key?: InboundKey;
}

export function callerInput(inbound: Inbound, body: unknown, params: Record<string, string> = {}): CallerInput {
  return { body, headers: inbound.headers, params, query: inbound.query };
}

/**
 * Bytes as text, as each runtime's own request does it: a Node Buffer by its own (faster)
 * decoder, which keeps a byte-order mark; anything else by TextDecoder.
 */
function utf8Text(bytes: Uint8Array): string {
  const buffer = bytes as Uint8Array & { utf8Slice?: (start: number, end: number) => string };
  return typeof buffer.utf8Slice === 'function' ? buffer.utf8Slice(0, bytes.byteLength) : new TextDecoder().decode(bytes);
}

/** A parse of a body's bytes (`flat`) that may reuse earlier work, giving what `whole(flat)` gives (src/flows/forward/turn-memo.ts). */
export type BodyParse = (flat: Uint8Array, whole: (flat: Uint8Array) => unknown) => unknown;

/**
 * A chat route's call from the body's bytes: the body decoded to text, and parsed (a 400 when it
 * is not JSON), only when first read, so a request forwarded to its own dialect is neither
 * (src/flows/forward/). `parse`: how its bytes are parsed, when not as they are.
 */
export function chatCallOf(caller: ChatCaller, inbound: Inbound, bytes: Bytes, params: Record<string, string> = {}, parse?: BodyParse): ChatCall {
  return new InboundChatCall(caller, inbound, bytes, params, parse);
}

/**
 * The call and its input are instances of classes, their getters on the prototypes, not object
 * literals with getters: each evaluation of a literal's `get` makes new closures, so every call
 * got hidden classes of its own, which V8 keeps in the old generation until a full GC, and
 * through their getters' closures they held the call and its body: every request's body outlived
 * the scavenges, counted against the heap limit as external memory, and brought full GCs
 * (docs/performance.md, The 30 KB fixed cost).
 */
class InboundChatCall implements ChatCall {
  input: CallerInput;
  rawBytes?: Bytes;
  callerKey?: string;
  session?: string;
  #text?: string;
  #parsed = false;
  #value: unknown;
  #held?: Bytes;

  constructor(
    public caller: ChatCaller,
    inbound: Inbound,
    bytes: Bytes,
    params: Record<string, string>,
    readonly parse?: BodyParse,
  ) {
    this.input = new ChatInput(this, inbound.headers, params, inbound.query);
    this.rawBytes = bytes;
    this.callerKey = inbound.credential;
    this.#held = bytes;
  }

  get rawBody(): string {
    // Pieces (Node's socket chunks) are decoded from flatBytes' scratch Buffer, by Node's decoder.
    return (this.#text ??= flatBytes(this.#bytesNow(), utf8Text));
  }

  /** The parsed body (ChatInput's `body`). */
  parsedBody(): unknown {
    if (!this.#parsed) {
      // A big body is parsed from one-byte text where it can be (latin1-json.ts), else from its
      // UTF-8 text, in one pass over the pieces. Text decoded for the parse is not kept: only
      // what asks for the text (rawBody) keeps it.
      const text = this.#text;
      const whole = (flat: Uint8Array) => parseLatin1Json(flat) ?? parseJsonBody(utf8Text(flat));
      const parse = this.parse;
      this.#value = text !== undefined ? parseJsonBody(text) : flatBytes(this.#bytesNow(), (flat) => (parse ? parse(flat, whole) : whole(flat)));
      this.#parsed = true;
    }
    return this.#value;
  }

  release(all?: boolean): void {
    this.#value = undefined;
    this.#parsed = false;
    this.#text = undefined;
    if (all) this.#held = this.rawBytes = undefined;
  }

  #bytesNow(): Bytes {
    // A read after `release(true)` is a bug of ours: said as one (a 500), never a wrong body.
    if (!this.#held) throw new Error('The request body was read after it was released.');
    return this.#held;
  }
}

/** A chat call's input: its body parsed when first read (InboundChatCall.parsedBody). */
class ChatInput implements CallerInput {
  #call: InboundChatCall;

  constructor(
    call: InboundChatCall,
    public headers: Record<string, string>,
    public params: Record<string, string>,
    public query: Record<string, string>,
  ) {
    this.#call = call;
  }

  get body(): unknown {
    return this.#call.parsedBody();
  }
}
