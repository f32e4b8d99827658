/**
 * Image plumbing both image flows share (the images routes, and chat callers asking an image
 * model for images): the image upstream of a target, calling it (a Gemini upstream fans `n` out
 * into several calls), and delivering the images in the format asked for.
 */
import { ProxyError, sumImageUsage, type ImageRequest, type ImageResponse } from '../canonical/index.ts';
import type { ImageUpstream } from '../../translators/types.ts';
import type { RequestScope } from '../observe/scope.ts';
import { fetchImageAsBase64, hostImage } from '../upstream/image-store.ts';
import type { ResolvedTarget } from '../upstream/resolve.ts';
import { callPlanned, type FlowDeps } from './context.ts';
import { planCall } from './plan.ts';
import { upstreamTarget } from '../upstream/target.ts';

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

/** The planned image calls of one request: one attempt list per upstream call (usually one). */
export function planImages(deps: FlowDeps, scope: RequestScope, upstream: ImageUpstream, first: ResolvedTarget, imageReq: ImageRequest, callerKey: string | undefined) {
  const enc = upstream.encodeImageRequest(imageReq, upstreamTarget(first, callerKey, deps.config), scope);
  return enc.value.map((request, i) => planCall(scope, [first], () => ({ request, warnings: i === 0 ? enc.warnings : [], passthrough: false })));
}

/** Call each planned request (in parallel), decode, and merge the images in order. */
export async function runImageCalls(
  deps: FlowDeps,
  scope: RequestScope,
  upstream: ImageUpstream,
  plans: ReturnType<typeof planImages>,
  imageReq: ImageRequest,
): Promise<ImageResponse> {
  const results = await Promise.all(
    plans.map(async (attempts) => {
      const success = await callPlanned(deps, scope, attempts, () => upstream.decodeError);
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
  const usage = sumImageUsage(results.map((r) => r.usage));
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
        const url = await hostImage(deps.imageStore, origin, image);
        if (url === undefined) {
          // Nowhere to host it: the image comes inline instead, and the caller is told.
          scope.warn([{ code: 'approximated', path: 'response_format', detail: 'b64_json' }]);
          return image;
        }
        const { b64: _b64, ...rest } = image;
        return { ...rest, url };
      }
      if (format === 'b64_json' && image.b64 === undefined && image.url !== undefined) {
        return fetchImageAsBase64(deps.guardedFetch, upstreamBaseUrl, image, scope.upstreamAbort.signal);
      }
      return image;
    }),
  );
  return { ...res, images };
}
