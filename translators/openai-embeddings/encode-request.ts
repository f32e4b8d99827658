/**
 * The upstream side, out: `POST /embeddings` toward OpenAI, Azure OpenAI and the OpenAI-compatible
 * hosts (Mistral, Together, Fireworks, Ollama, vLLM…; the provider makes the URL). Floats are
 * asked for (the API's default, which every host serves): a caller wanting base64 gets it
 * encoded by the proxy. Token arrays go as they are (OpenAI takes them; a host that does not
 * answers with its own error). Task types and titles have no place here and are reported.
 */
import { ProxyError, type Converted, type EmbeddingRequest, type Warning } from '../../src/canonical/index.ts';
import { bearerJsonHeaders } from '../vendor/openai/index.ts';
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';

/** OpenAI's limit of inputs per request. */
export const OPENAI_BATCH = 2048;

/** Models of one size only: `dimensions` toward them is the caller's 400 (OpenAI answers the same). */
const FIXED_SIZE = /(^|\/)text-embedding-ada-002$/;

export function lostFields(req: EmbeddingRequest, fields: { task?: boolean; title?: boolean }): Warning[] {
  const out: Warning[] = [];
  if (!fields.task && req.inputs.some((i) => i.task)) out.push({ code: 'dropped', path: 'taskType', lossy: true });
  if (!fields.title && req.inputs.some((i) => i.title !== undefined)) out.push({ code: 'dropped', path: 'title' });
  return out;
}

export function encodeEmbeddingRequest(req: EmbeddingRequest, target: UpstreamTarget): Converted<UpstreamHttpRequest> {
  if (req.dimensions !== undefined && FIXED_SIZE.test(target.model)) {
    throw new ProxyError('invalid-request', `The model '${req.model}' (${target.model} on ${target.name}) has a fixed size: 'dimensions' cannot be set.`, { param: 'dimensions', code: 'invalid_value' });
  }
  const tokens = req.inputs.some((i) => i.type === 'tokens');
  if (tokens && req.inputs.some((i) => i.type !== 'tokens')) throw new ProxyError('invalid-request', "'input' mixes text and token arrays.", { param: 'input', code: 'invalid_type' });
  const body: Record<string, unknown> = {
    model: target.model,
    input: req.inputs.map((i) => (i.type === 'tokens' ? i.tokens : i.text)),
    ...(req.dimensions !== undefined && { dimensions: req.dimensions }),
    ...(req.user !== undefined && { user: req.user }),
  };
  return {
    value: { method: 'POST', path: '/embeddings', headers: bearerJsonHeaders(target.apiKey, target.options.headers), body: JSON.stringify(body), stream: false },
    warnings: lostFields(req, {}),
  };
}
