/**
 * The routes: one table of method + path → handler, matched by Hono's router, CORS, and the
 * dialect an unknown route answers in. Every runtime serves through `dispatch` (a runtime-neutral
 * `CallerRequest` in, a `Reply` out): the Node server straight from its sockets, Workers and tests
 * through the Hono app, whose one route hands the Web request to `dispatch`.
 */
import { Hono } from 'hono/tiny';
import { PatternRouter } from 'hono/router/pattern-router';
import { ProxyError } from './canonical/index.ts';
import { type FetchLike } from './kit/index.ts';
import { registry, type Registry } from '../translators/index.ts';
import type { ChatCaller } from '../translators/types.ts';
import type { Config } from './config/load.ts';
import { alphaSearchFlow } from './flows/alpha-search.ts';
import type { FlowDeps } from './flows/context.ts';
import { TurnMemo } from './flows/forward/index.ts';
import { hostedImageReply, imageFlow } from './flows/images.ts';
import { storedFlow, type StoredOp } from './flows/stored.ts';
import { createModelLister } from './flows/models.ts';
import { errorReply, jsonReply, type Reply } from './flows/reply.ts';
import { callerCredential, checkCallerKey } from './http/auth.ts';
import { createCors } from './http/cors.ts';
import { callerHandlers } from './http/handlers.ts';
import { callerInput, publicOrigin, readMultipart, webCallerRequest, type CallerRequest } from './http/inbound.ts';
import { toResponse } from './http/respond.ts';
import { socketOpener, type SocketOpening } from './http/responses-upgrade.ts';
import { createServe, type Serve } from './http/serve.ts';
import { Metrics } from './observe/metrics.ts';

/** Metrics of several processes as one, for the Node entry's `--workers` (observe/metrics.ts). */
export { mergeMetrics } from './observe/metrics.ts';
import { RequestScope, randomToken, type LogEntry } from './observe/scope.ts';
import { createTracer } from './observe/traces.ts';
import { createGuardedFetch, type GuardedFetch } from './upstream/guarded-fetch.ts';
import { HOSTED_PREFIX, memoryImageStore, type ImageStore } from './upstream/image-store.ts';
import { memoryCounterStore, type CounterStore } from './upstream/limits/counters.ts';
import { createMeter } from './upstream/meter.ts';
import { createKeyPools } from './upstream/key-pool.ts';
import { stateScopes } from './upstream/state-scope.ts';
import type { StateStore } from './upstream/state-store.ts';
import type { InspectorHook } from './observe/inspector/hook.ts';

/** Image stores for `AppOptions.imageStore`, for runtime entries (Workers: `cacheApiImageStore(caches.default)`). */
export { cacheApiImageStore, memoryImageStore, type CacheLike, type ImageStore } from './upstream/image-store.ts';
/** State stores for `AppOptions.stateStore` (Node: memory or Redis; Workers: a KV binding). */
export { kvStateStore, memoryStateStore, type KvNamespaceLike, type StateStore } from './upstream/state-store.ts';
/** Limit counters for `AppOptions.counters` (Node: memory or Redis; Workers: a KV binding). */
export { kvCounterStore, memoryCounterStore, type CounterStore } from './upstream/limits/counters.ts';

export interface AppOptions {
  config: Config;
  /** Upstream HTTP client (Node: pooled keep-alive; Workers: native fetch). */
  fetch: FetchLike;
  /** One line per finished request; never holds a key or a body. */
  log?: (entry: LogEntry) => void;
  /** Resolve hostnames for the guarded media fetcher (Node). */
  resolveHost?: (host: string) => Promise<string[]>;
  guardedFetch?: GuardedFetch;
  now?: () => number;
  registry?: Registry;
  /** Where the wire dump goes when `log.debug` is on (default: console.error). */
  debugLog?: (text: string) => void;
  /**
   * Where images are hosted for callers that asked for URLs (60 minutes). Default: in memory,
   * capped, expiring by `now` (Node); Workers pass `cacheApiImageStore(caches.default)`.
   */
  imageStore?: ImageStore;
  /**
   * Where stateful dialects' answers are kept for later references (Responses
   * `previous_response_id`, `item_reference`), each caller's under its own identity
   * (src/upstream/state-scope.ts). None: such references are a 400.
   */
  stateStore?: StateStore;
  /** The inspector's recorder (Node entry, when `inspector` is on); never in the Worker. */
  inspector?: InspectorHook;
  /**
   * Where keys' limit counters live when a key has `limits`: Redis shared by instances, a KV
   * namespace on Workers; default in memory, this process's own.
   */
  counters?: CounterStore;
  /**
   * `/metrics` for several processes (`--workers`): every process's metrics added up, asked of
   * the cluster's primary; default: this process's own.
   */
  gatherMetrics?: () => Promise<string>;
}

export interface Proxy {
  /** Serve one request, whichever runtime received it. */
  dispatch(req: CallerRequest): Promise<Reply>;
  /** The same routes as a Hono app (Workers, tests). */
  app: Hono;
  /** Export what telemetry still holds (Node, on shutdown). */
  flush(): Promise<void>;
  /** This process's `/metrics` text (empty when metrics are off). */
  metricsText(): string;
  /**
   * A WebSocket upgrade of `GET /v1/responses` (docs/responses.md "WebSocket"): refused with the
   * reply to send instead of `101` (a wrong key, another path), or accepted: the runtime speaks
   * the frames, `maxMessageBytes` at most per message, and hands each text message to the session.
   */
  openSocket(req: CallerRequest): Promise<SocketOpening>;
  /**
   * `openSocket` for a Web `Request` (Workers), a refusal as a Web `Response`; `waitUntil` keeps
   * the isolate alive for what a turn does after its answer (a trace export, a key's counters).
   */
  openWebSocket(req: Request, waitUntil?: (p: Promise<unknown>) => void): Promise<{ refused: Response } | Extract<SocketOpening, { accept: unknown }>>;
}

export type { SocketOpening } from './http/responses-upgrade.ts';
export type { SocketPeer, SocketSession } from './http/responses-socket.ts';

export function createApp(o: AppOptions): Hono {
  return createProxy(o).app;
}

type Route = (req: CallerRequest, params: Record<string, string>) => Promise<Reply>;

/** The routes that call a model upstream: the ones a key's limits govern (docs/team.md "Limits"). */
const METERED = { metered: true } as const;

type Services = ReturnType<typeof services>;

/** What the flows are given (FlowDeps) and what serves around them, built once from the options. */
function services(o: AppOptions) {
  const now = o.now ?? Date.now;
  const reg = o.registry ?? registry;
  const { config } = o;
  const deps: FlowDeps = {
    config,
    registry: reg,
    fetch: o.fetch,
    guardedFetch: o.guardedFetch ?? createGuardedFetch({ fetch: o.fetch, allowHosts: config.fetchAllowHosts, resolveHost: o.resolveHost, ...config.mediaFetch }),
    imageStore: o.imageStore ?? memoryImageStore({ now }),
    state: o.stateStore && stateScopes(o.stateStore, config.store.secret),
    // Cooldowns and pins: this app's own, shared with other instances through Redis or KV.
    pools: createKeyPools({ now, shared: o.stateStore?.kind === 'memory' ? undefined : o.stateStore, secret: config.store.secret }),
    // Callers' last turns: one memory per app (per process, per isolate), off at 0 bytes.
    turnMemo: config.limits.turnMemoBytes > 0 ? new TurnMemo(config.limits.turnMemoBytes, config.limits.turnMemoFromBytes) : undefined,
  };
  const metrics = config.metrics ? new Metrics() : undefined;
  const debugLog = config.log.debug ? (o.debugLog ?? ((text: string) => console.error(text))) : undefined;
  const tracer = config.telemetry ? createTracer(config.telemetry) : undefined;
  const counters = config.keys.some((k) => k.limits) ? (o.counters ?? memoryCounterStore({ now })) : undefined;
  const meter = createMeter({ config, counters, now });
  const serve = createServe({ config, now, log: o.log, metrics, debugLog, tracer, inspector: o.inspector, meter });
  const cors = config.cors ? createCors(config.cors.origins) : undefined;
  return { now, reg, config, deps, metrics, tracer, counters, serve, cors };
}

export function createProxy(o: AppOptions): Proxy {
  const s = services(o);
  const { now, reg, config, deps, metrics, tracer, counters, serve } = s;
  const handlers = callerHandlers(deps);
  const metricsText = () => (metrics ? metrics.render() + (tracer?.renderMetrics() ?? '') : '');
  const { listModels, getModel, hosted, health, probe, metricsRoute } = serviceRoutes({ o, reg, deps, serve, now, metricsText });

  // The one route table.
  const router = new PatternRouter<Route>();
  const table: Array<[string, string, Route]> = [
    ['GET', '/health', health],
    ['HEAD', '/health', probe],
    ['HEAD', '/', probe],
    ...modelRoutes(s, handlers),
    ['GET', `${HOSTED_PREFIX}:name`, hosted],
    ['GET', '/v1/models', listModels],
    ['GET', '/v1beta/models', listModels],
    ['GET', '/v1/models/:id{.+}', getModel],
    ['GET', '/v1beta/models/:id{.+}', getModel],
  ];
  if (metrics) table.push(['GET', '/metrics', metricsRoute]);
  for (const [method, path, route] of table) router.add(method, path, route);
  const dispatch = dispatcher(s, router, getModel);

  const openSocket = socketOpener({ config, now, serve, dispatch, readJson: handlers.readJson, responses: reg.chatCallers['openai-responses'] });

  const app = new Hono();
  app.all('*', async (c) => {
    const req = webCallerRequest(c.req.raw);
    // Workers: a trace is exported, and counters written, after the reply, kept alive by the request's `waitUntil`.
    if (tracer || counters) req.waitUntil = waitUntilOf(c);
    return toResponse(await dispatch(req));
  });
  return { dispatch, app, flush: () => tracer?.flush() ?? Promise.resolve(), metricsText, openSocket, openWebSocket: (r, w) => openWeb(openSocket, r, w) };
}

/** The routes that call a model, each dialect's paths to its flows (chat, token counts, compaction, stored answers, embeddings, images). */
function modelRoutes(s: Services, handlers: ReturnType<typeof callerHandlers>): Array<[string, string, Route]> {
  const { reg, config, deps, serve } = s;
  const { readJson, chat, compact, countTokens, embed } = handlers;
  const openai = reg.chatCallers['openai-chat'];
  const anthropic = reg.chatCallers.anthropic;
  const gemini = reg.chatCallers.gemini;
  const responses = reg.chatCallers['openai-responses'];
  const interactions = reg.chatCallers['gemini-interactions'];
  const images = reg.imageCaller;

  // Gemini: `/v1beta/models/{model}:{method}` (SDK 2.x) and `/v1/models/{model}:{method}` (3.x).
  const geminiAction: Route = (req, params) => {
    const target = decodedParam(params.target!);
    const colon = target.lastIndexOf(':');
    const model = (colon > 0 ? target.slice(0, colon) : target).replace(/^models\//, '');
    const method = colon > 0 ? target.slice(colon + 1) : '';
    const p = { model, method };
    if (method === 'generateContent' || method === 'streamGenerateContent') return serve('gemini.models', gemini.encodeError, chat(gemini, p), METERED)(req);
    if (method === 'countTokens') return serve('gemini.models', gemini.encodeError, countTokens(gemini, p))(req);
    if (method === 'embedContent' || method === 'batchEmbedContents') return serve('gemini.embed', gemini.encodeError, embed(reg.embeddingCallers.gemini, p), METERED)(req);
    return serve('gemini.models', gemini.encodeError, async () => {
      throw new ProxyError('not-found', `Method '${method}' is not supported for models/${model}.`, { code: 'method_not_found' });
    })(req);
  };

  // Responses and interactions kept by id (`/{version}/{kind}/{id}…`): from the state store, else
  // the caller's own upstream.
  const storedRoute = (caller: ChatCaller, name: string, op: StoredOp): Route =>
    serve(`${name}.${op}`, caller.encodeError, async (scope, req, inbound) =>
      storedFlow(deps, scope, caller, op, callerInput(inbound, null, { id: decodedParam(req.path.split('/')[3] ?? '') }), inbound.credential),
    );

  const imageRoute = (op: 'generate' | 'edit' | 'variation', name: string): Route =>
    serve(`images.${name}`, images.encodeError, async (scope, req, inbound) => {
      const body =
        op === 'generate'
          ? (await readJson(req, scope)).body
          : await reg.readImageForm(await readMultipart(req, config.limits.maxMultipartBytes, `images ${name}`));
      return imageFlow(deps, scope, { input: callerInput(inbound, body), op, origin: publicOrigin(req), callerKey: inbound.credential });
    }, METERED);

  return [
    ['POST', '/v1/chat/completions', serve('chat.completions', openai.encodeError, chat(openai), METERED)],
    ['POST', '/v1/messages', serve('messages', anthropic.encodeError, chat(anthropic), METERED)],
    ['POST', '/v1/messages/count_tokens', serve('messages.count_tokens', anthropic.encodeError, countTokens(anthropic))],
    ['POST', '/v1/responses', serve('responses', responses.encodeError, chat(responses), METERED)],
    ['POST', '/v1/responses/input_tokens', serve('responses.input_tokens', responses.encodeError, countTokens(responses))],
    ['POST', '/v1/responses/compact', serve('responses.compact', responses.encodeError, compact(responses), METERED)],
    // Codex's standalone web search, from the configured search backend.
    ['POST', '/v1/alpha/search', serve('alpha.search', responses.encodeError, async (scope, req) => alphaSearchFlow(deps, scope, (await readJson(req, scope)).body))],
    ['GET', '/v1/responses/:id', storedRoute(responses, 'responses', 'retrieve')],
    ['DELETE', '/v1/responses/:id', storedRoute(responses, 'responses', 'delete')],
    ['GET', '/v1/responses/:id/input_items', storedRoute(responses, 'responses', 'input_items')],
    ['POST', '/v1/responses/:id/cancel', storedRoute(responses, 'responses', 'cancel')],
    // Interactions: `/v1beta` (SDK 2.x) and `/v1` (newer SDKs).
    ...(['/v1beta', '/v1'] as const).flatMap((v): Array<[string, string, Route]> => [
      ['POST', `${v}/interactions`, serve('interactions', interactions.encodeError, chat(interactions), METERED)],
      ['GET', `${v}/interactions/:id`, storedRoute(interactions, 'interactions', 'retrieve')],
      ['DELETE', `${v}/interactions/:id`, storedRoute(interactions, 'interactions', 'delete')],
      ['POST', `${v}/interactions/:id/cancel`, storedRoute(interactions, 'interactions', 'cancel')],
    ]),
    ['POST', '/v1beta/models/:target{.+}', geminiAction],
    ['POST', '/v1/models/:target{.+}', geminiAction],
    ['POST', '/v1/embeddings', serve('embeddings', reg.embeddingCallers.openai.encodeError, embed(reg.embeddingCallers.openai), METERED)],
    ['POST', '/v1/images/generations', imageRoute('generate', 'generations')],
    ['POST', '/v1/images/edits', imageRoute('edit', 'edits')],
    ['POST', '/v1/images/variations', imageRoute('variation', 'variations')],
  ];
}

/** Every request to its route, or to the not-found answer in the dialect its path suggests; CORS around both. */
function dispatcher(s: Services, router: PatternRouter<Route>, getModel: Route): (req: CallerRequest) => Promise<Reply> {
  const { reg, serve, cors, now } = s;
  const pathCaller = (req: CallerRequest) => pathCallerOf(reg, req);
  const unknown = (req: CallerRequest): Promise<Reply> =>
    serve('not-found', pathCaller(req).encodeError, async () => {
      throw new ProxyError('not-found', `Invalid URL (${req.method} ${req.path})`, { code: 'unknown_url' });
    }, { auth: false })(req);

  return async (req) => {
    const pre = cors?.preflight(req);
    if (pre) return pre;
    let reply: Reply;
    try {
      // A model-get path with an action (`…/models/X:generateContent`) is not a model name.
      const [match] = router.match(req.method, req.path)[0] as Array<[Route, Record<string, string>]>;
      const isAction = req.method === 'GET' && match?.[0] === getModel && (match[1].id ?? '').includes(':');
      reply = match && !isAction ? await match[0](req, match[1]) : await unknown(req);
    } catch {
      // A bug of ours outside any handler: never a stack trace.
      reply = errorReply(new RequestScope('error', `req_${randomToken(24)}`, now), new ProxyError('upstream', 'Internal proxy error.', { status: 500 }), pathCaller(req).encodeError);
    }
    return cors ? cors.decorate(req, reply) : reply;
  };
}

/** The routes that call no model: model lists, hosted images, health probes, /metrics. */
function serviceRoutes(s: { o: AppOptions; reg: Registry; deps: FlowDeps; serve: Serve; now: () => number; metricsText: () => string }) {
  const { o, reg, deps, serve, now } = s;
  const { config } = o;
  const listCaller = (req: CallerRequest) => listCallerOf(reg, req);
  // Model lists, in the shape of the dialect the caller speaks.
  const lister = createModelLister(config, reg, o.fetch, now);
  const listModels: Route = (req) =>
    serve('models', listCaller(req).encodeError, async (scope) => {
      const all = await lister.list();
      return jsonReply(scope, listCaller(req).encodeModelList?.(all) ?? { data: all });
    })(req);
  const getModel: Route = (req, params) =>
    serve('models.get', listCaller(req).encodeError, async (scope) => {
      const id = decodedParam(params.id!).replace(/^models\//, '');
      const found = lister.find(id);
      if (!found) throw new ProxyError('not-found', `The model '${id}' does not exist.`, { code: 'model_not_found' });
      const list = listCaller(req).encodeModelList?.([found]) as { data?: unknown[]; models?: unknown[] } | undefined;
      return jsonReply(scope, list?.data?.[0] ?? list?.models?.[0] ?? found);
    })(req);

  // Hosted images: no key needed, the unguessable URL is the capability.
  const hosted: Route = (req, params) =>
    serve('images.hosted', reg.imageCaller.encodeError, async (scope) => {
      return hostedImageReply(deps, scope, params.name!, now());
    }, { auth: false })(req);

  const health: Route = async () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"status":"ok"}' });
  // Probes: load balancers send `HEAD /health`, Claude Code sends `HEAD /` before its first call.
  const probe: Route = async () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: null });
  const metricsRoute: Route = async (req) => {
    try {
      checkCallerKey(config.keys, callerCredential(req.headers, req.query));
    } catch {
      return { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'unauthorized\n' };
    }
    return { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4' }, body: o.gatherMetrics ? await o.gatherMetrics() : s.metricsText() };
  };
  return { listModels, getModel, hosted, health, probe, metricsRoute };
}

async function openWeb(open: Proxy['openSocket'], request: Request, waitUntil?: (p: Promise<unknown>) => void): ReturnType<Proxy['openWebSocket']> {
  const req = webCallerRequest(request);
  if (waitUntil) req.waitUntil = waitUntil;
  const opening = await open(req);
  return 'refused' in opening ? { refused: toResponse(opening.refused) } : opening;
}

/** The execution context's `waitUntil`, where the runtime gave one (Hono throws when it did not). */
function waitUntilOf(c: { readonly executionCtx: { waitUntil(p: Promise<unknown>): void } }): ((p: Promise<unknown>) => void) | undefined {
  try {
    const ctx = c.executionCtx;
    return (p) => ctx.waitUntil(p);
  } catch {
    return undefined;
  }
}

/**
 * The caller dialect of a model-list request: the path, else the credential's place. An OpenAI
 * caller gets the Responses dialect's list: OpenAI's `data[]` and, in the same object, the
 * `models[]` catalogue Codex reads for discovery (`GET {base}/models?client_version=…`), which
 * the openai SDK and every other OpenAI client ignore.
 */
function listCallerOf(reg: Registry, req: CallerRequest): ChatCaller {
  if (req.path.startsWith('/v1beta/')) return reg.chatCallers.gemini;
  if (req.headers['anthropic-version'] || req.headers['compat-version']) return reg.chatCallers.anthropic;
  if (req.headers['x-goog-api-key'] || req.query.key) return reg.chatCallers.gemini;
  return reg.chatCallers['openai-responses'];
}

/** The dialect an unknown route or a failure outside any handler answers in, by its path. */
function pathCallerOf(reg: Registry, req: CallerRequest): ChatCaller {
  if (/^\/v1(beta)?\/interactions(\/|$)/.test(req.path)) return reg.chatCallers['gemini-interactions'];
  if (req.path.startsWith('/v1beta/') || (req.path.startsWith('/v1/models/') && req.path.includes(':'))) return reg.chatCallers.gemini;
  if (req.path.startsWith('/v1/messages')) return reg.chatCallers.anthropic;
  if (req.path.startsWith('/v1/responses')) return reg.chatCallers['openai-responses'];
  if (req.path === '/v1/models' || req.path.startsWith('/v1/models/')) return listCallerOf(reg, req);
  return reg.chatCallers['openai-chat'];
}

/**
 * A proxy whose config did not validate (Workers build it per isolate, so they cannot refuse to
 * start): every request is a 500 in the caller's own dialect, naming the field and the rule.
 */
export function misconfiguredProxy(message: string, reg: Registry = registry): Proxy {
  const dispatch = async (req: CallerRequest): Promise<Reply> => {
    const scope = new RequestScope('misconfigured', `req_${randomToken(24)}`, Date.now);
    const err = new ProxyError('upstream', `Interlingua is misconfigured: ${message}`, { status: 500, code: 'invalid_config' });
    return errorReply(scope, err, pathCallerOf(reg, req).encodeError);
  };
  const app = new Hono();
  app.all('*', async (c) => toResponse(await dispatch(webCallerRequest(c.req.raw))));
  const openSocket = async (req: CallerRequest): Promise<SocketOpening> => ({ refused: await dispatch(req) });
  return { dispatch, app, flush: () => Promise.resolve(), metricsText: () => '', openSocket, openWebSocket: (r, w) => openWeb(openSocket, r, w) };
}

/** A path parameter percent-decoded as a URL path segment (left as it is when malformed). */
function decodedParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

