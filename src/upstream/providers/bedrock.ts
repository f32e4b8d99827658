/**
 * Amazon Bedrock, Claude through the Anthropic dialect.
 * https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
 *
 * - URL: `{base}/model/{model}/invoke`, `/invoke-with-response-stream` for streams, and
 *   `/count-tokens` for token counting (CountTokens: the InvokeModel body, base64, in
 *   `{input: {invokeModel: {body}}}`; answer `{inputTokens}`). `?beta=true` means nothing here.
 * - Body: no `model`, no `stream`, `anthropic_version: bedrock-2023-05-31`, betas as
 *   `anthropic_beta` — only those Bedrock documents (BEDROCK_BETAS, extended by the upstream's
 *   `anthropicBetaAllow`); any other is dropped and reported.
 * - Model ids (`anthropic.claude-…-v1:0`, `us.anthropic…`, ARNs) are one path segment, encoded
 *   as the AWS SDKs do (`:` → `%3A`, `/` → `%2F`).
 * - Credentials: a Bedrock API key (`apiKey`, sent as `Authorization: Bearer`), or SigV4
 *   (aws4fetch, WebCrypto) with signing name `bedrock`, made per try at call time, never for a
 *   dry-run. The canonical URI encodes the path as sent once more (non-S3 rule), so `%3A` is
 *   signed as `%253A`.
 * - Streams are the AWS event stream: `chunk` events carry the Anthropic SSE events as base64
 *   `{"bytes": …}`; exception messages become Anthropic `error` events (see AWS_ERROR_TYPES).
 * - Errors: `{"message": …}` with `x-amzn-ErrorType` is rewritten into Anthropic's envelope with
 *   the matching type before the dialect decodes it, by the same table as stream exceptions.
 */
import { AwsV4Signer } from 'aws4fetch';
import { base64ToUtf8, ProxyError, type SseEvent } from '../../canonical/index.ts';
import type { UpstreamHttpRequest, UpstreamOptions } from '../../../translators/types.ts';
import type { Upstream } from '../../config/load.ts';
import { ParseError } from 'eventsource-parser';
import type { SseChunkParser } from '../../sse/parse.ts';
import { EventStreamDecoder, type EventStreamMessage } from './event-stream.ts';
import type { AuthorizeContext, OutgoingRequest, Provider, ProviderContext } from './index.ts';

export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';
/** What invoke-with-response-stream answers with. */
export const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';
/** SigV4 signing name of bedrock-runtime (not the host's first label). */
export const SIGNING_NAME = 'bedrock';

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

/**
 * AWS exception names (HTTP `x-amzn-ErrorType`, stream `:exception-type`, compared without case)
 * → the Anthropic error type that carries the same meaning.
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ResponseStream.html
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 */
const AWS_ERROR_TYPES: Record<string, string> = {
  validationexception: 'invalid_request_error',
  accessdeniedexception: 'permission_error',
  unrecognizedclientexception: 'authentication_error',
  invalidsignatureexception: 'authentication_error',
  incompletesignature: 'authentication_error',
  incompletesignatureexception: 'authentication_error',
  missingauthenticationtoken: 'authentication_error',
  missingauthenticationtokenexception: 'authentication_error',
  expiredtokenexception: 'authentication_error',
  invalidclienttokenid: 'authentication_error',
  resourcenotfoundexception: 'not_found_error',
  throttlingexception: 'rate_limit_error',
  servicequotaexceededexception: 'rate_limit_error',
  modelnotreadyexception: 'overloaded_error',
  serviceunavailableexception: 'overloaded_error',
  modeltimeoutexception: 'timeout_error',
  modelerrorexception: 'api_error',
  modelstreamerrorexception: 'api_error',
  internalserverexception: 'api_error',
};

/** `ValidationException:http://internal.amazon.com/…` or `com.amazon…#ValidationException` → the name. */
function awsErrorName(raw: string | undefined): string | undefined {
  const name = raw?.split(':')[0]?.split('#').pop()?.trim();
  return name || undefined;
}

/** The Anthropic error type of an AWS exception name; undefined when unknown (the status decides). */
export function anthropicErrorType(awsName: string | undefined): string | undefined {
  return awsName ? AWS_ERROR_TYPES[awsName.toLowerCase()] : undefined;
}

function anthropicEnvelope(type: string | undefined, message: string, requestId?: string): string {
  return JSON.stringify({ type: 'error', error: { ...(type ? { type } : {}), message }, ...(requestId ? { request_id: requestId } : {}) });
}

function header(headers: Record<string, string>, name: string): string | undefined {
  return headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

/**
 * A Bedrock error body in Anthropic's envelope: AWS's `{"message"}` (or `Message`) typed by
 * `x-amzn-ErrorType` (or `__type`/`code` in the body). A body that already is Anthropic's passes.
 */
export function bedrockErrorBody(status: number, body: string, headers: Record<string, string>): string {
  let parsed: Record<string, unknown> | undefined;
  try {
    const p: unknown = JSON.parse(body);
    if (p && typeof p === 'object' && !Array.isArray(p)) parsed = p as Record<string, unknown>;
  } catch {
    parsed = undefined;
  }
  if (parsed?.type === 'error' && parsed.error && typeof parsed.error === 'object') return body;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const name = awsErrorName(header(headers, 'x-amzn-errortype') ?? str(parsed?.__type) ?? str(parsed?.code));
  const message = str(parsed?.message) ?? str(parsed?.Message) ?? (parsed === undefined && body.trim() ? body.trim().slice(0, 500) : undefined) ?? `Bedrock returned HTTP ${status}${name ? ` (${name})` : ''}`;
  return anthropicEnvelope(anthropicErrorType(name), message, header(headers, 'x-amzn-requestid'));
}

/** The model id as one path segment, encoded as the AWS SDKs encode URI labels. */
export function modelSegment(model: string): string {
  return encodeURIComponent(model);
}

/** The Bedrock URL of an Anthropic dialect path. */
export function bedrockUrl(base: string, req: Pick<UpstreamHttpRequest, 'path' | 'stream'>, model: string): string {
  const path = req.path.split('?')[0];
  let action: string;
  if (path === '/v1/messages') action = req.stream ? 'invoke-with-response-stream' : 'invoke';
  else if (path === '/v1/messages/count_tokens') action = 'count-tokens';
  else throw new ProxyError('unsupported', `Amazon Bedrock serves Claude through the Anthropic Messages API only (not ${path}).`);
  return `${base.replace(/\/+$/, '')}/model/${modelSegment(model)}/${action}`;
}

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** `YYYYMMDDTHHMMSSZ`, SigV4's time stamp. */
export function amzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[:-]|\.\d{3}/g, '');
}

/**
 * SigV4 headers for a request (aws4fetch): `x-amz-date`, `x-amz-security-token` with a session
 * token, and `authorization`. Signs `host` and every header given except those aws4fetch leaves
 * unsigned (content-type, content-length, user-agent…), and the SHA-256 of the body.
 */
export async function signSigV4(
  req: OutgoingRequest,
  creds: AwsCredentials,
  o: { region: string; service: string; now: number; cache?: Map<string, ArrayBuffer> },
): Promise<Record<string, string>> {
  if (req.body !== undefined && typeof req.body !== 'string') throw new ProxyError('unsupported', 'Amazon Bedrock takes JSON bodies only.');
  const signer = new AwsV4Signer({
    method: req.method,
    url: req.url,
    headers: req.headers,
    body: req.body,
    accessKeyId: creds.accessKeyId,
    secretAccessKey: creds.secretAccessKey,
    sessionToken: creds.sessionToken,
    service: o.service,
    region: o.region,
    datetime: amzDate(o.now),
    cache: o.cache,
  });
  const signed = await signer.sign();
  const out: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

const payloadDecoder = new TextDecoder();

/** `event: error` with Anthropic's envelope: the anthropic stream decoder makes it an error event. */
function errorEvent(type: string | undefined, message: string): SseEvent {
  return { event: 'error', data: anthropicEnvelope(type ?? 'api_error', message) };
}

function stringHeader(m: EventStreamMessage, name: string): string | undefined {
  const v = m.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/** The SSE event of one event-stream message; undefined for events it does not carry (skipped). */
function sseOfMessage(m: EventStreamMessage): SseEvent | undefined {
  const kind = stringHeader(m, ':message-type');
  if (kind === 'exception') {
    const name = stringHeader(m, ':exception-type');
    let message: string | undefined;
    try {
      const p = JSON.parse(payloadDecoder.decode(m.payload)) as { message?: unknown; Message?: unknown; originalMessage?: unknown };
      const s = [p.message, p.Message, p.originalMessage].find((x) => typeof x === 'string' && x);
      message = s as string | undefined;
    } catch {
      message = undefined;
    }
    return errorEvent(anthropicErrorType(name), message ?? `Bedrock stream exception${name ? ` ${name}` : ''}`);
  }
  if (kind === 'error') {
    const code = stringHeader(m, ':error-code');
    return errorEvent(anthropicErrorType(code), stringHeader(m, ':error-message') ?? `Bedrock stream error${code ? ` ${code}` : ''}`);
  }
  if (kind !== 'event' || stringHeader(m, ':event-type') !== 'chunk') return undefined;
  let text: string | undefined;
  try {
    const p = JSON.parse(payloadDecoder.decode(m.payload)) as { bytes?: unknown };
    text = typeof p.bytes === 'string' ? base64ToUtf8(p.bytes, true) : undefined;
  } catch {
    text = undefined;
  }
  if (text === undefined) return errorEvent('api_error', 'Bedrock sent a stream chunk without base64 JSON bytes.');
  // The event name is the JSON's `type` (the decoder reads the JSON either way).
  const type = /^\s*\{\s*"type"\s*:\s*"([A-Za-z_]+)"/.exec(text)?.[1];
  return type ? { event: type, data: text } : { data: text };
}

/**
 * Bedrock's event stream as SSE events for the one pipeline (`Provider.streamParser`): a frame
 * over `maxFrameBytes` sets `error` (the pipeline's frame-size failure); broken framing (either
 * checksum, impossible lengths, bad headers) or a body that ends inside a frame becomes an error
 * event, and nothing after it is read.
 */
export function createBedrockStreamParser(maxFrameBytes: number): SseChunkParser {
  const decoder = new EventStreamDecoder(maxFrameBytes);
  let sawBytes = false;
  let eventCount = 0;
  let error: ParseError | undefined;
  let broken = false;

  const collect = (messages: EventStreamMessage[]): SseEvent[] => {
    const out: SseEvent[] = [];
    for (const m of messages) {
      const e = sseOfMessage(m);
      if (e) out.push(e);
    }
    const failure = decoder.failure;
    if (failure && !broken) {
      broken = true;
      if (failure.type === 'too-large') error = new ParseError(`Bedrock event stream ${failure.message}`, { type: 'max-buffer-size-exceeded' });
      else out.push(errorEvent('api_error', `Bedrock event stream is corrupt: ${failure.message}.`));
    }
    eventCount += out.length;
    return out;
  };

  return {
    push(chunk) {
      if (chunk.byteLength > 0) sawBytes = true;
      return collect(decoder.push(chunk));
    },
    finish() {
      if (broken || decoder.pending === 0) return [];
      broken = true;
      eventCount++;
      return [errorEvent('api_error', `Bedrock event stream ended inside a frame (${decoder.pending} bytes of it received).`)];
    },
    get sawBytes() {
      return sawBytes;
    },
    get eventCount() {
      return eventCount;
    },
    get error() {
      return error;
    },
  };
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

