/**
 * Azure OpenAI. The URL style follows `apiVersion`
 * (https://learn.microsoft.com/azure/ai-foundry/openai/api-version-lifecycle):
 *
 * - `v1`, the default: `{baseUrl}/openai/v1{path}` with the model in the body, like OpenAI's own
 *   API: chat, images, the model list, Responses. `preview` is the same with `?api-version=preview`.
 * - a dated version (`2024-10-21`): `{baseUrl}/openai/deployments/{deployment}{path}?api-version=…`,
 *   the routed model name being the deployment (one encoded path segment). That style has no model
 *   list, and no Responses API: Responses paths always go to `/openai/v1/responses`.
 *
 * `baseUrl` is the resource (`https://RES.openai.azure.com`, a custom domain, a proxy, a mock); a
 * base pasted with `/openai` or `/openai/v1` already on it is taken as the resource, and its query
 * is kept (`joinUrl`). The key goes in `api-key`, not `Authorization`; a Microsoft Entra ID token
 * (a JWT) stays a Bearer token, which Azure takes as such.
 */
import { modelSegment } from '../../kit/index.ts';
import type { Upstream } from '../../config/load.ts';
import type { Provider } from './types.ts';
import { joinUrl } from './url.ts';
import { unsendableModel } from '../../canonical/index.ts';

/** Paths of the Responses API, which Azure serves under v1 only. */
const RESPONSES = /^\/responses(?:[/?]|$)/;

/** A JWT (`header.payload.signature`, base64url): an Entra ID token, sent as `Authorization: Bearer`. */
const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;

/** The resource root: the base without a pasted `/openai` or `/openai/v1`, its query kept. */
function resourceRoot(baseUrl: string): { root: string; query: string } {
  const q = baseUrl.indexOf('?');
  const head = q < 0 ? baseUrl : baseUrl.slice(0, q);
  const query = q < 0 ? '' : baseUrl.slice(q);
  return { root: head.replace(/\/+$/, '').replace(/\/openai(?:\/v1)?$/i, ''), query };
}

export function azureProvider(upstream: Upstream): Provider {
  const version = upstream.apiVersion ?? 'v1';
  const v1 = version === 'v1' || version === 'preview';
  const { root, query } = resourceRoot(upstream.baseUrl);
  const base = root + query;
  // A base that names its own api-version keeps it: never a second one.
  const versioned = /[?&]api-version=/i.test(query);
  const withVersion = (path: string, value: string) => (versioned ? path : `${path}${path.includes('?') ? '&' : '?'}api-version=${encodeURIComponent(value)}`);

  return {
    listsModels: v1,
    // https://learn.microsoft.com/azure/foundry/openai/how-to/prompt-caching
    takesPromptCacheKey: true,
    url(req, ctx) {
      if (v1 || RESPONSES.test(req.path)) {
        const path = `/openai/v1${req.path}`;
        return joinUrl(base, version === 'preview' ? withVersion(path, 'preview') : path);
      }
      if (req.path === '/models' || req.path.startsWith('/models?')) return joinUrl(base, withVersion(`/openai${req.path}`, version));
      return joinUrl(base, withVersion(`/openai/deployments/${modelSegment(ctx.model, unsendableModel)}${req.path}`, version));
    },
    headers(headers) {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) {
        const token = name.toLowerCase() === 'authorization' ? /^Bearer\s+(.+)$/i.exec(value)?.[1] : undefined;
        if (token !== undefined && !JWT.test(token)) out['api-key'] = token;
        else out[name] = value;
      }
      return out;
    },
  };
}
