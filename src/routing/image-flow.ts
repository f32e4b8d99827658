/**
 * The images flow: decode (JSON or multipart) → route → encode for the image upstream (one or
 * several calls) → merge → the caller's images response.
 */
import { ProxyError, type ImageRequest, type ImageResponse } from '../canonical/index.ts';
import type { FlowDeps } from './chat-flow.ts';
import { upstreamTarget } from './chat-flow.ts';
import { callerInput, parseJsonBody, tooLarge, type BodyReader } from './inbound.ts';
import { resolveModel } from './resolve.ts';
import { jsonResponse } from './respond.ts';
import type { RequestScope } from './scope.ts';
import { callUpstream } from './upstream-call.ts';
import { callerCredential } from './auth.ts';

async function readImageBody(deps: FlowDeps, req: Request, op: ImageRequest['op'], readBody: BodyReader, incoming: unknown): Promise<unknown> {
  if (op === 'generate') return parseJsonBody(await readBody(req, deps.config.limits.maxBodyBytes, incoming));
  const type = req.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new ProxyError('invalid-request', `The images ${op === 'edit' ? 'edits' : 'variations'} route takes multipart/form-data, not '${type || 'no content type'}'.`);
  }
  const limit = deps.config.limits.maxMultipartBytes;
  if (Number(req.headers.get('content-length') ?? 0) > limit) throw tooLarge(limit);
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    throw new ProxyError('invalid-request', 'The multipart body could not be parsed.');
  }
  return deps.registry.readImageForm(form);
}

export async function imageFlow(
  deps: FlowDeps,
  scope: RequestScope,
  req: Request,
  op: ImageRequest['op'],
  readBody: BodyReader,
  incoming: unknown,
): Promise<Response> {
  const caller = deps.registry.imageCaller;
  scope.log.caller = caller.id;
  const input = callerInput(req, await readImageBody(deps, req, op, readBody, incoming));
  const decoded = caller.decodeImageRequest(input, op, scope);
  scope.warn(decoded.warnings);
  const imageReq = decoded.value;
  scope.log.model = imageReq.model;

  const resolved = resolveModel(deps.config, imageReq.model);
  const first = resolved.targets[0]!;
  const upstream = deps.registry.imageUpstreams[first.upstream.dialect];
  if (!upstream) {
    throw new ProxyError(
      'unsupported',
      `The upstream '${first.upstream.name}' (${first.upstream.dialect}) cannot generate images; route '${imageReq.model}' to an OpenAI or Gemini image model.`,
      { param: 'model' },
    );
  }
  const target = upstreamTarget(first, callerCredential(req.headers, input.query), deps.config);
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
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new ProxyError('upstream', 'Upstream returned an image response that is not JSON.');
      }
      return upstream.decodeImageResponse(body, imageReq, scope);
    }),
  );
  const merged: ImageResponse = {
    ...results[0]!,
    images: results.flatMap((r) => r.images),
    usage: results.some((r) => r.usage)
      ? {
          inputTokens: results.reduce((n, r) => n + (r.usage?.inputTokens ?? 0), 0),
          outputTokens: results.reduce((n, r) => n + (r.usage?.outputTokens ?? 0), 0),
          totalTokens: results.reduce((n, r) => n + (r.usage?.totalTokens ?? 0), 0),
        }
      : undefined,
  };
  return jsonResponse(scope, caller.encodeImageResponse(merged, imageReq));
}
