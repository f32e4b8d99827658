/**
 * Google Vertex AI: Gemini and Claude as publisher models of a project and location.
 *
 * | dialect request                      | Vertex AI                                                        |
 * |--------------------------------------|------------------------------------------------------------------|
 * | `/v1beta/models/M:generateContent`   | `{P}/publishers/google/models/M:generateContent`                 |
 * | `…:streamGenerateContent?alt=sse`    | `{P}/publishers/google/models/M:streamGenerateContent?alt=sse`   |
 * | `…:countTokens`                      | `{P}/publishers/google/models/M:countTokens` (body unwrapped)    |
 * | `…:predict` (embeddings)             | `{P}/publishers/google/models/M:predict`                         |
 * | `/v1/messages` (Anthropic)           | `{P}/publishers/anthropic/models/M:rawPredict`, stream: `:streamRawPredict` |
 * | `/v1/messages/count_tokens`          | `{P}/publishers/anthropic/models/count-tokens:rawPredict` (model in the body) |
 * | `/v1beta/interactions[/ID[/cancel]]` | `/v1beta1/projects/{project}/locations/{location}/interactions[/ID[/cancel]]` |
 *
 * `{P}` is `/v1/projects/{project}/locations/{location}`, or `/v1` in express mode (an API key
 * and no project). The host comes from the base URL (by default from the location, see
 * src/config/providers.ts), so an explicit `baseUrl` (Private Service Connect, a proxy, a test
 * mock) changes only scheme and host.
 *
 * The Interactions API (dialect `gemini-interactions`) is served under `v1beta1` of a project and
 * location only, the path `@google/genai` builds for Vertex AI (its `apiVersion` plus
 * `projects/{p}/locations/{l}`); Google's forum answer says express mode (an API key, no project)
 * has no such endpoint, so that is a config error here rather than a 404 at request time.
 *
 * Claude wants no `model` in the body and `anthropic_version: "vertex-2023-10-16"` there instead
 * of the header: https://docs.claude.com/en/api/claude-on-vertex-ai; only the betas Vertex AI
 * documents (VERTEX_BETAS, extended by `anthropicBetaAllow`) are forwarded; its token count:
 * https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens.
 *
 * Credentials: a service-account key (its token fetched, cached and shared, see google-auth.ts),
 * an access token obtained elsewhere (sent as is), or an express-mode API key, sent in
 * `x-goog-api-key` — Google's documented header form of the `key` system parameter
 * (https://cloud.google.com/apis/docs/system-parameters), what `@google/genai` sends in express
 * mode, and it keeps the key out of URLs and logs. OAuth replaces any key header the dialect
 * would send (a caller's forwarded key included).
 */
import { modelSegment } from '../../kit/index.ts';
import { ProxyError, unsendableModel } from '../../canonical/index.ts';
import { parseServiceAccountKey } from '../../config/providers.ts';
import type { Upstream } from '../../config/load.ts';
import type { UpstreamHttpRequest } from '../../../translators/types.ts';
import { serviceAccountTokens, type TokenSource } from './google-auth.ts';
import { CredentialError, type AuthorizeContext, type OutgoingRequest, type Provider, type ProviderContext } from './types.ts';
import { joinUrl } from './url.ts';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/**
 * Betas Vertex AI documents for Claude (`anthropic-beta`, a header there), by family: computer
 * use, the 1M context window, interleaved thinking, context management (context editing, the
 * memory tool), tool search and web search — the Claude pages of the Vertex AI generative AI docs
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude) and Anthropic's
 * feature pages where they name Vertex AI. Others (the Files API, MCP connector, code execution,
 * skills, effort…) are Anthropic API features Vertex refuses or ignores: dropped and reported.
 * The upstream's `anthropicBetaAllow` extends the list.
 */
export const VERTEX_BETAS: readonly string[] = [
  'computer-use-*',
  'context-1m-*',
  'interleaved-thinking-*',
  'context-management-*',
  'tool-search-tool-*',
  'web-search-*',
];

/** What stands for the token in a request shown before any call (dry-run, wire dump): masked there anyway. */
export const TOKEN_PLACEHOLDER = 'Bearer <access token, fetched at call time>';

const GEMINI_PATH = /^\/v1beta\/models\/([^/?:]+):(generateContent|streamGenerateContent|countTokens|predict)(\?[^#]*)?$/;
const MESSAGES_PATH = /^\/v1\/messages(\/count_tokens)?(?:\?[^#]*)?$/;
const INTERACTIONS_PATH = /^\/v1beta\/(interactions(?:\/[^/?#]+(?:\/cancel)?)?)(\?[^#]*)?$/;
const KEY_HEADERS = ['x-goog-api-key', 'x-api-key'];

/**
 * A model name as one path segment. `@` stays as it is (Claude versions: `claude-sonnet-4-5@20250929`,
 * as Anthropic's Vertex SDK sends them); a path segment may hold it (RFC 3986 `pchar`).
 */
function segment(model: string): string {
  return modelSegment(model, unsendableModel).replace(/%40/g, '@');
}

type Auth =
  | { kind: 'service-account'; tokens: TokenSource }
  | { kind: 'token'; token: string }
  | { kind: 'key'; key: string }
  | { kind: 'broken'; problem: string };

function authOf(u: Upstream): Auth {
  if (u.credentials !== undefined) {
    const key = parseServiceAccountKey(u.credentials);
    return 'problem' in key ? { kind: 'broken', problem: `credentials: ${key.problem}` } : { kind: 'service-account', tokens: serviceAccountTokens(key) };
  }
  if (u.accessToken !== undefined) return { kind: 'token', token: u.accessToken };
  if (u.apiKey !== undefined) return { kind: 'key', key: u.apiKey };
  return { kind: 'broken', problem: 'credentials: required for provider "vertex" (or accessToken, or apiKey)' };
}

export function vertex(upstream: Upstream): Provider {
  const auth = authOf(upstream);
  const express = !upstream.project;
  const prefix = express ? '/v1' : `/v1/projects/${encodeURIComponent(upstream.project!)}/locations/${encodeURIComponent(upstream.location ?? 'global')}`;

  function path(req: UpstreamHttpRequest, ctx: ProviderContext): string {
    const gemini = GEMINI_PATH.exec(req.path);
    if (gemini) {
      const [, seg, method, query = ''] = gemini;
      return `${prefix}/publishers/google/models/${segment(decodeURIComponent(seg!))}:${method}${query}`;
    }
    const interactions = INTERACTIONS_PATH.exec(req.path);
    if (interactions && !express) {
      const [, rest, query = ''] = interactions;
      return `/v1beta1/projects/${encodeURIComponent(upstream.project!)}/locations/${encodeURIComponent(upstream.location ?? 'global')}/${rest}${query}`;
    }
    const messages = MESSAGES_PATH.exec(req.path);
    if (messages) {
      // `?beta=true` is the Anthropic SDK's marker; it means nothing on Vertex AI.
      if (messages[1]) return `${prefix}/publishers/anthropic/models/count-tokens:rawPredict`;
      return `${prefix}/publishers/anthropic/models/${segment(ctx.model)}:${req.stream ? 'streamRawPredict' : 'rawPredict'}`;
    }
    throw new ProxyError('unsupported', `Upstream '${upstream.name}' (Vertex AI) has no equivalent of ${req.method} ${req.path.split('?')[0]}.`, { status: 501 });
  }

  const provider: Provider = {
    listsModels: false,

    options: () =>
      upstream.dialect === 'anthropic'
        ? {
            modelInBody: false,
            countTokensModelInBody: true,
            anthropicVersionInBody: upstream.anthropicVersion?.startsWith('vertex-') ? upstream.anthropicVersion : VERTEX_ANTHROPIC_VERSION,
            anthropicBetaAllow: [...VERTEX_BETAS, ...(upstream.anthropicBetaAllow ?? [])],
          }
        : { countTokensBody: 'direct' },

    url: (req, ctx) => joinUrl(ctx.upstream.baseUrl, path(req, ctx)),

    headers(headers) {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (!KEY_HEADERS.includes(k.toLowerCase())) out[k] = v;
      if (auth.kind === 'key') out['x-goog-api-key'] = auth.key;
      else out.authorization = TOKEN_PLACEHOLDER;
      return out;
    },
  };

  if (auth.kind !== 'key') {
    provider.authorize = async (req: OutgoingRequest, ctx: AuthorizeContext) => {
      let token: string;
      switch (auth.kind) {
        case 'token':
          token = auth.token;
          break;
        case 'service-account':
          token = await auth.tokens({ fetch: ctx.fetch, now: ctx.now, timeoutMs: upstream.timeouts.firstByteMs, upstream: upstream.name });
          break;
        case 'broken':
          throw new CredentialError('upstream', `Upstream '${upstream.name}' is misconfigured: upstreams.${upstream.name}.${auth.problem}.`, { status: 500, code: 'invalid_credentials' });
      }
      return { ...req.headers, authorization: `Bearer ${token}` };
    };
  }
  return provider;
}
