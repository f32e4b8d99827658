/**
 * The Hono app: inbound routes → dialect ids → the generic flows. No runtime code here: the
 * runtime entry hands over config, the upstream client and (on Node) a faster body reader.
 */
import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { ProxyError } from './canonical/index.ts';
import { registry, type Registry } from '../translators/index.ts';
import type { ChatCaller, EncodedError, ModelInfo } from '../translators/types.ts';
import type { Config } from './config/load.ts';
import { callerCredential, checkCallerKey } from './routing/auth.ts';
import { DryRun, formatDump, headerFlag } from './routing/debug.ts';
import { Metrics } from './routing/metrics.ts';
import { chatFlow, type FlowDeps } from './routing/chat-flow.ts';
import { countTokensFlow } from './routing/count-tokens.ts';
import { imageFlow } from './routing/image-flow.ts';
import { HOSTED_PREFIX, memoryImageStore, serveHosted, type ImageStore } from './routing/image-host.ts';

/** Image stores for `AppOptions.imageStore`, for runtime entries (Workers: `cacheApiImageStore(caches.default)`). */
export { cacheApiImageStore, memoryImageStore, type CacheLike, type ImageStore } from './routing/image-host.ts';
import { callerInput, headerRecord, parseJsonBody, queryRecord, readBodyViaRequest, type BodyReader, type Inbound } from './routing/inbound.ts';
import { createGuardedFetch, type GuardedFetch } from './routing/media.ts';
import { createModelLister } from './routing/models.ts';
import { listedModels, routedModel } from './routing/resolve.ts';
import { errorResponse, jsonResponse, toProxyError } from './routing/respond.ts';
import { RequestScope, randomToken, type FetchLike, type LogEntry } from './routing/scope.ts';

export interface AppOptions {
  config: Config;
  /** Upstream HTTP client (Node: pooled keep-alive; Workers: native fetch). */
  fetch: FetchLike;
  readBody?: BodyReader;
  /** One line per finished request; never holds a key or a body. */
  log?: (entry: LogEntry) => void;
  /** Resolve hostnames for the guarded media fetcher (Node). */
  resolveHost?: (host: string) => Promise<string[]>;
  guardedFetch?: GuardedFetch;
  now?: () => number;
  registry?: Registry;
  /**
   * Call `fn` if the caller disconnects before its response is complete. Default: the Web
   * request's abort signal; the Node entry watches the socket instead (no AbortController).
   */
  onCallerGone?: (c: Context, fn: () => void) => void;
  /**
   * The caller's headers as a lowercased record. Default: read from the Web request; the Node
   * entry hands over the IncomingMessage's own header object instead of building a `Headers`.
   */
  headersOf?: (c: Context) => Record<string, string> | undefined;
  /** Where the wire dump goes when `log.debug` is on (default: console.error). */
  debugLog?: (text: string) => void;
  /**
   * Where images are hosted for callers that asked for URLs (60 minutes). Default: in memory,
   * capped, expiring by `now` (Node); Workers pass `cacheApiImageStore(caches.default)`.
   */
  imageStore?: ImageStore;
}

type Handler = (scope: RequestScope, c: Context, inbound: Inbound) => Promise<Response>;

export function createApp(o: AppOptions) {
  const app = new Hono();
  const now = o.now ?? Date.now;
  const readBody = o.readBody ?? readBodyViaRequest;
  const reg = o.registry ?? registry;
  const deps: FlowDeps = {
    config: o.config,
    registry: reg,
    fetch: o.fetch,
    guardedFetch:
      o.guardedFetch ??
      createGuardedFetch({ fetch: o.fetch, allowHosts: o.config.fetchAllowHosts, resolveHost: o.resolveHost }),
    imageStore: o.imageStore ?? memoryImageStore({ now }),
  };

  const metrics = o.config.metrics ? new Metrics() : undefined;
  const debugLog = o.config.log.debug ? (o.debugLog ?? ((text: string) => console.error(text))) : undefined;

  if (o.config.cors) app.use('*', cors({ origin: o.config.cors.origins, exposeHeaders: ['x-request-id', 'x-interlingua-warnings', 'x-interlingua-upstream'] }));

  /** Run a handler with a scope, the caller's dialect for errors, and the log line. */
  const serve = (route: string, encodeError: (e: ProxyError) => EncodedError, fn: Handler) => async (c: Context) => {
    const headers = o.headersOf?.(c) ?? headerRecord(c.req.raw.headers);
    const query = queryRecord(c.req.url);
    const inbound: Inbound = { headers, query, credential: callerCredential(headers, query) };
    const given = headers['x-request-id'];
    // A caller's request id is kept when it is a plain token (it is echoed in headers and logs).
    const id = given && given.length <= 128 && /^[\w.:-]+$/.test(given) ? given : `req_${randomToken(24)}`;
    const scope = new RequestScope(route, id, now);
    // Caller disconnect aborts the upstream at once.
    const onGone = () => scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
    if (o.onCallerGone) o.onCallerGone(c, onGone);
    else c.req.raw.signal?.addEventListener('abort', onGone, { once: true });
    scope.flags.strict = headerFlag(headers['x-interlingua-strict']);
    scope.flags.dryRun = headerFlag(headers['x-interlingua-dry-run']);
    if (debugLog) scope.dump = (stage, data) => debugLog(formatDump(scope.requestId, stage, data));
    let res: Response;
    let error: string | undefined;
    try {
      checkCallerKey(o.config.keys, inbound.credential);
      res = await fn(scope, c, inbound);
    } catch (e) {
      if (e instanceof DryRun) {
        res = jsonResponse(scope, e.render(scope.warnings), 200, { 'x-interlingua-dry-run': 'true' });
      } else {
        const err = toProxyError(e);
        error = `${err.kind}: ${err.message}`;
        res = errorResponse(scope, err, encodeError);
      }
    }
    const status = res.status;
    if (scope.dump && !scope.streaming) scope.dump(`caller response (${status})`, await res.clone().text());
    scope.whenDone(() => {
      const entry = scope.finishLog(status, error);
      if (o.log && o.config.log.requests) o.log(entry);
      metrics?.record(entry);
    });
    return res;
  };

  const readJson = async (c: Context, scope: RequestScope) => {
    const raw = await readBody(c.req.raw, o.config.limits.maxBodyBytes, (c.env as { incoming?: unknown } | undefined)?.incoming);
    scope.dump?.(`caller request ${c.req.method} ${c.req.path}`, raw);
    return { raw, body: parseJsonBody(raw) };
  };

  const chat = (caller: ChatCaller, params?: (c: Context) => Record<string, string>): Handler => async (scope, c, inbound) => {
    const { raw, body } = await readJson(c, scope);
    const input = callerInput(inbound, body, params?.(c));
    return chatFlow(deps, scope, { caller, input, rawBody: raw, callerKey: inbound.credential });
  };

  const openai = reg.chatCallers['openai-chat'];
  const anthropic = reg.chatCallers.anthropic;
  const gemini = reg.chatCallers.gemini;

  app.get('/health', (c) => c.json({ status: 'ok' }));
  if (metrics) {
    app.get('/metrics', (c) => {
      try {
        checkCallerKey(o.config.keys, callerCredential(headerRecord(c.req.raw.headers), queryRecord(c.req.url)));
      } catch {
        return c.text('unauthorized\n', 401);
      }
      return c.text(metrics.render(), 200, { 'content-type': 'text/plain; version=0.0.4' });
    });
  }

  app.post('/v1/chat/completions', serve('chat.completions', openai.encodeError, chat(openai)));
  app.post('/v1/messages', serve('messages', anthropic.encodeError, chat(anthropic)));
  app.post(
    '/v1/messages/count_tokens',
    serve('messages.count_tokens', anthropic.encodeError, async (scope, c, inbound) => {
      const { body } = await readJson(c, scope);
      return countTokensFlow(deps, scope, anthropic, callerInput(inbound, body), inbound.credential);
    }),
  );

  // Gemini: `/v1beta/models/{model}:{method}` (SDK 2.x) and `/v1/models/{model}:{method}` (3.x).
  const geminiAction: Handler = async (scope, c, inbound) => {
    const target = c.req.param('target') ?? '';
    const colon = target.lastIndexOf(':');
    const model = colon > 0 ? target.slice(0, colon) : target;
    const method = colon > 0 ? target.slice(colon + 1) : '';
    const params = { model: model.replace(/^models\//, ''), method };
    if (method === 'generateContent' || method === 'streamGenerateContent') return chat(gemini, () => params)(scope, c, inbound);
    if (method === 'countTokens') {
      const { body } = await readJson(c, scope);
      return countTokensFlow(deps, scope, gemini, callerInput(inbound, body, params), inbound.credential);
    }
    throw new ProxyError('not-found', `Method '${method}' is not supported for models/${model}.`);
  };
  app.post('/v1beta/models/:target{.+}', serve('gemini.models', gemini.encodeError, geminiAction));
  app.post('/v1/models/:target{.+}', serve('gemini.models', gemini.encodeError, geminiAction));

  // Images.
  const images = reg.imageCaller;
  for (const [path, op] of [
    ['generations', 'generate'],
    ['edits', 'edit'],
    ['variations', 'variation'],
  ] as const) {
    app.post(
      `/v1/images/${path}`,
      serve(`images.${path}`, images.encodeError, (scope, c, inbound) => imageFlow(deps, scope, c.req.raw, inbound, op, readBody, (c.env as { incoming?: unknown } | undefined)?.incoming)),
    );
  }

  // Hosted images: no key needed, the unguessable URL is the capability.
  app.get(`${HOSTED_PREFIX}:name`, async (c) => {
    const found = await serveHosted(deps.imageStore!, c.req.param('name'), now());
    if (found) return found;
    const scope = new RequestScope('images.hosted', `req_${randomToken(24)}`, now);
    return errorResponse(scope, new ProxyError('not-found', 'This image does not exist or has expired (hosted images last 60 minutes).'), images.encodeError);
  });

  // Model lists, in the shape of the dialect the caller speaks.
  const models = (): ModelInfo[] =>
    listedModels(o.config).map((m) => ({ id: m.id, ownedBy: m.upstream, created: 0 }));
  const lister = createModelLister(o.config, reg, o.fetch, now);
  const listCaller = (c: Context): ChatCaller => {
    if (c.req.header('anthropic-version') || c.req.header('compat-version')) return anthropic;
    if (c.req.header('x-goog-api-key') || c.req.query('key')) return gemini;
    return openai;
  };
  const listModels: Handler = async (scope, c) => {
    const caller = c.req.path.startsWith('/v1beta/') ? gemini : listCaller(c);
    const all = await lister.list();
    return jsonResponse(scope, caller.encodeModelList?.(all) ?? { data: all });
  };
  app.get('/v1/models', (c) => serve('models', listCaller(c).encodeError, listModels)(c));
  app.get('/v1beta/models', serve('models', gemini.encodeError, listModels));
  const getModel: Handler = async (scope, c) => {
    const caller = c.req.path.startsWith('/v1beta/') ? gemini : listCaller(c);
    const id = c.req.param('id')!.replace(/^models\//, '');
    const found = models().find((m) => m.id === id) ?? routedModel(o.config, id);
    if (!found) throw new ProxyError('not-found', `The model '${id}' does not exist.`, { code: 'model_not_found' });
    const list = caller.encodeModelList?.([found]) as { data?: unknown[]; models?: unknown[] } | undefined;
    return jsonResponse(scope, list?.data?.[0] ?? list?.models?.[0] ?? found);
  };
  app.get('/v1/models/:id{.+}', (c) => serve('models.get', listCaller(c).encodeError, getModel)(c));
  app.get('/v1beta/models/:id{.+}', serve('models.get', gemini.encodeError, getModel));

  app.notFound((c) => {
    const scope = new RequestScope('not-found', `req_${randomToken(24)}`, now);
    const caller = c.req.path.startsWith('/v1beta/') ? gemini : c.req.path.startsWith('/v1/messages') ? anthropic : openai;
    return errorResponse(scope, new ProxyError('not-found', `Unknown route: ${c.req.method} ${c.req.path}`), caller.encodeError);
  });
  app.onError((err, c) => {
    const scope = new RequestScope('error', `req_${randomToken(24)}`, now);
    void err;
    return errorResponse(scope, toProxyError(err), (c.req.path.startsWith('/v1beta/') ? gemini : openai).encodeError);
  });
  return app;
}
