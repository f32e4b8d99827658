/**
 * Cloudflare Workers entry: the app is built once per isolate from `env` (`INTERLINGUA_CONFIG`
 * as a var or secret holding the JSON; `env:NAME` values resolved from bindings and secrets) and
 * calls upstreams with the platform's native fetch.
 */
import { createApp } from '../app.ts';
import { configFromEnv } from '../config/load.ts';

type WorkerEnv = Record<string, unknown>;

let cached: { env: WorkerEnv; app: ReturnType<typeof createApp> } | { env: WorkerEnv; error: string } | undefined;

function build(env: WorkerEnv) {
  if (cached && cached.env === env) return cached;
  const strings: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') strings[k] = v;
  try {
    const config = configFromEnv(strings);
    const app = createApp({
      config,
      fetch: (input, init) => fetch(input, init),
      log: (entry) => console.log(JSON.stringify(entry)),
    });
    cached = { env, app };
  } catch (e) {
    cached = { env, error: (e as Error).message };
  }
  return cached;
}

export default {
  fetch(request: Request, env: WorkerEnv, ctx: unknown): Response | Promise<Response> {
    const built = build(env);
    if ('error' in built) {
      // A broken config must be visible, not a silent 500.
      return new Response(JSON.stringify({ error: { message: built.error, type: 'server_error' } }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
    return built.app.fetch(request, env, ctx as never);
  },
};
