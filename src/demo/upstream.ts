/**
 * The demo upstreams, served in-process as the app's `fetch`: one per dialect, each reading the
 * request the proxy sent it with its own dialect's decoder (the caller side of the same
 * translator: what a vendor's server receives is what a caller of that dialect sends) and
 * answering with that dialect's own encoders, JSON or SSE framed as the vendor frames it. Nothing
 * is written per vendor here: the wire format is the translators'. No network: any other URL is
 * refused.
 */
import { ProxyError, type ChatRequest, type StreamFrame } from '../canonical/index.ts';
import { type FetchLike } from '../kit/index.ts';
import type { Registry, UpstreamDialect } from '../../translators/index.ts';
import type { CallerInput, ChatCaller, TranslateContext } from '../../translators/types.ts';
import { contentTypeOf, createTextSerializer } from '../sse/serialize.ts';
import { answerEvents, demoAnswer, type Speaker } from './answer.ts';

/** A demo upstream: its config name, dialect, what the dialect is called, and its base URL. */
export interface DemoUpstream {
  name: string;
  dialect: UpstreamDialect;
  label: string;
  baseUrl: string;
}

/** The caller dialect whose decoder reads what an upstream of `dialect` receives. */
const CALLER_OF: Record<UpstreamDialect, keyof Registry['chatCallers']> = {
  openai: 'openai-chat',
  anthropic: 'anthropic',
  gemini: 'gemini',
  'openai-responses': 'openai-responses',
  'gemini-interactions': 'gemini-interactions',
};

/** How each vendor's ids look: the answer's and a tool call's (Gemini's calls carry none). */
const ID_PREFIX: Record<UpstreamDialect, { id: string; call: string }> = {
  openai: { id: 'chatcmpl-', call: 'call_' },
  anthropic: { id: 'msg_', call: 'toolu_' },
  gemini: { id: '', call: 'call_' },
  'openai-responses': { id: 'resp_', call: 'call_' },
  'gemini-interactions': { id: '', call: 'call_' },
};

/** The request's route at its upstream, relative to the base URL: chat or a token count, and the route parameters. */
function routeOf(dialect: UpstreamDialect, path: string): { kind: 'chat' | 'count'; params: Record<string, string> } | undefined {
  switch (dialect) {
    case 'openai':
      return path === '/chat/completions' ? { kind: 'chat', params: {} } : undefined;
    case 'openai-responses':
      return path === '/responses' ? { kind: 'chat', params: {} } : path === '/responses/input_tokens' ? { kind: 'count', params: {} } : undefined;
    case 'anthropic':
      return path === '/v1/messages' ? { kind: 'chat', params: {} } : path === '/v1/messages/count_tokens' ? { kind: 'count', params: {} } : undefined;
    case 'gemini-interactions':
      return /^\/v1(beta)?\/interactions$/.test(path) ? { kind: 'chat', params: {} } : undefined;
    case 'gemini': {
      const m = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
      if (!m) return undefined;
      return { kind: m[2] === 'countTokens' ? 'count' : 'chat', params: { model: decodeURIComponent(m[1]!), method: m[2]! } };
    }
  }
}

/** Every string in a JSON value, joined: what a token count counts here. */
function stringsOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(stringsOf).join(' ');
  if (v && typeof v === 'object') return Object.values(v).map(stringsOf).join(' ');
  return '';
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function bodyText(body: RequestInit['body']): Promise<string> {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return new TextDecoder().decode(body);
  return new Response(body as BodyInit).text();
}

/** Frames as the dialect streams them, one chunk each, a moment apart (so a person sees it stream). */
function streamOf(frames: StreamFrame[], framing: 'sse' | 'json-array', gapMs: number, signal?: AbortSignal | null): ReadableStream<Uint8Array> {
  const serializer = createTextSerializer(framing);
  const chunks = frames.map((f) => serializer.push([f])!);
  const tail = serializer.finish();
  if (tail) chunks.push(tail);
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      if (signal?.aborted || i >= chunks.length) return controller.close();
      if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      controller.enqueue(encoder.encode(chunks[i++]!));
    },
  });
}

export interface DemoFetchOptions {
  /** Pause between two stream frames (default 15 ms); 0 for tests. */
  frameGapMs?: number;
  now?: () => number;
}

/** The app's upstream client for the demo: the demo upstreams by base URL, nothing else. */
export function createDemoFetch(upstreams: readonly DemoUpstream[], registry: Registry, o: DemoFetchOptions = {}): FetchLike {
  const now = o.now ?? Date.now;
  let seq = 0;
  const ctx: TranslateContext = { now, newId: (prefix) => `${prefix}demo${(++seq).toString(36).padStart(6, '0')}` };
  return async (input, init) => {
    const url = new URL(input);
    const upstream = upstreams.find((u) => input.startsWith(`${u.baseUrl}/`));
    if (!upstream) throw new ProxyError('upstream', `The demo reaches no network: ${url.host} is not a demo upstream.`, { status: 502 });
    const caller: ChatCaller = registry.chatCallers[CALLER_OF[upstream.dialect]];
    const path = url.pathname.slice(new URL(upstream.baseUrl).pathname.replace(/\/$/, '').length);
    const route = init.method === 'POST' ? routeOf(upstream.dialect, path) : undefined;
    const fail = (e: ProxyError) => {
      const out = caller.encodeError(e);
      return json(out.status, out.body, out.headers);
    };
    if (!route) return fail(new ProxyError('not-found', `The demo upstream ${upstream.name} has no ${init.method ?? 'GET'} ${path}.`));
    let body: unknown;
    try {
      body = JSON.parse(await bodyText(init.body));
    } catch {
      return fail(new ProxyError('invalid-request', 'The request body is not JSON.'));
    }
    if (route.kind === 'count') {
      const n = Math.max(1, Math.ceil(stringsOf(body).length / 4));
      return json(200, caller.encodeCountTokensResponse?.(n) ?? { input_tokens: n });
    }
    const callerInput: CallerInput = { body, headers: headersOf(init.headers), params: route.params, query: Object.fromEntries(url.searchParams) };
    let req: ChatRequest;
    try {
      req = caller.decodeRequest(callerInput, ctx).value;
    } catch (e) {
      return fail(e instanceof ProxyError ? e : new ProxyError('invalid-request', 'The demo could not read the request.'));
    }
    const who: Speaker = { name: upstream.name, label: upstream.label };
    const prefix = ID_PREFIX[upstream.dialect];
    const answer = demoAnswer(req, who, { id: ctx.newId(prefix.id), callId: ctx.newId(prefix.call), created: Math.floor(now() / 1000) });
    if (!req.stream) return json(200, caller.encodeResponse(answer, req, ctx));
    const encoder = caller.createStreamEncoder(req, ctx);
    const frames = [...answerEvents(answer).flatMap((e) => encoder.push(e)), ...encoder.finish()];
    const framing = caller.streamFraming?.(callerInput) ?? 'sse';
    return new Response(streamOf(frames, framing, o.frameGapMs ?? 15, init.signal), { status: 200, headers: { 'content-type': contentTypeOf(framing) } });
  };
}

function headersOf(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h).forEach((v, k) => (out[k] = v));
  return out;
}
