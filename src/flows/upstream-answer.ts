/**
 * Reading an upstream's non-stream answer: its body read under the idle timeout, parsed as JSON
 * (not JSON, or nested too deep, is the upstream's error) and decoded; a stream's answer checked
 * to be an event stream before the caller's stream starts; the upstream headers worth keeping.
 */
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../kit/index.ts';
import { ProxyError, type ChatRequest, type ChatResponse } from '../canonical/index.ts';
import type { ChatUpstream } from '../../translators/types.ts';
import { asProxyError, type RequestScope } from '../observe/scope.ts';
import type { UpstreamSuccess } from '../upstream/call.ts';
import { providerOf } from '../upstream/providers/index.ts';
import { raiseCustomToolCalls } from './custom-tools.ts';

/** Read and decode a non-stream upstream body; garbage becomes a 502 in the caller's dialect. */
export async function readResponse(
  success: UpstreamSuccess,
  upstream: ChatUpstream,
  req: ChatRequest,
  scope: RequestScope,
): Promise<ChatResponse> {
  return decodeText(await readBodyText(success, scope), success, upstream, req, scope);
}

/** An upstream's answer body as JSON, or the upstream error that says why it is not (not JSON, nested too deep). */
export function upstreamJson(text: string, name: string): unknown {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ProxyError('upstream', `Upstream ${name} returned a body that is not JSON.`, { raw: text.slice(0, 2000) });
  }
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new ProxyError('upstream', `Upstream ${name} returned JSON nested deeper than ${MAX_JSON_DEPTH} levels.`);
  return body;
}

/** Parse and decode an upstream body; garbage (not JSON, wrong shape, an error inside) → 502. */
export function decodeText(
  text: string,
  success: UpstreamSuccess,
  upstream: ChatUpstream,
  req: ChatRequest,
  scope: RequestScope,
  /** A model-side failure (Gemini MALFORMED_FUNCTION_CALL) becomes an error for foreign callers. */
  failOnErrorFinish = true,
): ChatResponse {
  const name = success.attempt.target.upstream.name;
  const body = upstreamJson(text, name);
  let response: ChatResponse;
  try {
    response = upstream.decodeResponse(body, req, scope);
    if (!upstream.customTools) response = raiseCustomToolCalls(response, req);
  } catch (e) {
    if (e instanceof ProxyError) throw e;
    throw new ProxyError('upstream', `Upstream ${name} returned a response of an unexpected shape.`);
  }
  scope.usage(response.usage);
  scope.searched(response.choices.reduce((n, c) => n + c.content.filter((p) => p.type === 'web-search').length, 0));
  scope.trace?.response(response);
  scope.dump?.(`upstream response ← ${name}`, body);
  if (failOnErrorFinish && response.choices.length > 0 && response.choices.every((c) => c.finishReason.unified === 'error')) {
    const raw = response.choices[0]!.finishReason.raw ?? 'error';
    throw new ProxyError('upstream', `Upstream stopped with ${raw}: the model produced an invalid response.`, { code: raw });
  }
  return response;
}

/** Read a whole upstream body, bounded by the upstream's idle timeout. */
export async function readBodyText(success: UpstreamSuccess, scope: RequestScope): Promise<string> {
  const { idleMs } = success.attempt.target.upstream.timeouts;
  const timer = setTimeout(() => scope.abort(new ProxyError('timeout', `Upstream body not received within ${idleMs} ms.`)), idleMs);
  try {
    const text = await success.res.text();
    scope.markFirstByte();
    return text;
  } catch (e) {
    throw asProxyError(e, scope, 'body');
  } finally {
    clearTimeout(timer);
  }
}

/** Copy the upstream headers worth keeping into fresh caller headers (never mutate upstream's). */
export function keptUpstreamHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'retry-after', 'request-id', 'x-request-id', 'openai-processing-ms']) {
    const v = res.headers.get(name);
    if (v !== null) out[name === 'x-request-id' ? 'x-upstream-request-id' : name] = v;
  }
  return out;
}

/**
 * An upstream answer to a stream request that is not an event stream (an HTML error page, a JSON
 * body) is a 502 before the caller's stream starts. A missing content type is given the benefit
 * of the doubt: the pipeline then ends garbage with an error event.
 */
export async function assertEventStream(success: UpstreamSuccess, scope: RequestScope): Promise<void> {
  const { res } = success;
  if (res.status === 204 || res.status === 205) throw new ProxyError('upstream', 'Upstream returned no stream body.');
  const type = res.headers.get('content-type');
  // SSE, or the host's own stream framing (Bedrock's AWS event stream).
  const framing = providerOf(success.attempt.target.upstream).streamContentType ?? 'text/event-stream';
  if (type === null || type.split(';')[0]!.trim().toLowerCase() === framing) return;
  const text = await readBodyText(success, scope).catch(() => '');
  throw new ProxyError('upstream', `Upstream ${success.attempt.target.upstream.name} answered a stream request with ${type.split(';')[0]} instead of an event stream.`, {
    raw: text.slice(0, 2000),
  });
}
