/**
 * The images flow: decode → route → plan for the image upstream (one or several calls) → call →
 * merge → deliver in the format the caller asked for (hosting base64 at a URL, or fetching a URL
 * into base64) → the caller's images response. The HTTP edge reads the body (JSON or multipart).
 */
import type { ImageRequest } from '../canonical/index.ts';
import type { CallerInput } from '../../translators/types.ts';
import type { RequestScope } from '../observe/scope.ts';
import { ProxyError } from '../canonical/index.ts';
import { findHosted } from '../upstream/image-store.ts';
import { resolveModel } from '../upstream/resolve.ts';
import type { FlowDeps } from './context.ts';
import { deliverImages, imageUpstreamOf, planImages, runImageCalls } from './image-calls.ts';
import { dryRunReply } from './plan.ts';
import { jsonReply, type Reply } from './reply.ts';

export interface ImageCall {
  input: CallerInput;
  op: ImageRequest['op'];
  /** Where the caller reached the proxy, for hosted image URLs. */
  origin: string;
  callerKey?: string;
}

export async function imageFlow(deps: FlowDeps, scope: RequestScope, call: ImageCall): Promise<Reply> {
  const caller = deps.registry.imageCaller;
  scope.log.caller = caller.id;
  const decoded = caller.decodeImageRequest(call.input, call.op, scope);
  scope.warn(decoded.warnings);
  const imageReq = decoded.value;
  scope.log.model = imageReq.model;

  const resolved = resolveModel(deps.config, imageReq.model);
  if (resolved.route?.strict) scope.flags.strict = true;
  const first = resolved.targets[0]!;
  const upstream = imageUpstreamOf(deps, first, imageReq.model);
  const plans = planImages(deps, scope, upstream, first, imageReq, call.callerKey);
  if (scope.flags.dryRun) return dryRunReply(scope, plans[0]!);
  const merged = await runImageCalls(deps, scope, upstream, plans, imageReq);
  const delivered = await deliverImages(deps, scope, merged, imageReq.responseFormat, call.origin, first.upstream.baseUrl);
  return jsonReply(scope, caller.encodeImageResponse(delivered, imageReq));
}

/** A hosted image's bytes (no key needed: the unguessable URL is the capability). */
export async function hostedImageReply(deps: FlowDeps, scope: RequestScope, name: string, now: number): Promise<Reply> {
  const item = await findHosted(deps.imageStore, name);
  if (!item) throw new ProxyError('not-found', 'This image does not exist or has expired (hosted images last 60 minutes).', { code: 'image_not_found' });
  const maxAge = Math.max(0, Math.floor((item.expiresAt - now) / 1000));
  const headers = { 'content-type': item.mediaType, 'cache-control': `private, max-age=${maxAge}`, 'x-content-type-options': 'nosniff', 'x-request-id': scope.requestId };
  return { status: 200, headers, body: item.bytes };
}
