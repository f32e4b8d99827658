/**
 * The images flow: decode (JSON or multipart) → route → encode for the image upstream (one or
 * several calls) → merge → deliver in the format the caller asked for (hosting base64 at a URL,
 * or fetching a URL into base64) → the caller's images response.
 */
import { ProxyError, type ImageRequest, type ImageResponse, type ImageUsage } from '../canonical/index.ts';
import type { ImageUpstream } from '../../translators/types.ts';
import type { FlowDeps } from './chat-flow.ts';
import { upstreamTarget } from './chat-flow.ts';
import { fetchImageAsBase64, hostImage, publicOrigin } from './image-host.ts';
import { callerInput, readCapped, parseJsonBody, tooLarge, type BodyReader, type Inbound } from './inbound.ts';
import { resolveModel, type ResolvedTarget } from './resolve.ts';
import { jsonReply, type Reply } from './respond.ts';
import type { RequestScope } from './scope.ts';
import { callUpstream } from './upstream-call.ts';

async function readImageBody(deps: FlowDeps, req: Request, op: ImageRequest['op'], readBody: BodyReader, incoming: unknown): Promise<unknown> {
  if (op === 'generate') return parseJsonBody(await readBody(req, deps.config.limits.maxBodyBytes, incoming));
  const type = req.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new ProxyError('invalid-request', `The images ${op === 'edit' ? 'edits' : 'variations'} route takes multipart/form-data, not '${type || 'no content type'}'.`);
  }
  const limit = deps.config.limits.maxMultipartBytes;
  const bytes = await readCapped(req.body, req.headers.get('content-length'), limit, () => tooLarge(limit));
  let form: FormData;
  try {
    // The platform's own multipart parser, on bytes already read under the limit.
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ProxyError('invalid-request', 'The multipart body could not be parsed.');
  }
  return deps.registry.readImageForm(form);
}

/** The image upstream for a route's first target, or the 400 for a chat-only upstream. */
export function imageUpstreamOf(deps: FlowDeps, first: ResolvedTarget, model: string): ImageUpstream {
  const upstream = deps.registry.imageUpstreams[first.upstream.dialect];
  if (!upstream) {
    throw new ProxyError(
      'unsupported',
      `The upstream '${first.upstream.name}' (${first.upstream.dialect}) cannot generate images; route '${model}' to an OpenAI or Gemini image model.`,
      { param: 'model', code: 'unsupported_model' },
    );
  }
  return upstream;
}

function sumUsage(list: Array<ImageUsage | undefined>): ImageUsage | undefined {
  const present = list.filter((u): u is ImageUsage => !!u);
  if (present.length === 0) return undefined;
  const sum = (k: keyof ImageUsage) => {
    const values = present.map((u) => u[k]).filter((n): n is number => typeof n === 'number');
    return values.length > 0 ? values.reduce((a, b) => a + b, 0) : undefined;
  };
  const text = sum('inputTextTokens');
  const image = sum('inputImageTokens');
  return {
    inputTokens: sum('inputTokens') ?? 0,
    outputTokens: sum('outputTokens') ?? 0,
    totalTokens: sum('totalTokens') ?? 0,
    ...(text !== undefined ? { inputTextTokens: text } : {}),
    ...(image !== undefined ? { inputImageTokens: image } : {}),
  };
}

/** Encode, call (every fan-out request in parallel), decode and merge in order. */
export async function runImageCall(
  deps: FlowDeps,
  scope: RequestScope,
  upstream: ImageUpstream,
  first: ResolvedTarget,
  imageReq: ImageRequest,
  callerKey: string | undefined,
): Promise<ImageResponse> {
  const target = upstreamTarget(first, callerKey, deps.config);
  const enc = upstream.encodeImageRequest(imageReq, target, scope);
  scope.warn(enc.warnings);
  const results = await Promise.all(
    enc.value.map(async (request) => {
      const success = await callUpstream(deps.fetch, scope, {
        targets: [first],
        build: () => request,
        decodeError: (_t, status, body, headers) => upstream.decodeError(status, body, headers),
      });
      const text = await success.res.text();
      scope.markFirstByte();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ProxyError('upstream', 'Upstream returned an image response that is not JSON.', { raw: text.slice(0, 2000) });
      }
      return upstream.decodeImageResponse(body, imageReq, scope);
    }),
  );
  const usage = sumUsage(results.map((r) => r.usage));
  return { ...results[0]!, images: results.flatMap((r) => r.images), ...(usage ? { usage } : {}) };
}

/**
 * Each image in the format asked for: base64 the upstream sent is hosted when a URL was wanted;
 * a URL is fetched (from the upstream's host only) when base64 was wanted; no preference keeps
 * what came.
 */
export async function deliverImages(
  deps: FlowDeps,
  scope: RequestScope,
  res: ImageResponse,
  format: ImageRequest['responseFormat'],
  origin: string,
  upstreamBaseUrl: string,
): Promise<ImageResponse> {
  if (format === undefined) return res;
  const images = await Promise.all(
    res.images.map(async (image) => {
      if (format === 'url' && image.url === undefined && image.b64 !== undefined) {
        if (!deps.imageStore) throw new ProxyError('upstream', 'No image store is configured to host images at a URL.', { status: 500 });
        const { b64: _b64, ...rest } = image;
        return { ...rest, url: await hostImage(deps.imageStore, origin, image) };
      }
      if (format === 'b64_json' && image.b64 === undefined && image.url !== undefined) {
        return fetchImageAsBase64(deps.guardedFetch, upstreamBaseUrl, image, scope.upstreamAbort.signal);
      }
      return image;
    }),
  );
  return { ...res, images };
}

export async function imageFlow(
  deps: FlowDeps,
  scope: RequestScope,
  req: Request,
  inbound: Inbound,
  op: ImageRequest['op'],
  readBody: BodyReader,
  incoming: unknown,
): Promise<Reply> {
  const caller = deps.registry.imageCaller;
  scope.log.caller = caller.id;
  const input = callerInput(inbound, await readImageBody(deps, req, op, readBody, incoming));
  const decoded = caller.decodeImageRequest(input, op, scope);
  scope.warn(decoded.warnings);
  const imageReq = decoded.value;
  scope.log.model = imageReq.model;

  const first = resolveModel(deps.config, imageReq.model).targets[0]!;
  const upstream = imageUpstreamOf(deps, first, imageReq.model);
  const merged = await runImageCall(deps, scope, upstream, first, imageReq, inbound.credential);
  const delivered = await deliverImages(deps, scope, merged, imageReq.responseFormat, publicOrigin(req), first.upstream.baseUrl);
  return jsonReply(scope, caller.encodeImageResponse(delivered, imageReq));
}
