/**
 * The caller side, in: an OpenAI `POST /v1/embeddings` body as the openai SDK sends it
 * (`embeddings.create`): `input` a string, a list of strings, a token array or a list of token
 * arrays; `model`; `dimensions`; `encoding_format` (`float`, the API's default, or `base64`, the
 * SDK's); `user`. What OpenAI refuses is refused here with its 400, before any upstream call.
 */
import { ProxyError, type Converted, type EmbeddingInput, type EmbeddingRequest, type Warning } from '../../src/canonical/index.ts';
import type { CallerInput } from '../types.ts';

/** The most inputs one request may hold (OpenAI's limit). */
export const MAX_INPUTS = 2048;

const KNOWN = new Set(['input', 'model', 'dimensions', 'encoding_format', 'user']);

function invalid(message: string, param: string, code = 'invalid_value'): ProxyError {
  return new ProxyError('invalid-request', message, { param, code });
}

const isTokenId = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/** One token array, checked. */
function tokensOf(list: unknown[], param: string): number[] {
  if (list.length === 0) throw invalid(`'${param}' must not be an empty token array.`, param);
  if (!list.every(isTokenId)) throw invalid(`'${param}' must be an array of token ids (non-negative integers).`, param);
  return list as number[];
}

function inputsOf(input: unknown): EmbeddingInput[] {
  if (input === undefined || input === null) throw invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  if (typeof input === 'string') {
    if (input === '') throw invalid("'input' must not be an empty string.", 'input');
    return [{ type: 'text', text: input }];
  }
  if (!Array.isArray(input)) throw invalid("'input' must be a string, an array of strings, or an array of token arrays.", 'input', 'invalid_type');
  if (input.length === 0) throw invalid("'input' must not be an empty array.", 'input');
  if (input.length > MAX_INPUTS) throw invalid(`'input' holds ${input.length} items; at most ${MAX_INPUTS} may be embedded in one request.`, 'input', 'array_above_max_length');
  if (typeof input[0] === 'number') return [{ type: 'tokens', tokens: tokensOf(input, 'input') }];
  return input.map((item, i): EmbeddingInput => {
    const param = `input[${i}]`;
    if (typeof item === 'string') {
      if (item === '') throw invalid(`'${param}' must not be an empty string.`, param);
      if (typeof input[0] !== 'string') throw invalid(`'${param}': 'input' mixes strings and token arrays.`, param, 'invalid_type');
      return { type: 'text', text: item };
    }
    if (Array.isArray(item) && !Array.isArray(input[0])) throw invalid(`'${param}': 'input' mixes strings and token arrays.`, param, 'invalid_type');
    if (Array.isArray(item)) return { type: 'tokens', tokens: tokensOf(item, param) };
    throw invalid(`'${param}' must be a string or a token array, not ${item === null ? 'null' : typeof item}.`, param, 'invalid_type');
  });
}

export function decodeEmbeddingRequest(input: CallerInput): Converted<EmbeddingRequest> {
  const body = input.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('The request body must be a JSON object.', 'body', 'invalid_type');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') throw invalid("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const inputs = inputsOf(b.input);
  const req: EmbeddingRequest = { model: b.model, inputs, encoding: 'float' };
  if (b.dimensions !== undefined && b.dimensions !== null) {
    if (typeof b.dimensions !== 'number' || !Number.isInteger(b.dimensions) || b.dimensions < 1) throw invalid("'dimensions' must be a positive integer.", 'dimensions');
    req.dimensions = b.dimensions;
  }
  if (b.encoding_format !== undefined && b.encoding_format !== null) {
    if (b.encoding_format !== 'float' && b.encoding_format !== 'base64') throw invalid("'encoding_format' must be 'float' or 'base64'.", 'encoding_format');
    req.encoding = b.encoding_format;
  }
  if (b.user !== undefined && b.user !== null) {
    if (typeof b.user !== 'string') throw invalid("'user' must be a string.", 'user', 'invalid_type');
    req.user = b.user;
  }
  const warnings: Warning[] = Object.keys(b)
    .filter((k) => !KNOWN.has(k))
    .map((k) => ({ code: 'dropped', path: k }));
  return { value: req, warnings };
}
