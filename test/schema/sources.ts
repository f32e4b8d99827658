/**
 * Realistic canonical values to encode through every caller dialect: every upstream fixture
 * decoded by its own dialect (responses, streams, errors), plus hand-built scenarios for what the
 * fixtures do not cover (each finish reason, foreign signatures, refusals, every error kind).
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ProxyError,
  type ChatRequest,
  type ChatResponse,
  type ErrorKind,
  type FinishReason,
  type Part,
  type StreamEvent,
  type Usage,
  type WebSearchPart,
} from '../../src/canonical/index.ts';
import { chatDialects } from '../../translators/index.ts';
import type { ChatDialect } from '../../translators/types.ts';
import { fixtureJson, fixtureSse, fixtureText, testContext } from '../support/fixtures.ts';

export const baseRequest = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'caller-model',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream: false,
  ...over,
});

const fixtureDir = (d: ChatDialect) => fileURLToPath(new URL(`../../translators/${d.id}/__fixtures__/`, import.meta.url));

/** The request that produced a fixture (its `.request.json`, decoded by the same dialect), else a plain one. */
function requestOf(d: ChatDialect, name: string, stream: boolean): ChatRequest {
  const file = name.replace(/\.(json|sse)$/, '.request.json');
  if (!existsSync(fixtureDir(d) + file)) return baseRequest({ stream, streamUsage: stream });
  const input = { body: fixtureJson(d.id, file), headers: { 'anthropic-version': '2023-06-01' }, params: { model: 'm', method: 'generateContent' }, query: {} };
  return { ...d.decodeRequest(input, testContext()).value, stream, streamUsage: stream };
}

const files = (d: ChatDialect, test: (f: string) => boolean) => readdirSync(fixtureDir(d)).filter(test).sort();
/** JSON fixtures that are not a whole response body. */
const NOT_A_RESPONSE = new Set(['usage-cached-and-reasoning-tokens.json']);
const isResponse = (f: string) => f.endsWith('.json') && !f.endsWith('.request.json') && !f.startsWith('error-') && !NOT_A_RESPONSE.has(f);

export interface Sample<T> {
  name: string;
  req: ChatRequest;
  value: T;
}

/**
 * Whether a decoded fixture calls a freeform (custom) tool. Only a caller that declared such
 * tools (an OpenAI Responses caller) can receive those calls: toward any other caller the
 * upstream has none to make. So they are left out unless `freeform` is asked for.
 */
function callsFreeformTools(value: ChatResponse | StreamEvent[]): boolean {
  if (Array.isArray(value)) return value.some((e) => e.type === 'tool-call-start' && e.custom);
  return value.choices.some((c) => c.content.some((p) => p.type === 'tool-call' && p.custom));
}

/** Every upstream JSON response fixture, decoded by its dialect. */
export function fixtureResponses(opts: { freeform?: boolean } = {}): Sample<ChatResponse>[] {
  return chatDialects.flatMap((d) =>
    files(d, isResponse).map((f) => {
      const req = requestOf(d, f, false);
      return { name: `${d.id}/${f}`, req, value: d.decodeResponse(fixtureJson(d.id, f), req, testContext()) };
    }),
  ).filter((s) => opts.freeform || !callsFreeformTools(s.value));
}

/** Every upstream SSE fixture, decoded by its dialect into canonical events. */
export function fixtureStreams(opts: { freeform?: boolean } = {}): Sample<StreamEvent[]>[] {
  return chatDialects.flatMap((d) =>
    files(d, (f) => f.endsWith('.sse')).map((f) => {
      const req = requestOf(d, f, true);
      const dec = d.createStreamDecoder(req, testContext());
      const value = [...fixtureSse(d.id, f).flatMap((e) => dec.push(e)), ...dec.finish()];
      return { name: `${d.id}/${f}`, req, value };
    }),
  ).filter((s) => opts.freeform || !callsFreeformTools(s.value));
}

/** Every upstream error fixture, decoded by its dialect (status from the file name). */
export function fixtureErrors(): Sample<ProxyError>[] {
  return chatDialects.flatMap((d) =>
    files(d, (f) => /^error-\d{3}-/.test(f)).map((f) => {
      const status = Number(/^error-(\d{3})-/.exec(f)![1]);
      return { name: `${d.id}/${f}`, req: baseRequest(), value: d.decodeError(status, fixtureText(d.id, f), { 'retry-after': '3' }) };
    }),
  );
}

const ANTHROPIC_SIG = 'EqQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACI+9vt/Zz=';
const GEMINI_SIG = 'CikBcsjafFK168IbtVtoxVV0Tsn8O+eU45rzJahzwuKGmMbdMdfpmNpgBwplAXLI2nyA';
const usage: Usage = { inputTokens: 1200, outputTokens: 300, totalTokens: 1500, cachedInputTokens: 800, cacheWriteTokens: 100, reasoningTokens: 120 };

const reasons: FinishReason[] = [
  { unified: 'stop' },
  { unified: 'stop-sequence', stopSequence: 'END' },
  { unified: 'length' },
  { unified: 'length', raw: 'model_context_window_exceeded' },
  { unified: 'tool-calls' },
  { unified: 'content-filter', raw: 'PROHIBITED_CONTENT' },
  { unified: 'refusal' },
  { unified: 'pause', raw: 'pause_turn' },
  { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' },
  { unified: 'other' },
  { unified: 'other', raw: 'brand_new' },
];

const richParts: Part[] = [
  { type: 'reasoning', text: 'Thinking it over.', signature: { origin: 'anthropic', value: ANTHROPIC_SIG } },
  { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT' } },
  { type: 'reasoning', text: 'Gemini thoughts.', signature: { origin: 'gemini', value: GEMINI_SIG } },
  { type: 'reasoning', text: 'OpenAI summary.', signature: { origin: 'openai', value: 'gAAAAABo-encrypted' } },
  { type: 'text', text: 'Here is the answer.', signature: { origin: 'gemini', value: GEMINI_SIG } },
  { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}', signature: { origin: 'gemini', value: GEMINI_SIG } },
  { type: 'tool-call', id: 'toolu_2', name: 'time', arguments: '{"tz":"CET"}' },
  { type: 'tool-call', id: 'call_3', name: 'noargs', arguments: '' },
  // Kimi's id style on OpenAI-compatible hosts: not [a-zA-Z0-9_-].
  { type: 'tool-call', id: 'functions.get_weather:3', name: 'get_weather', arguments: '{"city":"Oslo"}' },
];

/** Hand-built responses: every finish reason, all part kinds, refusals, a blocked prompt, n=2. */
/** What a Gemini upstream's grounding decodes to: a search (two queries, two pages) and a page read. */
const webSearches: Part[] = [
  { type: 'web-search', id: 'g_0_search', kind: 'search', queries: ['euro 2024 winner', 'euro 2024 final'], results: [{ url: 'https://uefa.com/x', title: 'UEFA' }, { url: 'https://bbc.co.uk/y', pageAge: '2 days ago' }] },
  { type: 'web-search', id: 'g_0_fetch0', kind: 'fetch', url: 'https://uefa.com/x', results: [{ url: 'https://uefa.com/x' }] },
];

export function scenarioResponses(): Sample<ChatResponse>[] {
  const res = (content: Part[], finishReason: FinishReason, over: Partial<ChatResponse> = {}): ChatResponse => ({
    id: 'resp-1',
    model: 'upstream-model',
    created: 1_700_000_000,
    choices: [{ index: 0, content, finishReason }],
    usage,
    ...over,
  });
  const out: Sample<ChatResponse>[] = reasons.map((r) => ({
    name: `finish ${r.unified}${r.raw ? ` (${r.raw})` : ''}`,
    req: baseRequest(),
    value: res(r.unified === 'tool-calls' ? richParts : [{ type: 'text', text: 'ok' }], r),
  }));
  out.push(
    { name: 'all part kinds', req: baseRequest(), value: res(richParts, { unified: 'tool-calls' }) },
    { name: 'refusal only', req: baseRequest(), value: res([{ type: 'refusal', text: 'I can’t help with that.' }], { unified: 'refusal' }) },
    {
      name: 'text with an OpenAI url_citation annotation',
      req: baseRequest(),
      value: res([{ type: 'text', text: 'See the docs.', citations: [{ url: 'https://example.com/docs', title: 'Docs', span: { start: 4, end: 12 }, raw: { dialect: 'openai-chat', value: { type: 'url_citation', url_citation: { start_index: 4, end_index: 12, url: 'https://example.com/docs', title: 'Docs' } } } }] }], { unified: 'stop' }),
    },
    {
      name: 'a web search and a fetch another vendor ran, text citing a page',
      req: baseRequest(),
      value: res([...webSearches, { type: 'text', text: 'Spain won Euro 2024 – see UEFA.', citations: [{ url: 'https://uefa.com/x', title: 'UEFA', span: { start: 0, end: 19 }, quote: 'Spain won Euro 2024' }] }], { unified: 'stop' }),
    },
    { name: 'empty content, no usage', req: baseRequest(), value: res([], { unified: 'stop' }, { usage: undefined }) },
    { name: 'prompt blocked', req: baseRequest(), value: res([], { unified: 'content-filter' }, { choices: [], promptBlocked: { reason: 'PROHIBITED_CONTENT' } }) },
    {
      name: 'two choices',
      req: baseRequest({ candidateCount: 2 }),
      value: res([{ type: 'text', text: 'a' }], { unified: 'stop' }, {
        choices: [
          { index: 0, content: [{ type: 'text', text: 'a' }], finishReason: { unified: 'stop' } },
          { index: 1, content: [{ type: 'text', text: 'b' }], finishReason: { unified: 'length' } },
        ],
      }),
    },
  );
  return out;
}

/** A Gemini upstream answer with `logprobsResult` (no fixture has one), as its decoder reads it. */
const geminiLogprobs = {
  logProbabilitySum: -0.7,
  topCandidates: [
    { candidates: [{ token: 'Hé', tokenId: 7, logProbability: -0.1 }, { token: 'Hi', tokenId: 8, logProbability: -2.3 }] },
    { candidates: [{ token: '!', tokenId: 9, logProbability: -0.6 }] },
  ],
  chosenCandidates: [
    { token: 'Hé', tokenId: 7, logProbability: -0.1 },
    { token: '!', tokenId: 9, logProbability: -0.6 },
  ],
};
const geminiBody = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'Hé!' }] }, finishReason: 'STOP', index: 0, logprobsResult: geminiLogprobs }],
  usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'r1',
};

export function logprobSamples(): { response: Sample<ChatResponse>; stream: Sample<StreamEvent[]> } {
  const gemini = chatDialects.find((d) => d.id === 'gemini')!;
  const req = baseRequest({ logprobs: true, topLogprobs: 2 });
  const sreq = { ...req, stream: true, streamUsage: true };
  const dec = gemini.createStreamDecoder(sreq, testContext());
  const events = [...dec.push({ data: JSON.stringify(geminiBody) }), ...dec.finish()];
  return {
    response: { name: 'Gemini logprobsResult', req, value: gemini.decodeResponse(geminiBody, req, testContext()) },
    stream: { name: 'Gemini logprobsResult (stream)', req: sreq, value: events },
  };
}

/** Hand-built streams: interleaved parallel tool calls, foreign signatures, refusal, each finish. */
export function scenarioStreams(): Sample<StreamEvent[]>[] {
  const start: StreamEvent = { type: 'message-start', id: 'chatcmpl-9', model: 'upstream-model', created: 1_700_000_000 };
  const req = baseRequest({ stream: true, streamUsage: true });
  const rich: StreamEvent[] = [
    start,
    { type: 'reasoning-start' },
    { type: 'reasoning-delta', text: 'Thinking' },
    { type: 'reasoning-end', signature: { origin: 'anthropic', value: ANTHROPIC_SIG } },
    { type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'EmwKAhgBEgy3va3p' } },
    { type: 'reasoning-end' },
    { type: 'text-start' },
    { type: 'text-delta', text: 'Checking both.' },
    { type: 'text-end', signature: { origin: 'gemini', value: GEMINI_SIG } },
    { type: 'tool-call-start', index: 0, id: 'call_a', name: 'weather', signature: { origin: 'gemini', value: GEMINI_SIG } },
    { type: 'tool-call-start', index: 1, id: 'functions.time:1', name: 'time' },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"CET"}' },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
    { type: 'tool-call-end', index: 1 },
    { type: 'tool-call-end', index: 0 },
    { type: 'usage', usage },
    { type: 'finish', reason: { unified: 'tool-calls' } },
  ];
  const text = (r: FinishReason): StreamEvent[] => [
    start,
    { type: 'text-start' },
    { type: 'text-delta', text: 'Hello' },
    { type: 'text-end' },
    { type: 'finish', reason: r },
    { type: 'usage', usage },
  ];
  return [
    { name: 'reasoning, signatures, parallel tool calls', req, value: rich },
    { name: 'refusal', req, value: [start, { type: 'refusal-start' }, { type: 'refusal-delta', text: 'No.' }, { type: 'refusal-end' }, { type: 'finish', reason: { unified: 'refusal' } }] },
    { name: 'prompt blocked', req, value: [start, { type: 'prompt-blocked', reason: 'SAFETY' }] },
    {
      name: 'text, then the searches that grounded it',
      req,
      value: [start, { type: 'text-start' }, { type: 'text-delta', text: 'Spain won.' }, { type: 'text-end' }, ...webSearches.map((part) => ({ type: 'web-search' as const, part: part as WebSearchPart })), { type: 'usage', usage }, { type: 'finish', reason: { unified: 'stop' } }],
    },
    { name: 'error midway', req, value: [start, { type: 'text-start' }, { type: 'text-delta', text: 'Hel' }, { type: 'error', error: new ProxyError('overloaded', 'Overloaded', { requestId: 'req_1' }) }] },
    { name: 'nothing at all', req, value: [] },
    ...reasons.map((r) => ({ name: `finish ${r.unified}${r.raw ? ` (${r.raw})` : ''}`, req, value: text(r) })),
  ];
}

const kinds: ErrorKind[] = ['invalid-request', 'authentication', 'permission', 'not-found', 'too-large', 'rate-limit', 'overloaded', 'upstream', 'timeout', 'unsupported'];

/** One error per kind, plus the variants the encoders branch on. */
export function scenarioErrors(): Sample<ProxyError>[] {
  return [
    ...kinds.map((k) => ({ name: k, req: baseRequest(), value: new ProxyError(k, `a ${k} problem`) })),
    { name: 'with request id and retry-after', req: baseRequest(), value: new ProxyError('rate-limit', 'slow down', { requestId: 'req_42', retryAfter: 2.5 }) },
    { name: 'param and code', req: baseRequest(), value: new ProxyError('invalid-request', 'bad', { param: 'messages[0]', code: 'invalid_value' }) },
    { name: 'upstream 503', req: baseRequest(), value: new ProxyError('upstream', 'down', { status: 503 }) },
    { name: 'Gemini API_KEY_INVALID', req: baseRequest(), value: new ProxyError('authentication', 'API key not valid', { status: 400, code: 'API_KEY_INVALID', upstreamType: 'INVALID_ARGUMENT' }) },
  ];
}
