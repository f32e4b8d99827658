/**
 * The caller side of Gemini embeddings: `POST /v1beta/models/{model}:embedContent` (one
 * `content`) and `:batchEmbedContents` (`requests[]`, at most 100, each naming the same model),
 * as @google/genai sends them (`models.embedContent` calls `batchEmbedContents` with one request
 * per content). `taskType`, `title` and `outputDimensionality` per request; only text parts are
 * embedded (several parts of one content as one text, joined by a newline, and reported).
 */
import { ProxyError, vectorValues, type Converted, type EmbeddingInput, type EmbeddingRequest, type EmbeddingResponse, type Warning } from '../../src/canonical/index.ts';
import type { CallerInput } from '../types.ts';
import { modelName } from './encode-request.ts';
import { TASK_OF } from './embeddings-tasks.ts';

/** The most requests one `batchEmbedContents` may hold. */
export const MAX_BATCH = 100;

function invalid(message: string, param: string): ProxyError {
  return new ProxyError('invalid-request', message, { param, code: 'INVALID_ARGUMENT' });
}

interface Item {
  input: EmbeddingInput;
  dimensions?: number;
}

function textOf(content: unknown, path: string, warnings: Warning[]): string {
  // (A content that is no object has no parts list either.)
  const parts = (content as { parts?: unknown } | null | undefined)?.parts;
  if (!Array.isArray(parts) || parts.length === 0) throw invalid(`* ${path}.parts: contents.parts must not be empty.`, `${path}.parts`);
  const texts = parts.map((p: unknown, i) => {
    const text = (p as { text?: unknown } | null)?.text;
    if (typeof text !== 'string') throw new ProxyError('unsupported', `* ${path}.parts[${i}]: only text parts can be embedded through this proxy.`, { param: `${path}.parts[${i}]`, code: 'INVALID_ARGUMENT' });
    return text;
  });
  if (texts.length > 1) warnings.push({ code: 'approximated', path: `${path}.parts`, detail: 'joined' });
  const text = texts.join('\n');
  if (text === '') throw invalid(`* ${path}.parts: the text to embed must not be empty.`, `${path}.parts`);
  return text;
}

function itemOf(raw: unknown, path: string, model: string, warnings: Warning[]): Item {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(`* ${path}: must be an object.`, path);
  const r = raw as Record<string, unknown>;
  if (r.model !== undefined && (typeof r.model !== 'string' || modelName(r.model) !== model)) {
    throw invalid(`* ${path}.model: the model of every request must be models/${model}, the model of the URL.`, `${path}.model`);
  }
  const input: EmbeddingInput = { type: 'text', text: textOf(r.content, `${path}.content`, warnings) };
  if (r.taskType !== undefined && r.taskType !== null && r.taskType !== 'TASK_TYPE_UNSPECIFIED') {
    const task = typeof r.taskType === 'string' && Object.hasOwn(TASK_OF, r.taskType) ? TASK_OF[r.taskType] : undefined;
    if (!task) throw invalid(`* ${path}.task_type: invalid value ${JSON.stringify(r.taskType)}.`, `${path}.taskType`);
    input.task = task;
  }
  if (r.title !== undefined && r.title !== null) {
    if (typeof r.title !== 'string') throw invalid(`* ${path}.title: must be a string.`, `${path}.title`);
    input.title = r.title;
  }
  const d = r.outputDimensionality;
  if (d !== undefined && d !== null && !(Number.isInteger(d) && (d as number) >= 1)) throw invalid(`* ${path}.output_dimensionality: must be a positive integer.`, `${path}.outputDimensionality`);
  return { input, ...(typeof d === 'number' && { dimensions: d }) };
}

export function decodeEmbeddingRequest(input: CallerInput): Converted<EmbeddingRequest> {
  const model = modelName(input.params.model ?? '');
  if (!model) throw invalid('* model: required.', 'model');
  const body = input.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('The request body must be a JSON object.', 'body');
  const warnings: Warning[] = [];
  let items: Item[];
  if (input.params.method === 'batchEmbedContents') {
    const requests = (body as { requests?: unknown }).requests;
    if (!Array.isArray(requests) || requests.length === 0) throw invalid('* BatchEmbedContentsRequest.requests: must not be empty.', 'requests');
    if (requests.length > MAX_BATCH) throw invalid(`* BatchEmbedContentsRequest.requests: at most ${MAX_BATCH} requests are allowed per batch.`, 'requests');
    items = requests.map((r, i) => itemOf(r, `BatchEmbedContentsRequest.requests[${i}]`, model, warnings));
  } else {
    items = [itemOf(body, 'EmbedContentRequest', model, warnings)];
  }
  const sizes = new Set(items.map((i) => i.dimensions));
  if (sizes.size > 1) throw invalid('* BatchEmbedContentsRequest.requests: every request must ask the same outputDimensionality through this proxy.', 'requests');
  const dimensions = items[0]!.dimensions;
  return { value: { model, inputs: items.map((i) => i.input), encoding: 'float', ...(dimensions !== undefined && { dimensions }) }, warnings };
}

/** `{embedding}` for embedContent, `{embeddings[]}` for batchEmbedContents, in request order. */
export function encodeEmbeddingResponse(res: EmbeddingResponse, _req: EmbeddingRequest, input: CallerInput): unknown {
  const embeddings = res.vectors.map((v) => {
    const values = vectorValues(v);
    if (!values) throw new ProxyError('upstream', 'Upstream returned an embedding in base64 that is not float32 bytes.');
    return { values };
  });
  return input.params.method === 'batchEmbedContents' ? { embeddings } : { embedding: embeddings[0] };
}
