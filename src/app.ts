/**
 * The Hono app: inbound routes → dialect ids → the generic flows. No runtime code here: the
 * runtime entry hands over config, the upstream client and (on Node) a faster body reader.
 */
import type { Context } from 'hono';
import { Hono } from 'hono/tiny';
import { cors } from 'hono/cors';
import { ProxyError } from './canonical/index.ts';
import { registry, type Registry } from '../translators/index.ts';
import type { ChatCaller, ModelInfo } from '../translators/types.ts';
import type { Config } from './config/load.ts';
import { Metrics } from './routing/metrics.ts';
import { chatFlow, type FlowDeps } from './routing/chat-flow.ts';
import { countTokensFlow } from './routing/count-tokens.ts';
import { imageFlow } from './routing/image-flow.ts';
import { HOSTED_PREFIX, memoryImageStore, serveHosted, type ImageStore } from './routing/image-host.ts';

/** Image stores for `AppOptions.imageStore`, for runtime entries (Workers: `cacheApiImageStore(caches.default)`). */
export { cacheApiImageStore, memoryImageStore, type CacheLike, type ImageStore } from './routing/image-host.ts';
import { callerInput, headerRecord, parseJsonBody, queryRecord, readBodyViaRequest, type BodyReader } from './routing/inbound.ts';
import { callerCredential, checkCallerKey } from './routing/auth.ts';
import { createGuardedFetch, type GuardedFetch } from './routing/media.ts';
import { createModelLister } from './routing/models.ts';
import { listedModels, routedModel } from './routing/resolve.ts';
import { jsonReply, toProxyError, toResponse, type Reply } from './routing/respond.ts';
import type { FetchLike, LogEntry, RequestScope } from './routing/scope.ts';
import { createServe, routeError, type CallerRequest, type Handler } from './routing/serve.ts';

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

/** A route the Node entry may serve without Hono: POST, exact path, a chat or count flow. */
export type FastRoute = (req: CallerRequest) => Promise<Reply>;

export interface Proxy {
  app: Hono;
  /**
   * The handler for a hot POST route (chat completions, messages, Gemini generate/stream/count),
   * or undefined where Hono must serve (any other route, or CORS configured). The Node entry
   * serves these straight from the socket; the answer is the same as through `app`.
   */
  fastRoute(method: string, path: string): FastRoute | undefined;
}

export function createApp(o: AppOptions): Hono {
  return createProxy(o).app;
}

export function createProxy(o: AppOptions): Proxy {
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
  const serve = createServe({ config: o.config, now, log: o.log, metrics, debugLog });

  if (o.config.cors) app.use('*', cors({ origin: o.config.cors.origins, exposeHeaders: ['x-request-id', 'x-interlingua-warnings', 'x-interlingua-upstream'] }));

  /** The Hono request as a CallerRequest. */
  const incomingOf = (c: Context) => (c.env as { incoming?: unknown } | undefined)?.incoming;
  const fromContext = (c: Context): CallerRequest => ({
    method: c.req.method,
    path: c.req.path,
    headers: o.headersOf?.(c) ?? headerRecord(c.req.raw.headers),
    query: queryRecord(c.req.url),
    text: (limit) => readBody(c.req.raw, limit, incomingOf(c)),
    onGone: (fn) => {
      if (o.onCallerGone) o.onCallerGone(c, fn);
      else c.req.raw.signal?.addEventListener('abort', fn, { once: true });
    },
  });
  const hono = (route: FastRoute) => async (c: Context) => toResponse(await route(fromContext(c)));

  const readJson = async (req: CallerRequest, scope: RequestScope) => {
    const raw = await req.text(o.config.limits.maxBodyBytes);
    scope.dump?.(`caller request ${req.method} ${req.path}`, raw);
    return { raw, body: parseJsonBody(raw) };
  };

  const chat = (caller: ChatCaller, params?: Record<string, string>): Handler => async (scope, req, inbound) => {
    const { raw, body } = await readJson(req, scope);
    const input = callerInput(inbound, body, params);
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

  const chatCompletions = serve('chat.completions', openai.encodeError, chat(openai));
  const messages = serve('messages', anthropic.encodeError, chat(anthropic));
  const countTokens = serve('messages.count_tokens', anthropic.encodeError, async (scope, req, inbound) => {
    const { body } = await readJson(req, scope);
    return countTokensFlow(deps, scope, anthropic, callerInput(inbound, body), inbound.credential);
  });
  app.post('/v1/chat/completions', hono(chatCompletions));
  app.post('/v1/messages', hono(messages));
  app.post('/v1/messages/count_tokens', hono(countTokens));

  // Gemini: `/v1beta/models/{model}:{method}` (SDK 2.x) and `/v1/models/{model}:{method}` (3.x).
  const geminiAction: Handler = async (scope, req, inbound) => {
    const target = pathAfter(req.path, 2);
    const colon = target.lastIndexOf(':');
    const model = colon > 0 ? target.slice(0, colon) : target;
    const method = colon > 0 ? target.slice(colon + 1) : '';
    const params = { model: model.replace(/^models\//, ''), method };
    if (method === 'generateContent' || method === 'streamGenerateContent') return chat(gemini, params)(scope, req, inbound);
    if (method === 'countTokens') {
      const { body } = await readJson(req, scope);
      return countTokensFlow(deps, scope, gemini, callerInput(inbound, body, params), inbound.credential);
    }
    throw new ProxyError('not-found', `Method '${method}' is not supported for models/${model}.`);
  };
  const geminiModels = serve('gemini.models', gemini.encodeError, geminiAction);
  app.post('/v1beta/models/:target{.+}', hono(geminiModels));
  app.post('/v1/models/:target{.+}', hono(geminiModels));

  // Images: the multipart body is read from the Web request, so these stay on Hono everywhere.
  const images = reg.imageCaller;
  for (const [path, op] of [
    ['generations', 'generate'],
    ['edits', 'edit'],
    ['variations', 'variation'],
  ] as const) {
    app.post(`/v1/images/${path}`, (c) =>
      hono(serve(`images.${path}`, images.encodeError, (scope, _req, inbound) => imageFlow(deps, scope, c.req.raw, inbound, op, readBody, incomingOf(c))))(c),
    );
  }

  // Hosted images: no key needed, the unguessable URL is the capability.
  app.get(`${HOSTED_PREFIX}:name`, async (c) => {
    const found = await serveHosted(deps.imageStore!, c.req.param('name'), now());
    if (found) return found;
    return toResponse(routeError('images.hosted', now, new ProxyError('not-found', 'This image does not exist or has expired (hosted images last 60 minutes).'), images.encodeError));
  });

  // Model lists, in the shape of the dialect the caller speaks.
  const models = (): ModelInfo[] =>
    listedModels(o.config).map((m) => ({ id: m.id, ownedBy: m.upstream, created: 0 }));
  const lister = createModelLister(o.config, reg, o.fetch, now);
  const listCaller = (req: CallerRequest): ChatCaller => {
    if (req.path.startsWith('/v1beta/')) return gemini;
    if (req.headers['anthropic-version'] || req.headers['compat-version']) return anthropic;
    if (req.headers['x-goog-api-key'] || req.query.key) return gemini;
    return openai;
  };
  const listModels: Handler = async (scope, req) => {
    const all = await lister.list();
    return jsonReply(scope, listCaller(req).encodeModelList?.(all) ?? { data: all });
  };
  const getModel: Handler = async (scope, req) => {
    const id = pathAfter(req.path, 2).replace(/^models\//, '');
    const found = models().find((m) => m.id === id) ?? routedModel(o.config, id);
    if (!found) throw new ProxyError('not-found', `The model '${id}' does not exist.`, { code: 'model_not_found' });
    const list = listCaller(req).encodeModelList?.([found]) as { data?: unknown[]; models?: unknown[] } | undefined;
    return jsonReply(scope, list?.data?.[0] ?? list?.models?.[0] ?? found);
  };
  const byCaller = (route: string, fn: Handler) => (c: Context) => {
    const req = fromContext(c);
    return serve(route, listCaller(req).encodeError, fn)(req).then(toResponse);
  };
  app.get('/v1/models', byCaller('models', listModels));
  app.get('/v1beta/models', byCaller('models', listModels));
  app.get('/v1/models/:id{.+}', byCaller('models.get', getModel));
  app.get('/v1beta/models/:id{.+}', byCaller('models.get', getModel));

  const errorCaller = (path: string) => (path.startsWith('/v1beta/') ? gemini : path.startsWith('/v1/messages') ? anthropic : openai);
  app.notFound((c) =>
    toResponse(routeError('not-found', now, new ProxyError('not-found', `Unknown route: ${c.req.method} ${c.req.path}`), errorCaller(c.req.path).encodeError)),
  );
  app.onError((err, c) => toResponse(routeError('error', now, toProxyError(err), errorCaller(c.req.path).encodeError)));

  const fast = new Map<string, FastRoute>([
    ['/v1/chat/completions', chatCompletions],
    ['/v1/messages', messages],
    ['/v1/messages/count_tokens', countTokens],
  ]);
  const fastRoute = (method: string, path: string): FastRoute | undefined => {
    if (method !== 'POST' || o.config.cors) return undefined;
    const exact = fast.get(path);
    if (exact) return exact;
    // Gemini paths with something after the prefix; percent-escapes are left to Hono.
    if ((path.startsWith('/v1beta/models/') || path.startsWith('/v1/models/')) && !path.includes('%') && !path.endsWith('/')) return geminiModels;
    return undefined;
  };
  return { app, fastRoute };
}

/** `/v1beta/models/{target}` → the target: the path after `skip` segments, percent-decoded as Hono does. */
function pathAfter(path: string, skip: number): string {
  let at = 0;
  for (let i = 0; i <= skip; i++) at = path.indexOf('/', at) + 1;
  const rest = path.slice(at);
  if (!rest.includes('%')) return rest;
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}
