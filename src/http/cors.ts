/**
 * CORS for browser callers, on every route and runtime alike (configured origins only; off
 * without `cors.origins`). Preflights are answered here; other replies get the allow headers.
 * https://fetch.spec.whatwg.org/#http-cors-protocol
 */
import type { Reply } from '../flows/reply.ts';
import type { CallerRequest } from './inbound.ts';

/**
 * What a browser caller's script may read of an answer: the request id, the loss report, the
 * upstream that answered, whether a token count or usage is estimated, that an answer is a
 * dry-run, when a hosted image expires, and when to retry a limited request.
 */
const EXPOSED = 'x-request-id, x-interlingua-warnings, x-interlingua-upstream, x-interlingua-token-count, x-interlingua-dry-run, x-interlingua-expires-at, retry-after';
const METHODS = 'GET, HEAD, POST, PUT, DELETE, PATCH';

export interface Cors {
  /** The answer to a preflight (`OPTIONS` with `access-control-request-method`), else undefined. */
  preflight(req: CallerRequest): Reply | undefined;
  /** Add the allow headers to a reply for `req`'s origin. */
  decorate(req: CallerRequest, reply: Reply): Reply;
}

export function createCors(origins: readonly string[]): Cors {
  const any = origins.includes('*');
  const allowed = (origin: string | undefined) => (origin === undefined ? undefined : any ? '*' : origins.includes(origin) ? origin : undefined);
  return {
    preflight(req) {
      if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return undefined;
      const origin = allowed(req.headers.origin);
      const headers: Record<string, string> = { vary: 'Origin' };
      if (origin) {
        headers['access-control-allow-origin'] = origin;
        headers['access-control-allow-methods'] = METHODS;
        const asked = req.headers['access-control-request-headers'];
        if (asked) headers['access-control-allow-headers'] = asked;
        headers['access-control-max-age'] = '600';
      }
      return { status: 204, headers, body: null };
    },
    decorate(req, reply) {
      const origin = allowed(req.headers.origin);
      if (!origin) return reply;
      reply.headers['access-control-allow-origin'] = origin;
      reply.headers['access-control-expose-headers'] = EXPOSED;
      if (!any) reply.headers.vary = reply.headers.vary ? `${reply.headers.vary}, Origin` : 'Origin';
      return reply;
    },
  };
}
