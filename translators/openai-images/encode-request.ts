/**
 * Upstream side: canonical `ImageRequest` → OpenAI Images HTTP request(s).
 * Generations go as JSON, edits and variations as multipart (`image`, or repeated `image[]` for
 * several, `mask`, the rest as string fields — the `openai` SDK's own encoding).
 * When routing sends a request to another OpenAI image model than the caller named, values that
 * model does not take are fitted (size, quality) or dropped (style, gpt-image fields) with a
 * warning, and `n` > 1 for dall-e-3 fans out into `n` calls.
 */
import { ProxyError } from '../../src/canonical/index.ts';
import type { Converted, ImageInput, ImageRequest, Warning } from '../../src/canonical/index.ts';
import type { TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { opPath } from './wire.ts';
import { GPT_IMAGE_PARAMS, imageLimitsOf, parseSize } from './models.ts';
import type { OpenAIImageLimits } from './models.ts';
import { imageExtension } from '../../src/kit/index.ts';

export function encodeImageRequest(
  req: ImageRequest,
  target: UpstreamTarget,
  _ctx: TranslateContext,
): Converted<UpstreamHttpRequest[]> {
  const model = target.model;
  const limits = imageLimitsOf(model);
  if (limits && !limits.ops.includes(req.op)) {
    throw new ProxyError('unsupported', `The upstream model '${model}' cannot do image ${opPath(req.op)}.`, {
      param: 'model',
    });
  }
  const warnings: Warning[] = [];
  const fields = fieldsFor(req, model, limits, warnings);
  const path = `/images/${opPath(req.op)}`;
  const headers: Record<string, string> = { ...target.options.headers };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;

  // dall-e-3 makes one image per call: fan out and let the flow merge the results in order.
  const calls = limits && req.n !== undefined && req.n > limits.nMax ? Math.ceil(req.n / limits.nMax) : 1;
  const requests: UpstreamHttpRequest[] = [];
  for (let i = 0; i < calls; i++) {
    const n = calls > 1 ? Math.min(limits!.nMax, req.n! - i * limits!.nMax) : req.n;
    const callFields = { ...fields, ...(n !== undefined ? { n } : {}) };
    requests.push(
      req.op === 'generate'
        ? { method: 'POST', path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(callFields), stream: false }
        : { method: 'POST', path, headers, body: formOf(req, callFields), stream: false },
    );
  }
  return { value: requests, warnings };
}


/** The request fields, in the order the SDK sends them; `n` is set per call. */
function fieldsFor(
  req: ImageRequest,
  model: string,
  limits: OpenAIImageLimits | undefined,
  warnings: Warning[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { model };
  if (req.prompt !== undefined && req.op !== 'variation') out.prompt = req.prompt;
  const size = fitSize(req.size, limits, warnings);
  if (size !== undefined) out.size = size;
  const quality = fitQuality(req.quality, limits, warnings);
  if (quality !== undefined) out.quality = quality;
  if (req.style !== undefined) {
    if (!limits || limits.styles.includes(req.style)) out.style = req.style;
    else warnings.push({ code: 'dropped', path: 'style' });
  }
  // GPT image models always answer in base64 and reject `response_format`; the flow hosts the
  // image when the caller wanted a URL.
  if (req.responseFormat !== undefined && !limits?.alwaysB64) out.response_format = req.responseFormat;
  if (req.user !== undefined) out.user = req.user;
  for (const [name, value] of Object.entries(req.extras ?? {})) {
    if (value === undefined || value === null) continue;
    if (limits && !limits.gptImageParams && (GPT_IMAGE_PARAMS as readonly string[]).includes(name)) {
      warnings.push({ code: 'dropped', path: name });
      continue;
    }
    out[name] = value;
  }
  return out;
}

/** A size the model takes: the same, else the allowed one closest in aspect ratio (largest first). */
function fitSize(size: string | undefined, limits: OpenAIImageLimits | undefined, warnings: Warning[]): string | undefined {
  if (size === undefined || !limits || limits.sizes.includes(size)) return size;
  const wanted = parseSize(size);
  if (!wanted) {
    warnings.push({ code: 'dropped', path: 'size', detail: size });
    return undefined;
  }
  const ratio = wanted.width / wanted.height;
  let best: string | undefined;
  let bestDistance = Infinity;
  let bestArea = 0;
  for (const candidate of limits.sizes) {
    const dims = parseSize(candidate);
    if (!dims) continue;
    const distance = Math.abs(Math.log(dims.width / dims.height / ratio));
    const area = dims.width * dims.height;
    const closer = distance < bestDistance - 1e-9;
    if (closer || (Math.abs(distance - bestDistance) <= 1e-9 && area > bestArea)) {
      [best, bestDistance, bestArea] = [candidate, distance, area];
    }
  }
  warnings.push({ code: 'approximated', path: 'size', detail: `${size}->${best}` });
  return best;
}

/** dall-e-3 `hd`/`standard` ↔ gpt-image `high`/`medium`; anything else unknown to the model is dropped. */
function fitQuality(quality: string | undefined, limits: OpenAIImageLimits | undefined, warnings: Warning[]): string | undefined {
  if (quality === undefined || !limits || limits.qualities.includes(quality)) return quality;
  const mapped = QUALITY_EQUIVALENT[quality]?.find((q) => limits.qualities.includes(q));
  warnings.push(mapped ? { code: 'approximated', path: 'quality', detail: `${quality}->${mapped}` } : { code: 'dropped', path: 'quality' });
  return mapped;
}

const QUALITY_EQUIVALENT: Record<string, readonly string[]> = {
  hd: ['high'],
  standard: ['medium', 'standard'],
  high: ['hd', 'standard'],
  medium: ['standard'],
  low: ['standard'],
};

/** Multipart body: files as Blobs with a filename, every other field as a string. */
function formOf(req: ImageRequest, fields: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    form.append(name, typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const imageKey = req.images.length > 1 ? 'image[]' : 'image';
  req.images.forEach((image, i) => form.append(imageKey, blobOf(image), filenameOf(image, `image${i || ''}`)));
  if (req.mask && req.op === 'edit') form.append('mask', blobOf(req.mask), filenameOf(req.mask, 'mask'));
  return form;
}

function blobOf(image: ImageInput): Blob {
  return new Blob([image.data as Uint8Array<ArrayBuffer>], { type: image.mediaType });
}

function filenameOf(image: ImageInput, base: string): string {
  return image.filename ?? `${base}.${imageExtension(image.mediaType)}`;
}
