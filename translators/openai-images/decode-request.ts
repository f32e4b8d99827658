/**
 * Caller side: an OpenAI Images request → canonical `ImageRequest`, with the documented per-model
 * limits (models.ts) enforced before anything is sent upstream.
 */
import * as v from 'valibot';
import { ProxyError } from '../../src/canonical/index.ts';
import { asSentence, describeIssue, ownMessage } from '../../src/kit/index.ts';
import type { Converted, ImageInput, ImageRequest, Warning } from '../../src/canonical/index.ts';
import type { CallerInput, TranslateContext } from '../types.ts';
import {
  DEFAULT_GPT_IMAGE_MODEL,
  DEFAULT_IMAGE_MODEL,
  GPT_IMAGE_PARAMS,
  imageLimitsOf,
} from './models.ts';
import type { OpenAIImageLimits } from './models.ts';
import { isImageFormFields } from './read-form.ts';
import type { ImageFormFile } from './read-form.ts';
import { checkImages, checkMask } from './check-images.ts';
import { invalid } from './errors.ts';
import { BOOLEAN_FORM_FIELDS, NUMERIC_FORM_FIELDS, OpenAIImageRequestSchema, opPath } from './wire.ts';
import type { OpenAIImageRequest } from './wire.ts';

/** Fields with a canonical home (everything else goes to `extras`). */
const CANONICAL_FIELDS = new Set([
  'prompt', 'model', 'n', 'quality', 'response_format', 'size', 'style', 'user', 'stream',
  'image', 'image[]', 'mask',
]);

/** Allowed values of the gpt-image parameters (openai SDK `ImageGenerateParams`). */
const GPT_IMAGE_VALUES: Record<string, readonly string[]> = {
  background: ['transparent', 'opaque', 'auto'],
  output_format: ['png', 'jpeg', 'webp'],
  moderation: ['low', 'auto'],
  input_fidelity: ['high', 'low'],
};
const GPT_IMAGE_RANGES: Record<string, readonly [number, number]> = {
  output_compression: [0, 100],
  partial_images: [0, 3],
};

interface RawInput {
  params: Record<string, unknown>;
  images: ImageFormFile[];
  files: Record<string, ImageFormFile[]>;
}

export function decodeImageRequest(
  input: CallerInput,
  op: ImageRequest['op'],
  _ctx: TranslateContext,
): Converted<ImageRequest> {
  const raw = rawInput(input.body, op);
  const parsed = v.safeParse(OpenAIImageRequestSchema, raw.params);
  if (!parsed.success) throw schemaError(parsed.issues[0]);
  const p = parsed.output;
  const warnings: Warning[] = [];

  if (p.stream === true) {
    throw new ProxyError('unsupported', "Streaming image responses ('stream': true) are not supported.", {
      param: 'stream',
      code: 'unsupported_parameter',
    });
  }
  const model = p.model || (op !== 'variation' && usesGptImageParams(p, raw.images) ? DEFAULT_GPT_IMAGE_MODEL : DEFAULT_IMAGE_MODEL);
  const limits = imageLimitsOf(model);
  if (limits && !limits.ops.includes(op)) {
    throw invalid(`The model '${model}' does not support image ${opPath(op)}.`, 'model');
  }

  const prompt = decodePrompt(p.prompt ?? undefined, op, model, limits, warnings);
  checkN(p.n ?? undefined, model, limits);
  checkChoice('size', p.size, model, limits?.sizes);
  checkChoice('quality', p.quality, model, limits?.qualities);
  checkChoice('style', p.style, model, limits?.styles);
  const extras = decodeExtras(p, model, limits);

  let images: ImageInput[] = [];
  let mask: ImageInput | undefined;
  if (op !== 'generate') {
    for (const name of ['image', 'image[]', 'mask']) {
      const given = raw.params[name];
      if (given != null) {
        const param = name.replace('[]', '');
        const got = Array.isArray(given) ? 'an array' : typeof given === 'object' ? 'an object' : `a ${typeof given}`;
        throw invalid(`Invalid type for '${param}': expected a file, but got ${got} instead.`, param, 'invalid_type');
      }
    }
    for (const name of Object.keys(raw.files)) {
      if (name !== 'mask') throw invalid(`Unexpected file field '${name}'.`, name, 'unknown_parameter');
    }
    const masks = raw.files.mask ?? [];
    if (masks.length > 1) throw invalid("Only one 'mask' file may be given.", 'mask');
    if (op === 'variation' && masks[0]) throw invalid("'mask' is not a parameter of image variations.", 'mask', 'unknown_parameter');
    images = checkImages(raw.images, op, model, limits, masks[0] !== undefined);
    if (masks[0]) mask = checkMask(masks[0], images[0], model, limits);
  }

  const responseFormat = p.response_format ?? (limits ? (limits.alwaysB64 ? 'b64_json' : 'url') : undefined);
  const value: ImageRequest = {
    op,
    model,
    ...(prompt !== undefined ? { prompt } : {}),
    images,
    ...(mask ? { mask } : {}),
    ...(p.n != null ? { n: p.n } : {}),
    ...(p.size != null ? { size: p.size } : {}),
    ...(p.quality != null ? { quality: p.quality } : {}),
    ...(p.style != null ? { style: p.style } : {}),
    ...(responseFormat ? { responseFormat } : {}),
    ...(p.user != null ? { user: p.user } : {}),
    ...(extras ? { extras } : {}),
  };
  return { value, warnings };
}

function rawInput(body: unknown, op: ImageRequest['op']): RawInput {
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    throw new Error('decodeImageRequest: read multipart bodies with readImageForm() first');
  }
  if (op !== 'generate' && isImageFormFields(body)) {
    return { params: formParams(body.fields), images: body.images, files: body.files };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ProxyError('invalid-request', 'The request body must be a JSON object.', { code: 'invalid_type' });
  }
  return { params: body as Record<string, unknown>, images: [], files: {} };
}

/** Multipart carries strings only: read `n`, `output_compression`… as numbers, `stream` as a boolean. */
function formParams(fields: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...fields };
  for (const name of NUMERIC_FORM_FIELDS) {
    const s = fields[name];
    if (s !== undefined && /^\s*-?\d+(\.\d+)?\s*$/.test(s)) out[name] = Number(s);
  }
  for (const name of BOOLEAN_FORM_FIELDS) {
    const s = fields[name];
    if (s === 'true' || s === 'false') out[name] = s === 'true';
  }
  return out;
}

function schemaError(issue: v.BaseIssue<unknown> | undefined): ProxyError {
  const key = issue?.path?.[0]?.key;
  const param = typeof key === 'string' ? key : 'body';
  if (param === 'response_format') {
    return invalid(
      `Invalid value: ${JSON.stringify(issue?.input)}. Supported values are: 'url' and 'b64_json'. ('response_format')`,
      param,
    );
  }
  const own = issue && ownMessage(issue);
  if (own !== undefined) return invalid(`Invalid '${param}': ${own}.`, param, 'invalid_type');
  return invalid(issue ? asSentence(describeIssue(OpenAIImageRequestSchema, issue, { whole: 'the request body' })) : `Invalid '${param}'.`, param, 'invalid_type');
}

/** The real service picks a GPT image model when its parameters are used without a model. */
function usesGptImageParams(p: OpenAIImageRequest, images: ImageFormFile[]): boolean {
  if (images.length > 1) return true;
  if (p.quality === 'low' || p.quality === 'medium' || p.quality === 'high') return true;
  return GPT_IMAGE_PARAMS.some((name) => p[name] != null);
}


function decodePrompt(
  prompt: string | undefined,
  op: ImageRequest['op'],
  model: string,
  limits: OpenAIImageLimits | undefined,
  warnings: Warning[],
): string | undefined {
  if (op === 'variation') {
    // Variations take no prompt; an image-capable upstream other than OpenAI could use it, but
    // the dialect has no such field, so it is reported rather than silently sent.
    if (prompt !== undefined) warnings.push({ code: 'dropped', path: 'prompt' });
    return undefined;
  }
  if (prompt === undefined || prompt === '') {
    throw invalid("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  }
  const length = [...prompt].length;
  if (limits && length > limits.promptMax) {
    throw invalid(
      `Invalid 'prompt': string too long. Expected a string with maximum length ${limits.promptMax} for ${model}, but got a string with length ${length} instead.`,
      'prompt',
      'string_above_max_length',
    );
  }
  return prompt;
}

/** 1–10 for every model (an endpoint rule, also bounding fan-out upstreams); dall-e-3 only 1. */
function checkN(n: number | undefined, model: string, limits: OpenAIImageLimits | undefined): void {
  if (n === undefined) return;
  if (n < 1) {
    throw invalid(`Invalid 'n': integer below minimum value. Expected a value >= 1, but got ${n} instead.`, 'n', 'integer_below_min_value');
  }
  const max = limits?.nMax ?? 10;
  if (n > max) {
    throw invalid(
      max === 1
        ? `Invalid 'n': ${model} supports only n=1, but got ${n}.`
        : `Invalid 'n': integer above maximum value. Expected a value <= ${max}, but got ${n} instead.`,
      'n',
      'integer_above_max_value',
    );
  }
}

function checkChoice(
  param: string,
  value: string | null | undefined,
  model: string,
  allowed: readonly string[] | undefined,
): void {
  if (value == null || allowed === undefined || allowed.includes(value)) return;
  if (allowed.length === 0) throw invalid(`'${param}' is not supported by ${model}.`, param, 'unsupported_parameter');
  throw invalid(
    `Invalid '${param}': '${value}' is not one of [${allowed.map((a) => `'${a}'`).join(', ')}] for ${model}.`,
    param,
  );
}

/** gpt-image parameters (checked for GPT image models, refused by dall-e) plus unknown fields. */
function decodeExtras(
  p: OpenAIImageRequest,
  model: string,
  limits: OpenAIImageLimits | undefined,
): Record<string, unknown> | undefined {
  const extras: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(p)) {
    if (CANONICAL_FIELDS.has(name) || value === null || value === undefined) continue;
    const known = (GPT_IMAGE_PARAMS as readonly string[]).includes(name);
    if (known && limits && !limits.gptImageParams) {
      throw invalid(`'${name}' is only supported by GPT image models, not ${model}.`, name, 'unsupported_parameter');
    }
    if (known && limits) {
      const values = GPT_IMAGE_VALUES[name];
      if (values && !values.includes(value as string)) {
        throw invalid(`Invalid '${name}': '${String(value)}' is not one of [${values.map((a) => `'${a}'`).join(', ')}].`, name);
      }
      const range = GPT_IMAGE_RANGES[name];
      if (range && ((value as number) < range[0] || (value as number) > range[1])) {
        throw invalid(`Invalid '${name}': expected a value from ${range[0]} to ${range[1]}, but got ${String(value)}.`, name);
      }
    }
    extras[name] = value;
  }
  return Object.keys(extras).length > 0 ? extras : undefined;
}
