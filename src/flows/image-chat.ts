/**
 * A chat request that asks for image output (Gemini `responseModalities: ["IMAGE"]`), answered by
 * an image model: the chat request as an `ImageRequest`, and the `ImageResponse` as a chat
 * response whose parts are the images.
 */
import type { ChatRequest, ChatResponse, Choice, Converted, Usage, Warning } from '../canonical/chat.ts';
import { ProxyError } from '../canonical/errors.ts';
import type { GeneratedImage, ImageInput, ImageRequest, ImageResponse } from '../canonical/images.ts';
import { aspectRatioToSize } from '../canonical/image-size.ts';
import type { Part } from '../canonical/parts.ts';
import { base64ToBytes } from '../kit/base64.ts';
import { imageExtension } from '../kit/index.ts';

/** The caller asked for image output. */
export function asksForImages(req: ChatRequest): boolean {
  return req.modalities?.includes('image') ?? false;
}

/** The aspect ratio a chat caller asked for (Gemini `generationConfig.imageConfig`, kept in extras). */
function aspectRatioOf(req: ChatRequest): string | undefined {
  if (req.extras?.dialect !== 'gemini') return undefined;
  const config = req.extras.fields['generationConfig.imageConfig'];
  const ratio = typeof config === 'object' && config !== null ? (config as Record<string, unknown>).aspectRatio : undefined;
  return typeof ratio === 'string' ? ratio : undefined;
}

/**
 * Chat → image call. The prompt is the text of the last user turn (the system text before it);
 * its images (inline base64 only: the flow inlines URLs first) are the input images, which makes
 * it an edit; none makes it a generation. `candidateCount` becomes `n`, an aspect ratio a size.
 * Earlier turns, tools and sampling knobs have no place in an image call: dropped with a warning.
 */
export function chatToImageRequest(req: ChatRequest, model: string): Converted<ImageRequest> {
  const warnings: Warning[] = [];
  const lastUser = [...req.messages].reverse().find((m) => m.role === 'user');
  if (req.messages.length > 1) warnings.push({ code: 'dropped', path: 'contents', detail: 'earlier-turns', lossy: true });
  if (req.tools?.length) warnings.push({ code: 'dropped', path: 'tools' });
  const text: string[] = [];
  for (const p of req.system) if (p.type === 'text' && p.text) text.push(p.text);
  const images: ImageInput[] = [];
  (lastUser?.content ?? []).forEach((p, i) => {
    if (p.type === 'text') {
      if (p.text) text.push(p.text);
    } else if (p.type === 'image' && p.source.type === 'base64') {
      const data = base64ToBytes(p.source.data);
      if (!data) throw new ProxyError('invalid-request', `contents.parts[${i}] is not valid base64.`, { param: `contents.parts[${i}]` });
      images.push({ data, mediaType: p.source.mediaType, filename: `image${images.length || ''}.${imageExtension(p.source.mediaType)}` });
    } else {
      warnings.push({ code: 'dropped', path: `contents.parts[${i}]`, detail: p.type, lossy: true });
    }
  });
  const ratio = aspectRatioOf(req);
  const size = ratio ? aspectRatioToSize(ratio) : undefined;
  const value: ImageRequest = {
    op: images.length > 0 ? 'edit' : 'generate',
    model,
    prompt: text.join('\n\n'),
    images,
    ...(req.candidateCount && req.candidateCount > 1 ? { n: req.candidateCount } : {}),
    ...(size ? { size } : {}),
    responseFormat: 'b64_json',
    ...(req.user ? { user: req.user } : {}),
  };
  return { value, warnings };
}


function imagePart(image: GeneratedImage): Part {
  return image.b64 !== undefined
    ? { type: 'image', source: { type: 'base64', mediaType: image.mediaType ?? 'image/png', data: image.b64 } }
    : { type: 'image', source: { type: 'url', url: image.url ?? '', ...(image.mediaType ? { mediaType: image.mediaType } : {}) } };
}

function usageOf(res: ImageResponse): Usage | undefined {
  if (!res.usage) return undefined;
  return { inputTokens: res.usage.inputTokens, outputTokens: res.usage.outputTokens, totalTokens: res.usage.totalTokens };
}

/**
 * Image call → chat response. With `candidateCount` > 1 each image is its own choice; otherwise
 * one choice holds them all. A revised prompt comes first as text, as an image model's words
 * alongside its images do.
 */
export function imageResponseToChat(res: ImageResponse, req: ChatRequest, id: string): ChatResponse {
  const perChoice = (req.candidateCount ?? 1) > 1;
  const groups = perChoice ? res.images.map((i) => [i]) : [res.images];
  const choices: Choice[] = groups.map((images, index) => {
    const content: Part[] = [];
    const revised = [...new Set(images.map((i) => i.revisedPrompt).filter((t): t is string => !!t))];
    if (revised.length > 0) content.push({ type: 'text', text: revised.join('\n\n') });
    for (const image of images) content.push(imagePart(image));
    return { index, content, finishReason: { unified: 'stop' } };
  });
  const usage = usageOf(res);
  return { id, model: req.model, created: res.created, choices, ...(usage ? { usage } : {}) };
}
