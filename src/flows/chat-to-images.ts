/**
 * A chat caller asking for image output (Gemini `responseModalities` with IMAGE) routed to an
 * OpenAI image model: the chat request becomes an images call (a generation, or an edit when the
 * last turn carries images), and the images come back as image parts of a chat response in the
 * caller's dialect; streamed as one chunk per image.
 */
import { chatToImageRequest, imageResponseToChat } from './image-chat.ts';
import { type ChatRequest, type ChatResponse, type StreamFrame } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import { contentTypeOf, createTextSerializer } from '../sse/serialize.ts';
import { inlineRemoteMedia } from '../upstream/guarded-fetch.ts';
import type { ResolvedTarget } from '../upstream/resolve.ts';
import { streamFramingOf, type ChatCall, type FlowDeps } from './context.ts';
import { deliverImages, imageUpstreamOf, planImages, runImageCalls } from './image-calls.ts';
import { dryRunReply } from './plan.ts';
import { jsonReply, proxyHeaders, type Reply } from './reply.ts';

/**
 * The rule: the route's first target is an `openai` upstream and the model it sends is an OpenAI
 * image model (`dall-e-…`, `gpt-image-…`, or the neutral `image-model-a|b|c`).
 */
export function isOpenAIImageTarget(t: ResolvedTarget): boolean {
  return t.upstream.dialect === 'openai' && /^(dall-e-|gpt-image-|image-model-[abc]$)/.test(t.model);
}

export async function chatImageFlow(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  chatReq: ChatRequest,
  first: ResolvedTarget,
): Promise<Reply> {
  const upstream = imageUpstreamOf(deps, first, chatReq.model);
  // Image URLs in the caller's turn (Gemini fileData over http) become bytes first.
  const req = scope.flags.dryRun ? chatReq : await inlineRemoteMedia(chatReq, deps.guardedFetch, scope);
  const converted = chatToImageRequest(req, req.model);
  scope.warn(converted.warnings);
  scope.warn([{ code: 'approximated', path: 'generationConfig.responseModalities', detail: 'images-api' }]);
  const plans = planImages(deps, scope, upstream, first, converted.value, call.callerKey);
  if (scope.flags.dryRun) return dryRunReply(scope, plans[0]!);
  const merged = await runImageCalls(deps, scope, upstream, plans, converted.value);
  // Chat callers get images inline: a URL the upstream returned is fetched into base64.
  const delivered = await deliverImages(deps, scope, merged, 'b64_json', '', first.upstream.baseUrl);
  const response = imageResponseToChat(delivered, req, scope.newId('img-'));
  if (!req.stream) return jsonReply(scope, call.caller.encodeResponse(response, req, scope));

  // One chunk per image (the revised prompt, if any, rides with the first); usage on the last.
  const framing = streamFramingOf(call);
  const frames: StreamFrame[] = [];
  const chunks: ChatResponse[] = [];
  for (const choice of response.choices) {
    const text = choice.content.filter((p) => p.type === 'text');
    const images = choice.content.filter((p) => p.type === 'image');
    images.forEach((image, i) => {
      chunks.push({ ...response, usage: undefined, choices: [{ ...choice, content: i === 0 ? [...text, image] : [image] }] });
    });
  }
  if (chunks.length > 0 && response.usage) chunks[chunks.length - 1]!.usage = response.usage;
  for (const chunk of chunks) frames.push({ data: JSON.stringify(call.caller.encodeResponse(chunk, req, scope)) });
  const serializer = createTextSerializer(framing);
  const body = (serializer.push(frames) ?? '') + (serializer.finish() ?? '');
  scope.markFirstByte();
  return { status: 200, headers: proxyHeaders(scope, { 'content-type': contentTypeOf(framing), 'cache-control': 'no-cache' }), body };
}
