/**
 * The dialect contract. Every dialect folder exports one object implementing the caller side,
 * the upstream side, or both. Translators are pure: no I/O, no clock or randomness except
 * through `TranslateContext`, no mutation of inputs, no import of Hono or another dialect.
 */
import type {
  ChatRequest,
  ChatResponse,
  Converted,
  DialectId,
  ImageRequest,
  ImageResponse,
  ProxyError,
  SseEvent,
  StreamEvent,
  StreamFrame,
  StreamStep,
  Vendor,
} from '../src/canonical/index.ts';

/** Clock and ids for one request, injected so translators stay deterministic under test. */
export interface TranslateContext {
  /** Unix milliseconds. */
  now(): number;
  /** A fresh unique id, e.g. `newId('chatcmpl-')`. */
  newId(prefix: string): string;
}

/** What the caller sent, as the route saw it. */
export interface CallerInput {
  /** Parsed JSON body (or `FormData` for multipart image routes). */
  body: unknown;
  /** Lowercased header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Route parameters: `model` (Gemini path), `method` (`generateContent`, …). */
  params: Record<string, string>;
  query: Record<string, string>;
}

/** Per-upstream settings from config that change how requests are encoded. */
export interface UpstreamOptions {
  /** Anthropic: `max_tokens` when the caller gave none. */
  defaultMaxTokens?: number;
  /** Anthropic: `anthropic-version` to send (default `2023-06-01`). */
  anthropicVersion?: string;
  /** Anthropic: `anthropic-beta` values to always send. */
  anthropicBeta?: string[];
  /** Gemini images: an edit's mask is refused (default) or approximated by an instruction. */
  imageMask?: 'refuse' | 'instruction';
  /** Extra headers to send upstream (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
}

/** Where and how one upstream is called. Who hosts it (and so the full URL) is not the translator's business. */
export interface UpstreamTarget {
  /** Config name of the upstream (for messages, never a secret). */
  name: string;
  /** Model name to send (after routing renames). */
  model: string;
  /** Resolved credential: the upstream's own key, or the caller's forwarded one. */
  apiKey?: string;
  options: UpstreamOptions;
}

/**
 * A fully built upstream HTTP request, addressed relative to the upstream's base: the dialect's
 * own path as its vendor SDK appends it to a base URL (`/chat/completions`, `/v1/messages`,
 * `/v1beta/models/m:streamGenerateContent?alt=sse`). The provider the upstream names turns it
 * into the full URL (src/upstream/providers). Never contains a credential.
 */
export interface UpstreamHttpRequest {
  method: 'POST' | 'GET' | 'DELETE';
  /** Path and query, relative to the upstream's base URL; starts with `/`. */
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** The response is SSE. */
  stream: boolean;
}

/** An error as a caller dialect sends it. */
export interface EncodedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface ModelInfo {
  id: string;
  /** Config upstream name serving it. */
  ownedBy: string;
  /** Unix seconds. */
  created: number;
}

/** The caller side of a chat dialect: what it accepts from apps, and what it sends back. */
export interface ChatCaller {
  readonly id: DialectId;
  /** Wire → canonical. Throws `ProxyError` (invalid-request) naming the parameter at fault. */
  decodeRequest(input: CallerInput, ctx: TranslateContext): Converted<ChatRequest>;
  /** Canonical → the dialect's JSON response body. */
  encodeResponse(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): unknown;
  /** Canonical events → the dialect's SSE frames; `finish()` always closes the stream properly. */
  createStreamEncoder(req: ChatRequest, ctx: TranslateContext): StreamStep<StreamEvent, StreamFrame>;
  /** Stream framing the caller asked for (Gemini without `alt=sse` wants a JSON array). */
  streamFraming?(input: CallerInput): 'sse' | 'json-array';
  encodeError(err: ProxyError): EncodedError;
  /** `GET …/models` in this dialect's shape. */
  encodeModelList?(models: ModelInfo[]): unknown;
  /** Token counting route (Anthropic `count_tokens`, Gemini `countTokens`). */
  encodeCountTokensResponse?(inputTokens: number): unknown;
}

/** The upstream side of a chat dialect: how canonical requests are sent to it. */
export interface ChatUpstream {
  readonly id: DialectId;
  readonly vendor: Vendor;
  /** The upstream takes only inline media (image URLs must be fetched and inlined first). */
  readonly inlineMediaOnly?: boolean;
  /** The upstream can return several choices in one call (else `n > 1` fans out). */
  readonly multipleChoices?: boolean;
  /**
   * The upstream takes freeform tools (`Tool.custom`) as they are. Otherwise the flow lowers them
   * before encoding and raises the calls back after decoding (src/canonical/custom-tools.ts:
   * `lowerCustomTools`, `raiseCustomToolCalls`, `raiseCustomToolStream`).
   */
  readonly customTools?: boolean;
  encodeRequest(
    req: ChatRequest,
    target: UpstreamTarget,
    ctx: TranslateContext,
  ): Converted<UpstreamHttpRequest>;
  decodeResponse(body: unknown, req: ChatRequest, ctx: TranslateContext): ChatResponse;
  createStreamDecoder(req: ChatRequest, ctx: TranslateContext): StreamStep<SseEvent, StreamEvent>;
  /** Upstream HTTP error → ProxyError (status kept, raw body kept, retry-after read). */
  decodeError(status: number, body: string, headers: Record<string, string>): ProxyError;
  /**
   * Same dialect on both sides: the request to send when only model and credentials change.
   * `rawBody` is forwarded byte for byte when the model needs no rename.
   */
  encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget): UpstreamHttpRequest;
  /** The upstream's own model list (merged into `GET …/models` behind a short cache). */
  encodeModelListRequest?(target: UpstreamTarget): UpstreamHttpRequest;
  decodeModelList?(body: unknown): string[];
  /** Token counting, where the upstream has an endpoint for it. */
  encodeCountTokens?(req: ChatRequest, target: UpstreamTarget, ctx: TranslateContext): UpstreamHttpRequest;
  decodeCountTokens?(body: unknown): number;
}

export type ChatDialect = ChatCaller & ChatUpstream;

/** The caller side of the images dialect. */
export interface ImageCaller {
  readonly id: DialectId;
  decodeImageRequest(
    input: CallerInput,
    op: ImageRequest['op'],
    ctx: TranslateContext,
  ): Converted<ImageRequest>;
  encodeImageResponse(res: ImageResponse, req: ImageRequest): unknown;
  encodeError(err: ProxyError): EncodedError;
}

/** An upstream that can make images. */
export interface ImageUpstream {
  readonly vendor: Vendor;
  /** One or more calls (a Gemini upstream fans `n` out); results are merged in order. */
  encodeImageRequest(
    req: ImageRequest,
    target: UpstreamTarget,
    ctx: TranslateContext,
  ): Converted<UpstreamHttpRequest[]>;
  decodeImageResponse(body: unknown, req: ImageRequest, ctx: TranslateContext): ImageResponse;
  decodeError(status: number, body: string, headers: Record<string, string>): ProxyError;
}
