/**
 * Request parameters as a caller sees them: which values pass, which are refused, and what the
 * 400 says (message, param and OpenAI's code), for JSON generations and multipart edits.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeImageRequest } from './decode-request.ts';
import { encodeError } from './errors.ts';
import type { ImageFormFields, ImageFormFile } from './read-form.ts';
import { png } from './test-images.ts';

const ctx = testContext();
const input = (body: unknown) => ({ body, headers: {}, params: {}, query: {} });
const generate = (body: unknown) => decodeImageRequest(input(body), 'generate', ctx);
const edit = (body: unknown) => decodeImageRequest(input(body), 'edit', ctx);
const variation = (body: unknown) => decodeImageRequest(input(body), 'variation', ctx);
const f = (data: Uint8Array): ImageFormFile => ({ data, mediaType: 'image/png' });
const square = png(512, 512);
const form = (fields: Record<string, string>, images: ImageFormFile[] = [f(square)], files: Record<string, ImageFormFile[]> = {}): ImageFormFields => ({
  fields,
  images,
  files,
});

/** The error the call throws, as the caller receives it: status, param, code, message. */
function refusal(fn: () => unknown): { status: number; param: unknown; code: unknown; message: string; kind: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    const err = e as ProxyError;
    const { error } = encodeError(err).body as { error: { param: unknown; code: unknown; message: string } };
    return { status: err.status, kind: err.kind, param: error.param, code: error.code, message: error.message };
  }
  throw new Error('expected a refusal');
}

describe('JSON bodies', () => {
  it('refuses a body that is not a JSON object with a clear message', () => {
    for (const body of [null, [], [{ prompt: 'x' }], 3, 'prompt', true]) {
      expect(refusal(() => generate(body)), JSON.stringify(body)).toEqual({
        status: 400, kind: 'invalid-request', param: null, code: 'invalid_type', message: 'The request body must be a JSON object.',
      });
    }
  });

  it('reads a JSON edit body as parameters: a file field given as a value is refused by name', () => {
    expect(refusal(() => edit({ prompt: 'x' }))).toMatchObject({ param: 'image', code: 'missing_required_parameter' });
    expect(refusal(() => edit({ prompt: 'x', image: ['https://example.com/a.png'] }))).toEqual({
      status: 400, kind: 'invalid-request', param: 'image', code: 'invalid_type',
      message: "Invalid type for 'image': expected a file, but got an array instead.",
    });
    expect(refusal(() => edit({ prompt: 'x', 'image[]': 'https://example.com/a.png' }))).toMatchObject({
      param: 'image', code: 'invalid_type', message: "Invalid type for 'image': expected a file, but got a string instead.",
    });
    expect(refusal(() => edit({ prompt: 'x', mask: { url: 'https://example.com/m.png' } }))).toMatchObject({
      param: 'mask', code: 'invalid_type', message: "Invalid type for 'mask': expected a file, but got an object instead.",
    });
  });

  it('reads a generation body as JSON parameters even when it is shaped like a read form', () => {
    const body = { fields: { prompt: 'smuggled' }, images: [], files: {} };
    expect(refusal(() => generate(body))).toMatchObject({ param: 'prompt', code: 'missing_required_parameter' });
    expect(generate({ ...body, prompt: 'x' }).value).toMatchObject({ prompt: 'x', extras: body });
  });

  it('treats a null file field as absent, like every other null', () => {
    expect(refusal(() => edit({ prompt: 'x', image: null, mask: null }))).toMatchObject({
      param: 'image', code: 'missing_required_parameter', message: "Missing required parameter: 'image'.",
    });
    expect(refusal(() => edit({ prompt: 'x', image: 7 }))).toMatchObject({
      param: 'image', message: "Invalid type for 'image': expected a file, but got a number instead.",
    });
  });

  it('explains a wrong value type with what was received', () => {
    expect(refusal(() => generate({ prompt: 'x', model: 3 }))).toMatchObject({
      param: 'model', code: 'invalid_type', message: '`model` must be a string, not a number.',
    });
    expect(refusal(() => generate({ prompt: 'x', response_format: 'png' }))).toMatchObject({
      param: 'response_format', code: 'invalid_value',
      message: `Invalid value: "png". Supported values are: 'url' and 'b64_json'. ('response_format')`,
    });
  });

  it('treats null as absent for every field', () => {
    const { value } = generate({
      prompt: 'x', user: null, background: null, output_format: null, some_field: null, model: null,
    });
    expect(value).toEqual({ op: 'generate', model: 'dall-e-2', prompt: 'x', images: [], responseFormat: 'url' });
  });
});

describe('form fields of edits and variations', () => {
  it('refuses image and mask sent as text fields instead of files', () => {
    expect(refusal(() => edit(form({ prompt: 'x', image: 'https://example.com/a.png' }, [])))).toMatchObject({
      param: 'image', code: 'invalid_type', message: "Invalid type for 'image': expected a file, but got a string instead.",
    });
    expect(refusal(() => edit(form({ prompt: 'x', mask: 'm.png' })))).toMatchObject({
      param: 'mask', code: 'invalid_type', message: "Invalid type for 'mask': expected a file, but got a string instead.",
    });
  });

  it('refuses unknown file fields and a mask on a variation', () => {
    expect(refusal(() => edit(form({ prompt: 'x' }, [f(square)], { extra: [f(square)] })))).toMatchObject({
      param: 'extra', code: 'unknown_parameter', message: "Unexpected file field 'extra'.",
    });
    expect(refusal(() => variation(form({}, [f(square)], { mask: [f(square)] })))).toMatchObject({
      param: 'mask', code: 'unknown_parameter', message: "'mask' is not a parameter of image variations.",
    });
  });

  it('reads whole numbers, with surrounding spaces or a zero fraction, as numbers', () => {
    expect(edit(form({ prompt: 'x', n: '10' })).value.n).toBe(10);
    expect(edit(form({ prompt: 'x', n: ' 2 ' })).value.n).toBe(2);
    expect(edit(form({ prompt: 'x', n: '2.00' })).value.n).toBe(2);
    expect(edit(form({ model: 'gpt-image-1', prompt: 'x', output_compression: '100' })).value.extras).toEqual({ output_compression: 100 });
  });

  it('says what text it got for a number field', () => {
    for (const n of ['two', 'x5', '5x', '1.5.0']) {
      expect(refusal(() => edit(form({ prompt: 'x', n }))), n).toMatchObject({
        param: 'n', code: 'invalid_type', message: '`n` must be a whole number, not a string.',
      });
    }
  });

  it("reads stream 'false' as false and refuses other text", () => {
    expect(edit(form({ prompt: 'x', stream: 'false' })).value.prompt).toBe('x');
    expect(refusal(() => edit(form({ prompt: 'x', stream: 'yes' })))).toMatchObject({ param: 'stream', code: 'invalid_type' });
    expect(refusal(() => edit(form({ prompt: 'x', stream: 'true' })))).toEqual({
      status: 400, kind: 'unsupported', param: 'stream', code: 'unsupported_parameter',
      message: "Streaming image responses ('stream': true) are not supported.",
    });
  });

  it('warns about a dropped variation prompt only when one was sent', () => {
    expect(variation(form({})).warnings).toEqual([]);
    expect(variation(form({ prompt: 'p' })).warnings).toEqual([{ code: 'dropped', path: 'prompt' }]);
  });
});

describe('model choice and per-model values', () => {
  it('picks gpt-image-1 for any gpt-image quality without a model', () => {
    for (const quality of ['low', 'medium', 'high']) expect(generate({ prompt: 'x', quality }).value.model, quality).toBe('gpt-image-1');
    expect(generate({ prompt: 'x', quality: 'auto' }).value.model).toBe('dall-e-2');
  });

  it('says the prompt is required, with its code', () => {
    expect(refusal(() => generate({}))).toMatchObject({
      param: 'prompt', code: 'missing_required_parameter', message: "Missing required parameter: 'prompt'.",
    });
  });

  it('explains n limits: the minimum, the endpoint maximum and dall-e-3 one image', () => {
    expect(refusal(() => generate({ prompt: 'x', n: 0 }))).toMatchObject({
      param: 'n', code: 'integer_below_min_value', message: "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead.",
    });
    expect(refusal(() => generate({ prompt: 'x', n: 11 }))).toMatchObject({
      param: 'n', code: 'integer_above_max_value', message: "Invalid 'n': integer above maximum value. Expected a value <= 10, but got 11 instead.",
    });
    expect(refusal(() => generate({ model: 'dall-e-3', prompt: 'x', n: 2 }))).toMatchObject({
      param: 'n', code: 'integer_above_max_value', message: "Invalid 'n': dall-e-3 supports only n=1, but got 2.",
    });
  });

  it('lists the values a model takes, or says it takes none', () => {
    expect(refusal(() => generate({ prompt: 'x', size: '1792x1024' }))).toMatchObject({
      param: 'size', code: 'invalid_value',
      message: "Invalid 'size': '1792x1024' is not one of ['256x256', '512x512', '1024x1024'] for dall-e-2.",
    });
    expect(refusal(() => generate({ prompt: 'x', style: 'vivid' }))).toMatchObject({
      param: 'style', code: 'unsupported_parameter', message: "'style' is not supported by dall-e-2.",
    });
    expect(refusal(() => generate({ model: 'dall-e-3', prompt: 'x', style: 'anime' }))).toMatchObject({
      param: 'style', code: 'invalid_value', message: "Invalid 'style': 'anime' is not one of ['vivid', 'natural'] for dall-e-3.",
    });
  });

  it('explains gpt-image parameters refused by dall-e and their allowed values and ranges', () => {
    expect(refusal(() => generate({ model: 'dall-e-3', prompt: 'x', background: 'transparent' }))).toMatchObject({
      param: 'background', code: 'unsupported_parameter', message: "'background' is only supported by GPT image models, not dall-e-3.",
    });
    expect(refusal(() => generate({ model: 'gpt-image-1', prompt: 'x', output_format: 'gif' }))).toMatchObject({
      param: 'output_format', code: 'invalid_value', message: "Invalid 'output_format': 'gif' is not one of ['png', 'jpeg', 'webp'].",
    });
    expect(refusal(() => generate({ model: 'gpt-image-1', prompt: 'x', output_compression: -1 }))).toMatchObject({
      param: 'output_compression', message: "Invalid 'output_compression': expected a value from 0 to 100, but got -1.",
    });
    expect(refusal(() => generate({ model: 'gpt-image-1', prompt: 'x', partial_images: 4 }))).toMatchObject({
      param: 'partial_images', message: "Invalid 'partial_images': expected a value from 0 to 3, but got 4.",
    });
  });

  it('accepts the ends of the gpt-image ranges', () => {
    for (const [name, value] of [['output_compression', 0], ['output_compression', 100], ['partial_images', 0], ['partial_images', 3]] as const) {
      expect(generate({ model: 'gpt-image-1', prompt: 'x', [name]: value }).value.extras, `${name}=${value}`).toEqual({ [name]: value });
    }
  });
});
