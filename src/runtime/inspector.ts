/**
 * The inspector's routes, served by the Node entry before the app sees a request (never part of
 * the Worker): the page, the exchange list and one exchange, a live SSE feed, a fixture download
 * and a dry-run replay. Loopback callers only unless `allowRemote`; the inbound key when `keys`
 * are configured (as a header, or `?key=` for the page and the event stream).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import ipaddr from 'ipaddr.js';
import type { Proxy } from '../app.ts';
import type { Config } from '../config/load.ts';
import { callerCredential, checkCallerKey } from '../http/auth.ts';
import { queryRecord, type CallerRequest } from '../http/inbound.ts';
import { Recorder, type Exchange, type ExchangeSummary, type PlanEntry } from '../observe/inspector/recorder.ts';
import { resolveModel } from '../upstream/resolve.ts';
import { SECRET_HEADER_NAMES, configSecretValues, redactHeaders, scrubText } from '../upstream/secrets.ts';
import { INSPECTOR_PAGE } from './inspector-page.ts';

export const INSPECTOR_PATH = '/_inspector';

export interface Inspector {
  recorder: Recorder;
  /** Serve a request under `/_inspector`. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The proxy the replays go through (set once it is built). */
  attach(proxy: Proxy): void;
  close(): void;
}

/** A loopback peer: 127.0.0.0/8 or ::1, IPv4-mapped included (decided on the address by ipaddr.js). */
export function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

/** A Host header naming loopback: `localhost`, 127.0.0.0/8 or `[::1]`, with any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d{1,5}$/, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isLoopback(name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name);
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8', extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...extra });
  res.end(body);
}

const json = (res: ServerResponse, status: number, value: unknown, extra?: Record<string, string>) => send(res, status, JSON.stringify(value), undefined, extra);

/** Who the inspector does not answer: a remote caller or a remote name (unless allowed), a wrong key. */
function refusal(req: IncomingMessage, credential: string | undefined, allowRemote: boolean, config: Config): { status: number; error: string } | undefined {
  if (!allowRemote && !isLoopback(req.socket.remoteAddress)) {
    return { status: 403, error: 'The inspector answers loopback callers only (inspector.allowRemote is off).' };
  }
  // A page of another site whose name was made to resolve to 127.0.0.1 (DNS rebinding) would
  // otherwise read the exchanges as same-origin: loopback names only.
  if (!allowRemote && !isLoopbackHost(req.headers.host)) {
    return { status: 403, error: 'The inspector answers requests addressed to a loopback name only (localhost, 127.0.0.1, [::1]).' };
  }
  try {
    checkCallerKey(config.keys, credential);
  } catch (e) {
    return { status: 401, error: `${(e as Error).message} The inspector takes the inbound key as a header or ?key=.` };
  }
  return undefined;
}

/** An exchange's caller request again, as a dry run, with the inspector's own key and none of its secrets; none without a whole body. */
function replayRequest(ex: Exchange, credential: string | undefined): CallerRequest | undefined {
  const body = ex.caller.body;
  if (body === undefined || (body && typeof body === 'object' && (body as { truncated?: boolean }).truncated)) return undefined;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(ex.caller.headers)) {
    if (SECRET_HEADER_NAMES.has(k) || k === 'content-length' || k === 'host' || k === 'connection') continue;
    headers[k] = v;
  }
  headers['x-interlingua-dry-run'] = 'true';
  if (credential) headers.authorization = `Bearer ${credential}`;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const query = { ...ex.caller.query };
  delete query.key;
  return {
    method: ex.caller.method,
    path: ex.caller.path,
    origin: 'http://127.0.0.1',
    headers,
    query,
    bytes: async () => new TextEncoder().encode(text),
    text: async () => text,
    onGone: () => {},
  };
}

export function createInspector(config: Config): Inspector {
  const opts = config.inspector ?? { maxExchanges: 200, allowRemote: false };
  const clients = new Set<ServerResponse>();
  const broadcast = (s: ExchangeSummary) => {
    const frame = `event: exchange\ndata: ${JSON.stringify(s)}\n\n`;
    for (const c of clients) c.write(frame);
  };
  const recorder = new Recorder({
    maxExchanges: opts.maxExchanges,
    onChange: broadcast,
    secrets: configSecretValues(config),
    redact: { headers: (h) => redactHeaders(h), text: scrubText },
    plan: (model) => planOf(config, model),
    upstream: (name) => config.upstreams[name],
  });
  let proxy: Proxy | undefined;
  const heartbeat = setInterval(() => {
    for (const c of clients) c.write(': ping\n\n');
  }, 15_000);
  heartbeat.unref();

  const replay = async (id: string, credential: string | undefined, res: ServerResponse) => {
    const ex = recorder.get(id);
    if (!ex) return json(res, 404, { error: `No exchange '${id}'.` });
    const req = replayRequest(ex, credential);
    if (!req) return json(res, 409, { error: 'This exchange has no complete caller body to replay.' });
    json(res, 200, shownReply(await proxy!.dispatch(req)));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? {} : queryRecord(url);
    const credential = callerCredential(req.headers as Record<string, string>, query);
    const refused = refusal(req, credential, opts.allowRemote, config);
    if (refused) return json(res, refused.status, { error: refused.error });
    const method = req.method ?? 'GET';
    if (method === 'GET' && (path === INSPECTOR_PATH || path === `${INSPECTOR_PATH}/`)) {
      return send(res, 200, INSPECTOR_PAGE, 'text/html; charset=utf-8', {
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src data:",
        'referrer-policy': 'no-referrer',
      });
    }
    if (method === 'GET' && path === `${INSPECTOR_PATH}/api/exchanges`) return json(res, 200, { exchanges: listed(recorder, query) });
    if (method === 'GET' && path === `${INSPECTOR_PATH}/api/events`) return feed(res, clients);
    const m = /^\/_inspector\/api\/exchanges\/([\w-]+)(\/fixture|\/replay)?$/.exec(path);
    if (m && m[2] === '/replay' && method === 'POST') {
      req.resume();
      replay(m[1]!, credential, res).catch(() => json(res, 500, { error: 'Replay failed.' }));
      return;
    }
    if (m && method === 'GET' && exchangeShown(recorder, m[1]!, m[2], res)) return;
    json(res, 404, { error: `No inspector route ${method} ${path}.` });
  };

  return {
    recorder,
    handle,
    attach: (p) => {
      proxy = p;
    },
    close: () => {
      clearInterval(heartbeat);
      for (const c of clients) c.end();
      clients.clear();
    },
  };
}

/** The exchanges the list shows: filtered by status, dialect (the caller's or the upstream's) and model. */
function listed(recorder: Recorder, query: Record<string, string>): ExchangeSummary[] {
  return recorder.list().filter(
    (s) =>
      (!query.status || statusMatches(s.status, query.status)) &&
      (!query.dialect || s.callerDialect === query.dialect || s.upstream?.dialect === query.dialect) &&
      (!query.model || (s.model ?? '').includes(query.model)),
  );
}

/** The live feed of exchanges (`event: exchange`, written by the recorder's broadcast) opened on `res`. */
function feed(res: ServerResponse, clients: Set<ServerResponse>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(': inspector\n\n');
  clients.add(res);
  res.on('close', () => clients.delete(res));
}

/** `GET …/exchanges/:id` (the exchange) or `…/:id/fixture` (it as a fixture file) answered; false: no such route. */
function exchangeShown(recorder: Recorder, id: string, action: string | undefined, res: ServerResponse): boolean {
  if (action !== undefined && action !== '/fixture') return false;
  const ex = recorder.get(id);
  if (!ex) json(res, 404, { error: `No exchange '${id}'.` });
  else if (!action) json(res, 200, ex);
  else send(res, 200, JSON.stringify({ interlinguaFixture: 1, exchange: ex }, null, 2), undefined, { 'content-disposition': `attachment; filename="interlingua-${id}.json"` });
  return true;
}

/** A replay's reply as the inspector shows it: its status, and its body, parsed when it is JSON. */
function shownReply(reply: Awaited<ReturnType<Proxy['dispatch']>>): { status: number; body: unknown } {
  const out = typeof reply.body === 'string' ? reply.body : reply.body instanceof Uint8Array ? new TextDecoder().decode(reply.body) : '';
  try {
    return { status: reply.status, body: JSON.parse(out) };
  } catch {
    // Not JSON: shown as text.
    return { status: reply.status, body: out };
  }
}

/** The route's targets for a model, fallbacks after. */
function planOf(config: Config, model: string): PlanEntry[] {
  try {
    return resolveModel(config, model).targets.map((t) => ({
      upstream: t.upstream.name,
      provider: t.upstream.provider,
      dialect: t.upstream.dialect,
      model: t.model,
      baseUrl: t.upstream.baseUrl,
    }));
  } catch {
    return []; // No route for that model: the exchange's error says why.
  }
}

/** `200`, `4xx`, `5xx`, `error` (≥ 400) or `ok` (< 400). */
function statusMatches(status: number, filter: string): boolean {
  if (filter === 'error') return status >= 400;
  if (filter === 'ok') return status > 0 && status < 400;
  if (/^\dxx$/.test(filter)) return Math.floor(status / 100) === Number(filter[0]);
  return String(status) === filter;
}
