/**
 * Amazon Bedrock, Claude through the Anthropic dialect: the URL and the body knobs here; SigV4 in
 * bedrock-sigv4.ts, the event stream in bedrock-stream.ts, errors in bedrock-errors.ts.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
 *
 * - URL: `{base}/model/{model}/invoke` (also for the embedding models' own bodies, which come with
 *   that path), `/invoke-with-response-stream` for streams, and
 *   `/count-tokens` for token counting (CountTokens: the InvokeModel body, base64, in
 *   `{input: {invokeModel: {body}}}`; answer `{inputTokens}`). `?beta=true` means nothing here.
 *   A base with a query (a VPC endpoint or proxy that wants one) keeps it after the path.
 * - Body: no `model`, no `stream`, `anthropic_version: bedrock-2023-05-31`, betas as
 *   `anthropic_beta` — only those Bedrock documents (BEDROCK_BETAS, extended by the upstream's
 *   `anthropicBetaAllow`); any other is dropped and reported.
 * - Model ids (`anthropic.claude-…-v1:0`, `us.anthropic…`, ARNs) are one path segment, encoded
 *   as the AWS SDKs do (`:` → `%3A`, `/` → `%2F`) by the shared `modelSegment`, which refuses
 *   `.`, `..` and the empty name (no encoding keeps them one segment).
 * - Credentials: a Bedrock API key (`apiKey`, sent as `Authorization: Bearer`), or SigV4 with
 *   signing name `bedrock`, made per try at call time, never for a dry-run.
 * - Streams are the AWS event stream, read as the Anthropic SSE events it carries.
 * - Errors: AWS's `{"message": …}` is rewritten into Anthropic's envelope before the dialect
 *   decodes it; credentials an AWS message echoes are masked.
 */
import { modelSegment } from '../../kit/index.ts';
import { ProxyError, unsendableModel } from '../../canonical/index.ts';
import type { UpstreamHttpRequest, UpstreamOptions } from '../../../translators/types.ts';
import type { Upstream } from '../../config/load.ts';
import { bedrockErrorBody } from './bedrock-errors.ts';
import { signSigV4, SIGNING_NAME, type AwsCredentials } from './bedrock-sigv4.ts';
import { createBedrockStreamParser, EVENT_STREAM_TYPE } from './bedrock-stream.ts';
import type { AuthorizeContext, OutgoingRequest, Provider, ProviderContext } from './types.ts';
import { joinUrl } from './url.ts';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * Betas Bedrock documents for Claude (`anthropic_beta` in the InvokeModel body), by family: the
 * request/response reference and the tool use, extended thinking, context window and context
 * management pages of the Bedrock user guide. Others are refused there ("invalid beta flag").
 */
export const BEDROCK_BETAS: readonly string[] = [
  'computer-use-*',
  'token-efficient-tools-*',
  'interleaved-thinking-*',
  'output-128k-*',
  'dev-full-thinking-*',
  'context-1m-*',
  'context-management-*',
  'effort-*',
  'tool-search-tool-*',
  'tool-examples-*',
  'fine-grained-tool-streaming-*',
];

/** The Bedrock URL of an Anthropic dialect path: the base's own query, if any, after the path. */
export function bedrockUrl(base: string, req: Pick<UpstreamHttpRequest, 'path' | 'stream'>, model: string): string {
  const path = req.path.split('?')[0]!;
  // An embedding model's own InvokeModel body (Titan, Cohere): the path as the AWS SDKs send it.
  if (/^\/model\/[^/]+\/invoke$/.test(path)) return joinUrl(base, path);
  let action: string;
  if (path === '/v1/messages') action = req.stream ? 'invoke-with-response-stream' : 'invoke';
  else if (path === '/v1/messages/count_tokens') action = 'count-tokens';
  else throw new ProxyError('unsupported', `Amazon Bedrock serves Claude through the Anthropic Messages API only (not ${path}).`);
  return joinUrl(base, `/model/${modelSegment(model, unsendableModel)}/${action}`);
}

/** The provider of one Bedrock upstream (its SigV4 key cache is its own). */
export function bedrock(upstream: Upstream): Provider {
  const cache = new Map<string, ArrayBuffer>();
  const region = upstream.region!;
  const creds: AwsCredentials | undefined =
    upstream.apiKey || !upstream.accessKeyId || !upstream.secretAccessKey
      ? undefined
      : { accessKeyId: upstream.accessKeyId, secretAccessKey: upstream.secretAccessKey, sessionToken: upstream.sessionToken };
  const options: Partial<UpstreamOptions> = {
    modelInBody: false,
    streamInBody: false,
    anthropicVersionInBody: BEDROCK_ANTHROPIC_VERSION,
    betasInBody: true,
    countTokensBody: 'invoke-model',
    anthropicBetaAllow: [...BEDROCK_BETAS, ...(upstream.anthropicBetaAllow ?? [])],
  };
  // Credentials an AWS error message might echo (an access key id in a signature mismatch).
  const secrets = [upstream.apiKey, upstream.accessKeyId, upstream.secretAccessKey, upstream.sessionToken].filter((s): s is string => !!s && s.length >= 4);
  const scrub = (text: string) => secrets.reduce((t, s) => t.split(s).join('***'), text);

  return {
    listsModels: false,
    options: () => options,
    url: (req, ctx: ProviderContext) => bedrockUrl(ctx.upstream.baseUrl, req, ctx.model),
    headers(h) {
      // Never the dialect's x-api-key (a caller's key forwarded to an open proxy included).
      const { 'x-api-key': _key, ...rest } = h;
      return upstream.apiKey ? { ...rest, authorization: `Bearer ${upstream.apiKey}` } : rest;
    },
    async authorize(req: OutgoingRequest, ctx: AuthorizeContext) {
      if (!creds) return req.headers;
      return signSigV4(req, creds, { region, service: SIGNING_NAME, now: ctx.now(), cache });
    },
    streamParser: createBedrockStreamParser,
    streamContentType: EVENT_STREAM_TYPE,
    errorBody: (status, body, headers) => bedrockErrorBody(status, scrub(body), headers),
  };
}

