/**
 * Cloudflare Workers entry. The app is built once per isolate from `env` (`INTERLINGUA_CONFIG` as
 * a var or secret holding the JSON; `env:NAME` values resolved from string bindings and secrets)
 * and calls upstreams with the platform's native fetch. Responses, streams included, go back as
 * soon as the app returns them: nothing here awaits a body, and no work is left once the
 * response is done, so `ctx.waitUntil` has nothing to keep alive (a streamed Responses answer is
 * written to KV when its terminal event is made, before that event is sent, while the response
 * is still open). The only module state is the per-isolate app.
 *
 * No `node:` import here or anywhere the app reaches: wrangler.toml has no `nodejs_compat`, and
 * its build step fails on one.
 */
import type { ExecutionContext } from 'hono';
import { cacheApiImageStore, createProxy, kvCounterStore, kvStateStore, misconfiguredProxy, type KvNamespaceLike, type Proxy } from '../app.ts';
import { configFromEnv, type Env } from '../config/load.ts';

type Built = { proxy: Proxy };

/** The Workers WebSocket API (`WebSocketPair`, `accept`, `Response.webSocket`): https://developers.cloudflare.com/workers/runtime-apis/websockets/ */
interface WorkerSocket {
  accept(): void;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'message', fn: (e: { data: string | ArrayBuffer }) => void): void;
  addEventListener(type: 'close' | 'error', fn: () => void): void;
}
declare const WebSocketPair: { new (): { 0: WorkerSocket; 1: WorkerSocket } };

/** Keyed by the env object: one build per isolate (and per env, should a runtime pass several). */
const built = new WeakMap<object, Built>();

/** The string bindings (vars and secrets); other bindings (KV, services…) are not config. */
function stringBindings(env: Record<string, unknown>): Env {
  const out: Env = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') out[k] = v;
  return out;
}

function build(env: Record<string, unknown>): Built {
  const strings = stringBindings(env);
  try {
    const config = configFromEnv(strings);
    const kv = isKv(env['INTERLINGUA_STATE']) ? env['INTERLINGUA_STATE'] : undefined;
    const proxy = createProxy({
      config,
      fetch: (input, init) => fetch(input, init),
      log: (entry) => console.log(JSON.stringify(entry)),
      // Hosted images outlive one isolate: the Cache API of the zone serves them for 60 minutes.
      imageStore: cacheApiImageStore((caches as unknown as { default: Cache }).default),
      // Responses state (previous_response_id, item_reference) on a bound KV namespace, if any;
      // keys' limit counters there too (best effort: KV has no atomic add; docs/team.md).
      stateStore: kv ? kvStateStore(kv) : undefined,
      counters: kv ? kvCounterStore(kv) : undefined,
    });
    return { proxy };
  } catch (e) {
    // The config's errors name the field and the rule, never the rejected value nor a JSON excerpt.
    const message = e instanceof Error ? e.message : String(e);
    const text = strings.INTERLINGUA_CONFIG ?? '';
    const hint = /not valid JSON/.test(message) && !text.trim().startsWith('{') ? '; on Workers it holds the JSON document itself, not a path' : '';
    return broken(`${message}${hint}`);
  }
}

function isKv(x: unknown): x is KvNamespaceLike {
  return !!x && typeof (x as KvNamespaceLike).get === 'function' && typeof (x as KvNamespaceLike).put === 'function' && typeof (x as KvNamespaceLike).delete === 'function';
}

/** Every request answered with the config error, in the caller's dialect; said once in the log. */
function broken(error: string): Built {
  console.error(`interlingua: ${error}`);
  return { proxy: misconfiguredProxy(error) };
}

function appFor(env: Record<string, unknown>): Built {
  let b = built.get(env);
  if (!b) {
    b = build(env);
    built.set(env, b);
  }
  return b;
}

/**
 * The app gets its config from `createApp`, never from bindings: Hono's `c.env` stays empty, so
 * no var name can collide with what a runtime puts there (Node's `incoming`).
 */
const NO_BINDINGS = Object.freeze({});

export default {
  fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Response | Promise<Response> {
    const { proxy } = appFor(env);
    if (request.headers.get('upgrade')?.toLowerCase() === 'websocket') return upgrade(proxy, request, ctx);
    return proxy.app.fetch(request, NO_BINDINGS, ctx);
  },
};


/**
 * Responses over WebSocket: the app checks the upgrade (key, path) and serves every message; the
 * platform speaks the frames (and negotiates their compression).
 */
async function upgrade(proxy: Proxy, request: Request, ctx: ExecutionContext): Promise<Response> {
  const opening = await proxy.openWebSocket(request, (p) => ctx.waitUntil(p));
  if ('refused' in opening) return opening.refused;
  const pair = new WebSocketPair();
  const server = pair[1];
  server.accept();
  let open = true;
  const session = opening.accept({
    send: (text) => {
      if (open) server.send(text);
    },
    close: (code, reason) => {
      if (!open) return;
      open = false;
      server.close(code, reason);
    },
  });
  server.addEventListener('message', (e) => {
    if (typeof e.data !== 'string') {
      open = false;
      session.closed();
      return server.close(1003, 'only text messages are taken');
    }
    session.message(e.data);
  });
  const gone = () => {
    if (open) {
      open = false;
      try {
        server.close(1000, '');
      } catch {
        // Already closed.
      }
    }
    session.closed();
  };
  server.addEventListener('close', gone);
  server.addEventListener('error', gone);
  return new Response(null, { status: 101, webSocket: pair[0] } as ResponseInit);
}
