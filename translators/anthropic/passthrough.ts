/**
 * Same dialect both sides: the caller's body sent as it is (or its bytes, forwarded), with the
 * caller's version and betas, credentials replaced; a host that wants the body otherwise gets it so.
 */
import type { Warning } from '../../src/canonical/index.ts';
import type { CallerInput, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { betasOf } from './decode-request.ts';
import { forHost, hostless, upstreamHeaders } from './host.ts';

/** `encodePassthrough` for a body forwarded as bytes (only its `model` renamed), where the host takes it as it is. */
export function forwardRequest(input: CallerInput, peeked: { model: string; stream: boolean }, target: UpstreamTarget, warnings?: Warning[]) {
  if (!hostless(target.options)) return undefined;
  const bare = { headers: input.headers, params: input.params, query: input.query, body: peeked };
  // Stryker disable next-line StringLiteral: the body made from it is dropped here
  const { body: _, ...request } = encodePassthrough(bare, '', target, warnings);
  return { request, model: peeked.model === target.model ? undefined : target.model };
}

/**
 * Same dialect both sides: the caller's body byte for byte unless the model is renamed; the
 * caller's `anthropic-version`, `anthropic-beta` and `?beta=true` (the SDK's beta namespace,
 * Claude Code) are forwarded, credentials replaced. Betas outside the upstream's allow-list are
 * not sent (this contract has no warnings to report them in).
 */
export function encodePassthrough(input: CallerInput, rawBody: string, target: UpstreamTarget, warnings?: Warning[]): UpstreamHttpRequest {
  const parsed = input.body && typeof input.body === 'object' ? (input.body as Record<string, unknown>) : {};
  const version = input.headers['anthropic-version'] ?? input.headers['compat-version'];
  const count = input.params.method === 'count_tokens' || input.params.method === 'countTokens';
  const path = count ? '/v1/messages/count_tokens' : '/v1/messages';
  const query = input.query.beta === 'true' ? '?beta=true' : '';
  let headers = upstreamHeaders(target, version, betasOf(input.headers), warnings);
  let body = parsed.model === target.model ? rawBody : JSON.stringify({ ...parsed, model: target.model });
  if (!hostless(target.options)) {
    // A host that wants the body otherwise: the caller's bytes cannot go as they are.
    const [b, h] = forHost({ ...parsed, model: target.model }, headers, target, count);
    body = JSON.stringify(b);
    headers = h;
  }
  return {
    method: 'POST',
    path: `${path}${query}`,
    headers,
    body,
    stream: parsed.stream === true,
  };
}
