/**
 * The provider contract: what a host adapter (azure, vertex, bedrock, the compatible hosts) does
 * to a dialect's request. Its own file so the adapters and the registry (index.ts) both import
 * it, and neither imports the other's caller.
 */
import { ProxyError } from '../../canonical/index.ts';
import type { FetchLike } from '../../kit/index.ts';
import type { UpstreamHttpRequest, UpstreamOptions } from '../../../translators/types.ts';
import type { Upstream } from '../../config/load.ts';
import type { SseChunkParser } from '../../sse/parse.ts';

export interface ProviderContext {
  upstream: Upstream;
  /** The model name sent upstream (after routing renames). */
  model: string;
}

/** A request as it goes on the wire. */
export interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: UpstreamHttpRequest['body'];
}

export interface AuthorizeContext extends ProviderContext {
  /** The upstream client, for token exchanges. */
  fetch: FetchLike;
  /** Unix milliseconds. */
  now(): number;
}

export interface Provider {
  /** Encoder knobs this host needs (merged into the target's options before encoding). */
  options?(ctx: ProviderContext): Partial<UpstreamOptions>;
  /** The full URL of a dialect request (`req.path` relative to the base; `req.stream`). */
  url(req: UpstreamHttpRequest, ctx: ProviderContext): string;
  /** The dialect's headers as this host wants them (a key header renamed): shown, masked, in a dry-run. */
  headers?(headers: Record<string, string>, ctx: ProviderContext): Record<string, string>;
  /**
   * Credentials made at call time — a fetched OAuth token, a request signature over the final
   * URL and body. Returns the headers to send. Never called for a dry-run.
   */
  authorize?(req: OutgoingRequest, ctx: AuthorizeContext): Promise<Record<string, string>>;
  /** This host's stream framing when it is not SSE (Bedrock's AWS event stream), as SSE events. */
  streamParser?(maxFrameBytes: number): SseChunkParser;
  /** The content type of that framing (`application/vnd.amazon.eventstream`), instead of `text/event-stream`. */
  readonly streamContentType?: string;
  /**
   * An error body in the dialect's own shape when this host writes errors its own way (Bedrock's
   * AWS `{"message"}` + `x-amzn-ErrorType` → Anthropic's envelope), before the dialect decodes it.
   */
  errorBody?(status: number, body: string, headers: Record<string, string>): string;
  /** False when the host has no model list in the dialect's shape (it is then not asked). */
  readonly listsModels?: boolean;
  /**
   * The host takes OpenAI's `prompt_cache_key` (OpenAI itself, Azure): a session is sent as one
   * where the request has none. Hosts that do not document it (Mistral refuses unknown fields) are
   * not sent it.
   */
  readonly takesPromptCacheKey?: boolean;
}

/**
 * A credential the host refused before any call was made with it (a token exchange refused, a
 * key that cannot sign): the caller sees it as the ProxyError it is; a key pool moves on to its
 * next credential, as after a 401 (src/upstream/call.ts).
 */
export class CredentialError extends ProxyError {}
