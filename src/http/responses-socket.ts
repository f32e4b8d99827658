/**
 * The Responses API over WebSocket (`GET /v1/responses` with an Upgrade), runtime-neutral: the
 * runtime speaks the frames (Node: runtime/node-websocket.ts; Workers: `WebSocketPair`) and hands
 * each text message here. Every `{"type":"response.create", …}` message is one turn, served as a
 * `POST /v1/responses` with `stream: true` through the same route table (routing, translation to
 * any upstream, the loss report, the log line, the trace, the key's limits); the answer's SSE events
 * go back as one JSON text message each, in order. Turns run one at a time, in the order sent.
 *
 * What the socket adds to a POST:
 * - `previous_response_id` naming the socket's most recent answer is resolved from the socket
 *   itself (its input and output go before the new input), whatever `store` says and whatever the
 *   upstream: the connection-local state OpenAI keeps. Any other id is left to the state store or a
 *   Responses upstream, as over HTTP.
 * - `generate: false` (Codex's warm-up) calls no model: it is answered `response.created` +
 *   `response.completed` with no output, and its input is kept for the next turn.
 * - A turn's failure before its stream starts is an `error` event carrying the HTTP status (as the
 *   service sends it); the socket stays open. The caller's close cancels the upstream call.
 * - The socket closes after `maxAgeMs` (OpenAI: 60 minutes) with `websocket_connection_limit_reached`,
 *   once the turn in flight has ended.
 * https://developers.openai.com/api/docs/guides/websocket-mode
 */
import type { Reply } from '../flows/reply.ts';
import { PipeBody } from '../sse/byte-step.ts';
import { createSseChunkParser } from '../sse/parse.ts';
import { tooLarge, type CallerRequest } from './inbound.ts';
import { errorEventOf, safeJson, socketError } from './responses-socket-events.ts';
import { isJsonObject as isRecord } from '../kit/index.ts';

/** The caller's end of the socket, as the runtime drives it. */
export interface SocketPeer {
  /** Send one text message. */
  send(text: string): void;
  /** Close the socket with a code and reason (RFC 6455 §7.4). */
  close(code: number, reason: string): void;
  /** When what was sent waits on a slow caller: settles once it has drained (the upstream is read no further until then). */
  drained?(): Promise<void> | undefined;
}

/** What the runtime tells the session. */
export interface SocketSession {
  /** One whole text message from the caller. */
  message(text: string): void;
  /** The socket is gone (closed by either side, or broken). */
  closed(): void;
}

export interface SocketOptions {
  /** Serve one turn (the app's route table). */
  dispatch(req: CallerRequest): Promise<Reply>;
  /** Serve a warm-up (`generate: false`): the events to send, or an error reply. */
  warmup(req: CallerRequest): Promise<Reply>;
  /** The upgrade request: its headers (credentials, session ids) go with every turn. */
  upgrade: CallerRequest;
  /** The upgrade's request id: on every turn's log line (`socket`). */
  socketId: string;
  maxMessageBytes: number;
  maxSseBufferBytes: number;
  maxAgeMs: number;
}

/** Messages waiting behind the turn in flight, at most (more: an error event each). */
const MAX_QUEUED = 16;

/** Headers of the upgrade that describe the socket, not a turn. */
const SOCKET_HEADERS = /^(?:upgrade|connection|sec-websocket-.*|content-length|content-type|transfer-encoding|x-request-id)$/;

type Wire = Record<string, unknown>;

/** The socket's most recent answer: the whole input it answered and its output. */
interface Kept {
  id: string;
  items: unknown[];
}

const inputItems = (input: unknown): unknown[] =>
  typeof input === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }] : Array.isArray(input) ? input : [];

/** A turn as the POST it stands for: the socket's headers (less its own) and the message as the body. */
function turnRequest(body: Wire, o: SocketOptions, headers: Record<string, string>, onGone: (fn: () => void) => void): CallerRequest {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const read = async (limit: number) => {
    if (bytes.byteLength > limit) throw tooLarge(limit);
    return bytes;
  };
  return {
    method: 'POST',
    path: '/v1/responses',
    origin: o.upgrade.origin,
    headers: { ...headers, 'content-length': String(bytes.byteLength) },
    query: {},
    bytes: read,
    text: async (limit) => new TextDecoder().decode(await read(limit)),
    onGone,
    waitUntil: o.upgrade.waitUntil,
    socket: o.socketId,
  };
}

/** What relaying a turn's reply needs of its socket. */
interface Relay {
  send(text: string): void;
  isOpen(): boolean;
  /** Register what to call when the caller goes away. */
  onGone(fn: () => void): void;
  drained?: () => Promise<void> | undefined;
  maxSseBufferBytes: number;
}

/** Send a reply's events, one message each; the answer's response object when it completed. */
async function relay(reply: Reply, r: Relay): Promise<Wire | undefined> {
  const { body } = reply;
  const parser = createSseChunkParser(r.maxSseBufferBytes);
  let done: Wire | undefined;
  const each = (events: Array<{ event?: string; data: string }>) => {
    for (const e of events) {
      if (e.data === '[DONE]') continue;
      r.send(e.data);
      const type = e.event ?? (e.data.includes('"response.') ? (safeJson(e.data) as Wire | undefined)?.['type'] : undefined);
      if (type === 'response.completed' || type === 'response.incomplete') {
        const response = (safeJson(e.data) as Wire | undefined)?.['response'];
        if (isRecord(response)) done = response;
      }
    }
  };
  if (!(body instanceof PipeBody)) {
    const text = typeof body === 'string' ? body : body ? new TextDecoder().decode(body) : '';
    if (reply.status >= 400 || reply.status < 200) {
      r.send(errorEventOf(reply.status, text, reply.headers));
      return undefined;
    }
    // A whole stream made at once (a compaction the proxy made, src/flows/compaction.ts).
    if (reply.headers['content-type']?.startsWith('text/event-stream')) {
      each(parser.push(new TextEncoder().encode(text)));
      each(parser.finish());
      return done;
    }
    // An answer as JSON (never asked for: every turn streams): sent as its terminal event.
    const response = safeJson(text);
    r.send(JSON.stringify({ type: 'response.completed', response, sequence_number: 0 }));
    return isRecord(response) ? response : undefined;
  }
  const reader = body.toStream().getReader();
  if (!r.isOpen()) {
    await reader.cancel().catch(() => {});
    return undefined;
  }
  r.onGone(() => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      each(parser.push(value));
      const waiting = r.isOpen() ? r.drained?.() : undefined;
      if (waiting) await waiting;
    }
    each(parser.finish());
  } catch {
    // The caller went away (the read was cancelled) or the pipe failed after its error event.
  }
  return done;
}

/** The headers every turn is sent with: the upgrade's, but for the socket's own. */
function turnHeadersOf(upgrade: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(upgrade)) if (!SOCKET_HEADERS.test(k)) headers[k] = v;
  headers['content-type'] = 'application/json';
  // Codex's `openai-beta: responses_websockets=…` asks for the socket, not for a turn's upstream call over HTTP.
  const beta = headers['openai-beta']?.split(',').map((s) => s.trim()).filter((s) => s && !s.startsWith('responses_websockets'));
  if (beta?.length) headers['openai-beta'] = beta.join(', ');
  else delete headers['openai-beta'];
  return headers;
}

/**
 * A message as a turn: the `response.create` body to stream, with the socket's own last answer
 * (`kept`) in place of a reference to it, and its input when it is known whole here (only such a
 * turn is kept in its turn); or the error event to send instead (none: nothing to answer).
 */
function turnOf(text: string, kept: Kept | undefined): { body: Wire; generate: unknown; whole?: unknown[] } | { error?: string } {
  const frame = safeJson(text);
  if (!isRecord(frame)) return { error: socketError(400, { code: 'invalid_json', message: 'The message is not a JSON object.' }) };
  if (frame['type'] === 'response.processed') return {}; // Codex's acknowledgement: nothing to answer.
  if (frame['type'] !== 'response.create') {
    return { error: socketError(400, { code: 'unknown_event_type', param: 'type', message: `Invalid 'type': expected 'response.create', got ${String(JSON.stringify(frame['type'])).slice(0, 64)}.` }) };
  }
  if (frame['background'] === true) return { error: socketError(400, { code: 'unsupported_parameter', param: 'background', message: "'background' is not supported over a WebSocket." }) };
  const { type: _type, generate, ...body } = frame;
  body['stream'] = true;
  // The socket's own last answer: resolved here, for any upstream, stored or not.
  const prev = body['previous_response_id'];
  if (typeof prev === 'string' && kept && prev === kept.id) {
    delete body['previous_response_id'];
    body['input'] = [...kept.items, ...inputItems(body['input'])];
  }
  // Only a turn whose whole input is known here is kept (one resolved elsewhere stays there).
  const whole = typeof body['previous_response_id'] !== 'string' ? inputItems(body['input']) : undefined;
  return { body, generate, whole };
}

export function openResponsesSocket(o: SocketOptions, peer: SocketPeer): SocketSession {
  const encoder = new TextEncoder();
  const turnHeaders = turnHeadersOf(o.upgrade.headers);

  let open = true;
  let kept: Kept | undefined;
  let queued = 0;
  let tail: Promise<void> = Promise.resolve();
  let expired = false;
  let busy = false;
  /** The turn in flight: what to call when the caller goes away. */
  let gone: Array<() => void> = [];

  const send = (text: string) => {
    if (open) peer.send(text);
  };
  const close = (code: number, reason: string) => {
    if (!open) return;
    open = false;
    clearTimeout(timer);
    peer.close(code, reason);
  };
  const expire = () => {
    send(socketError(400, { code: 'websocket_connection_limit_reached', message: `Responses websocket connection limit reached (${Math.round(o.maxAgeMs / 60_000)} minutes). Create a new websocket connection to continue.` }));
    close(1000, 'websocket_connection_limit_reached');
  };
  const timer = setTimeout(() => {
    expired = true;
    if (!busy) expire();
  }, o.maxAgeMs);
  (timer as { unref?: () => void }).unref?.();

  const turn = async (text: string): Promise<void> => {
    const asked = turnOf(text, kept);
    if (!('body' in asked)) return asked.error === undefined ? undefined : send(asked.error);
    const { body, generate, whole } = asked;
    gone = [];
    const req = turnRequest(body, o, turnHeaders, (fn) => (open ? void gone.push(fn) : fn()));
    if (generate === false) {
      const reply = await o.warmup(req);
      const events = reply.status === 200 && typeof reply.body === 'string' ? (safeJson(reply.body) as unknown[]) : undefined;
      if (!Array.isArray(events)) return send(errorEventOf(reply.status, typeof reply.body === 'string' ? reply.body : '', reply.headers));
      for (const e of events) send(JSON.stringify(e));
      const id = ((events.at(-1) as Wire | undefined)?.['response'] as Wire | undefined)?.['id'];
      if (typeof id === 'string' && whole) kept = { id, items: whole };
      return;
    }
    const done = await relay(await o.dispatch(req), { send, isOpen: () => open, onGone: (fn) => gone.push(fn), drained: peer.drained && (() => peer.drained!()), maxSseBufferBytes: o.maxSseBufferBytes });
    if (done && typeof done['id'] === 'string') kept = whole ? { id: done['id'], items: [...whole, ...(Array.isArray(done['output']) ? done['output'] : [])] } : undefined;
  };

  return {
    message(text) {
      if (!open) return;
      // (A UTF-16 unit is at most 3 bytes of UTF-8: most messages need no encoding to be measured.)
      if (text.length * 3 > o.maxMessageBytes && encoder.encode(text).byteLength > o.maxMessageBytes) return close(1009, `message exceeds ${o.maxMessageBytes} bytes`);
      if (queued >= MAX_QUEUED) return send(socketError(429, { type: 'rate_limit_error', code: 'too_many_queued', message: `More than ${MAX_QUEUED} messages are waiting on this socket.` }));
      queued++;
      tail = tail.then(async () => {
        queued--;
        if (!open) return;
        busy = true;
        try {
          await turn(text);
        } catch {
          send(socketError(500, { type: 'server_error', code: null, message: 'Internal proxy error.' }));
        } finally {
          busy = false;
          gone = [];
        }
        if (expired) expire();
      });
    },
    closed() {
      if (!open && gone.length === 0) return;
      open = false;
      clearTimeout(timer);
      const fns = gone;
      gone = [];
      for (const fn of fns) fn();
    },
  };
}
