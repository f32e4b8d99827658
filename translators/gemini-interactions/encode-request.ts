/**
 * Upstream side: canonical `ChatRequest` → `POST /v1beta/interactions` (the path `@google/genai`
 * appends to the host), the model in the body, `stream: true` in the body when streaming (with
 * `accept: text/event-stream`; no `?alt=sse` in this API), and `store: false` so the upstream
 * keeps nothing and the proxy stays stateless: the whole conversation goes in `input` as steps.
 * The key goes in `x-goog-api-key` as for generateContent (translators/gemini); who hosts the
 * upstream (the Gemini API, or Vertex AI's `v1beta1/projects/…/interactions`) is the provider's
 * business (src/upstream/providers).
 *
 * Also the same-dialect passthrough, and by id: `GET|DELETE /v1beta/interactions/{id}` and
 * `POST /v1beta/interactions/{id}/cancel`.
 */
import {
  cacheControlWarnings,
  extrasFor,
  ProxyError,
  type ChatRequest,
  type Converted,
  type Warning,
} from '../../src/canonical/index.ts';
import {
  jsonBody,
} from '../../src/kit/index.ts';
import type { TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { encodeInput } from './encode-input.ts';
import { encodeGenerationConfig, encodeResponseFormat, encodeTools } from './encode-settings.ts';
import type { InteractionsCreateBody } from './wire.ts';

export const INTERACTIONS_PATH = '/v1beta/interactions';

export function upstreamHeaders(target: UpstreamTarget, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(target.options.headers ?? {}) };
  if (stream) headers['accept'] = 'text/event-stream';
  if (target.apiKey) headers['x-goog-api-key'] = target.apiKey;
  return headers;
}

const GC_PREFIX = 'generation_config.';

/** The request body. */
export function encodeBody(req: ChatRequest, target: UpstreamTarget): Converted<InteractionsCreateBody> {
  const warnings: Warning[] = [...cacheControlWarnings(req)];
  // The caller's own fields when it spoke this dialect (tuning hints included), else one warning each.
  const extras = extrasFor(req, 'gemini-interactions');
  warnings.push(...extras.warnings);
  const top: Record<string, unknown> = {};
  const extraConfig: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extras.fields)) {
    if (value === undefined) continue;
    if (key.startsWith(GC_PREFIX)) extraConfig[key.slice(GC_PREFIX.length)] = value;
    else top[key] = value;
  }
  const { store, response_format: extraFormat, ...rest } = top;

  const body: InteractionsCreateBody = { ...rest, model: target.model };
  const { system_instruction, input } = encodeInput(req, warnings);
  body.input = input;
  if (system_instruction !== undefined) body.system_instruction = system_instruction;
  const tools = encodeTools(req, warnings);
  if (tools.length > 0) body.tools = tools;
  const gc = { ...extraConfig, ...encodeGenerationConfig(req, warnings) };
  if (Object.keys(gc).length > 0) body.generation_config = gc;
  const format = extraFormat ?? encodeResponseFormat(req);
  if (format !== undefined) body.response_format = format as InteractionsCreateBody['response_format'];
  if (req.user !== undefined) warnings.push({ code: 'dropped', path: 'user' });
  if (req.metadata !== undefined) warnings.push({ code: 'dropped', path: 'metadata' });
  // Stateless unless a caller of this dialect asked the upstream itself to keep the exchange.
  body.store = typeof store === 'boolean' ? store : false;
  if (req.stream) body.stream = true;
  else delete body.stream;
  return { value: body, warnings };
}

export function encodeRequest(req: ChatRequest, target: UpstreamTarget, _ctx?: TranslateContext): Converted<UpstreamHttpRequest> {
  const { value, warnings } = encodeBody(req, target);
  return {
    value: { method: 'POST', path: INTERACTIONS_PATH, headers: upstreamHeaders(target, req.stream), body: jsonBody(value, 'input', target.sent), stream: req.stream },
    warnings,
  };
}

/** An interaction id as exactly one path segment (`.`/`..` and the empty id refused). */
export function idSegment(id: string | undefined): string {
  const encoded = encodeURIComponent(id ?? '');
  if (encoded === '' || encoded === '.' || encoded === '..') {
    throw new ProxyError('invalid-request', `The interaction id '${id ?? ''}' cannot be sent to the upstream.`, { param: 'id' });
  }
  return encoded;
}
