/**
 * What the two Bedrock embedding wire forms share: the InvokeModel path (`/model/{id}/invoke`, the
 * model one encoded segment, as the AWS SDKs send it; the bedrock provider puts it under its
 * base and signs it), text only, the size check, and the errors (the bedrock provider rewrites
 * AWS's `{"message"}` into Anthropic's envelope before any dialect reads them).
 */
import { modelSegment } from '../../src/kit/index.ts';
import { ProxyError, kindOfStatus, unsendableModel, type EmbeddingRequest, type ErrorKind } from '../../src/canonical/index.ts';
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';

export function invokeRequest(target: UpstreamTarget, body: unknown): UpstreamHttpRequest {
  return {
    method: 'POST',
    path: `/model/${modelSegment(target.model, unsendableModel)}/invoke`,
    headers: { ...(target.options.headers ?? {}), 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    stream: false,
  };
}

export function textsOf(req: EmbeddingRequest, target: UpstreamTarget): string[] {
  return req.inputs.map((i) => {
    if (i.type === 'tokens') throw new ProxyError('invalid-request', `The upstream '${target.name}' embeds text only: token arrays cannot be sent to ${target.model}.`, { param: 'input', code: 'invalid_type' });
    return i.text;
  });
}

/** `dimensions` toward a model that gives only some sizes (none: a fixed-size model) is the caller's 400. */
export function checkSize(req: EmbeddingRequest, target: UpstreamTarget, sizes: readonly number[]): void {
  if (req.dimensions === undefined || sizes.includes(req.dimensions)) return;
  const can = sizes.length ? `gives ${sizes.join(', ')} dimensions only` : 'has a fixed size';
  throw new ProxyError('invalid-request', `The model '${req.model}' (${target.model} on ${target.name}) ${can}: ${req.dimensions} dimensions cannot be given.`, { param: 'dimensions', code: 'invalid_value' });
}

export function shape(detail: string): ProxyError {
  return new ProxyError('upstream', `Upstream returned an embeddings response of an unexpected shape (${detail}).`);
}

export const isVector = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number');

const KIND_OF_TYPE: Record<string, ErrorKind> = {
  invalid_request_error: 'invalid-request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not-found',
  rate_limit_error: 'rate-limit',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
};

/** A Bedrock error (in the envelope the provider made of it, or AWS's own `{"message"}`) → ProxyError. */
export function decodeError(status: number, body: string, headers: Record<string, string>): ProxyError {
  let json: { message?: unknown; error?: { type?: unknown; message?: unknown } } | undefined;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const type = typeof json?.error?.type === 'string' ? json.error.type : undefined;
  const message = typeof json?.error?.message === 'string' ? json.error.message : typeof json?.message === 'string' ? json.message : `Upstream returned HTTP ${status}.`;
  const retry = Number(headers['retry-after']);
  return new ProxyError((type && KIND_OF_TYPE[type]) || kindOfStatus(status), message, {
    status,
    raw: body,
    ...(type && { upstreamType: type }),
    ...(Number.isFinite(retry) && retry >= 0 && { retryAfter: retry }),
    ...(headers['x-amzn-requestid'] && { requestId: headers['x-amzn-requestid'] }),
  });
}
