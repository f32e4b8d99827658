/**
 * Shared pieces of the Gemini end-to-end suites: the `@google/genai` client pointed at the proxy,
 * one table row per upstream dialect (route, fixtures, where the mock sees what), and small
 * readers for what the SDK or the mock got.
 */
import { ApiError, GoogleGenAI } from '@google/genai';
import { expect } from 'vitest';
import { mayCarrySignatures } from '../../src/canonical/index.ts';
import { fixtureJson, fixtureText } from '../support/fixtures.ts';
import { fixtureReply, type MockReply, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY } from '../support/proxy.ts';

export { ApiError, GoogleGenAI };

/** `@google/genai` against the proxy (it calls `/v1beta/models/…`, key in `x-goog-api-key`). */
export function genai(proxyUrl: string, apiKey = INBOUND_KEY): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: proxyUrl } });
}

/** Catch what a promise rejects with (or fail when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** An ApiError's status and the Gemini error body the SDK put in its message. */
export function apiErrorOf(e: unknown): { status: number; body: { error: { code: number; message: string; status: string; details?: any[] } } } {
  expect(e).toBeInstanceOf(ApiError);
  const err = e as ApiError;
  return { status: err.status, body: JSON.parse(err.message) };
}

/** The seconds of a Gemini RetryInfo detail, if any. */
export function retryDelayOf(details: any[] | undefined): string | undefined {
  return details?.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo')?.retryDelay;
}

export type UpstreamKind = 'openai' | 'anthropic' | 'gemini';

/** One upstream dialect as the Gemini caller's suites use it. */
export interface UpstreamCase {
  kind: UpstreamKind;
  /** The model the caller names (a route of `e2eConfig`). */
  model: string;
  /** Path the mock should see for a non-stream / stream call. */
  path: string;
  streamPath: string;
  text: MockReply;
  /** The text the `text` fixture holds. */
  expectedText: string;
  stream: MockReply;
  expectedStreamText: string;
  /** A single tool call: its reply, and the id and name the upstream issued. */
  tool: { reply: MockReply; id: string; name: string; args: Record<string, unknown> };
  rateLimit: MockReply;
  /** A stream that sends some text, then fails. */
  midStreamError: MockReply;
  /** The user-visible text of the last user message the mock received. */
  lastUserText(r: ReceivedRequest): string;
}

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: any) => (typeof c?.text === 'string' ? c.text : '')).join('');
  return '';
}

function sseText(dialect: string, name: string, pick: (d: any) => string | undefined): string {
  return fixtureText(dialect, name)
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => pick(JSON.parse(l.slice(6))) ?? '')
    .join('');
}

const json = { 'content-type': 'application/json' };
const sse = { 'content-type': 'text/event-stream' };

export const UPSTREAM_CASES: UpstreamCase[] = [
  {
    kind: 'openai',
    model: 'to-openai',
    path: '/v1/chat/completions',
    streamPath: '/v1/chat/completions',
    text: fixtureReply('openai-chat', 'text-basic.json'),
    expectedText: fixtureJson('openai-chat', 'text-basic.json').choices[0].message.content,
    stream: fixtureReply('openai-chat', 'stream-text-basic.sse'),
    expectedStreamText: sseText('openai-chat', 'stream-text-basic.sse', (d) => d.choices?.[0]?.delta?.content),
    tool: {
      reply: fixtureReply('openai-chat', 'tool-call-single.json'),
      id: 'call_Y6qJ7ofLgOrBnMD5WbVAeiRV',
      name: 'GetWeatherArgs',
      args: { city: 'Edinburgh', country: 'UK', units: 'c' },
    },
    rateLimit: fixtureReply('openai-chat', 'error-429-rate-limit-tpm.json', { headers: { ...json, 'retry-after': '2' } }),
    midStreamError: {
      headers: sse,
      chunks: [
        'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}\n\n',
        'data: {"error":{"message":"The server had an error processing your request.","type":"server_error","param":null,"code":null}}\n\n',
      ],
    },
    lastUserText: (r) => textOfContent(r.json.messages.filter((m: any) => m.role === 'user').at(-1)?.content),
  },
  {
    kind: 'anthropic',
    model: 'to-anthropic',
    path: '/v1/messages',
    streamPath: '/v1/messages',
    text: fixtureReply('anthropic', 'thinking-signature.json'),
    expectedText: '925 ÷ 5 = 185',
    stream: fixtureReply('anthropic', 'stream-text-basic.sse'),
    expectedStreamText: sseText('anthropic', 'stream-text-basic.sse', (d) => d.delta?.text),
    tool: {
      reply: fixtureReply('anthropic', 'tool-use-single.json'),
      id: 'toolu_013DU6hV4C1M8dJ32ybQFAFi',
      name: 'get_weather',
      args: { location: 'SF', units: 'c' },
    },
    rateLimit: fixtureReply('anthropic', 'error-429-rate-limit.json', { headers: { ...json, 'retry-after': '7' } }),
    midStreamError: fixtureReply('anthropic', 'stream-error-overloaded-midstream.sse'),
    lastUserText: (r) => textOfContent(r.json.messages.filter((m: any) => m.role === 'user').at(-1)?.content),
  },
  {
    kind: 'gemini',
    model: 'gemini-2.5-flash',
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    streamPath: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    text: fixtureReply('gemini', 'system-instruction.json'),
    expectedText: 'low',
    stream: fixtureReply('gemini', 'stream-finish-max-tokens.sse'),
    expectedStreamText: sseText('gemini', 'stream-finish-max-tokens.sse', (d) =>
      (d.candidates?.[0]?.content?.parts ?? []).map((p: any) => (p.thought ? '' : (p.text ?? ''))).join(''),
    ),
    tool: {
      reply: fixtureReply('gemini', 'gemini3-tool-call.json'),
      id: '',
      name: 'weather',
      args: { location: 'San Francisco' },
    },
    rateLimit: fixtureReply('gemini', 'error-429-resource-exhausted.json'),
    midStreamError: {
      headers: sse,
      chunks: [
        'data: {"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"},"index":0}],"modelVersion":"gemini-2.5-flash"}\n\n',
        'data: {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}\n\n',
      ],
    },
    lastUserText: (r) =>
      (r.json.contents.filter((c: any) => c.role !== 'model').at(-1)?.parts ?? []).map((p: any) => p.text ?? '').join(''),
  },
];

/** A tiny valid PNG (1×1), base64. */
export const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// ---- Gemini as the upstream (OpenAI / Anthropic callers) ----

/** A plain Gemini text answer. */
export function geminiText(text: string, finishReason = 'STOP'): MockReply {
  return {
    headers: json,
    body: JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason, index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, totalTokenCount: 14 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-text-1',
    }),
  };
}

const parallelChunk = {
  candidates: [
    {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }],
      },
      finishReason: 'STOP',
      index: 0,
    },
  ],
  usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 12, totalTokenCount: 42 },
  modelVersion: 'gemini-2.5-flash',
  responseId: 'resp-parallel-1',
};

/** Two functionCall parts of the same name and no ids, as Gemini answers parallel calls. */
export const PARALLEL_SAME_NAME: MockReply = { headers: json, body: JSON.stringify(parallelChunk) };
export const PARALLEL_SAME_NAME_SSE: MockReply = { headers: sse, chunks: [`data: ${JSON.stringify(parallelChunk)}\r\n\r\n`] };

/** Thought-signature fixtures: the tool call the model made and the signature it carried. */
export interface SignatureCase {
  /** Function name the fixture calls. */
  name: string;
  reply: MockReply;
  stream: boolean;
  model: string;
  question: string;
  tool: string;
  signature: string;
}

function firstCallSignature(dialect: string, file: string): { name: string; signature: string } {
  const text = fixtureText(dialect, file);
  const body = file.endsWith('.sse') ? JSON.parse(text.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) : JSON.parse(text);
  const part = body.candidates[0].content.parts.find((p: any) => p.functionCall);
  return { name: part.functionCall.name, signature: part.thoughtSignature };
}

/** The thought signature a text fixture carries (on its text, or on a trailing empty-text part). */
export function textSignatureOf(file: string): string {
  const text = fixtureText('gemini', file);
  const bodies = file.endsWith('.sse') ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6))) : [JSON.parse(text)];
  const sigs = bodies.flatMap((b) => b.candidates[0].content.parts).filter((p: any) => p.thoughtSignature).map((p: any) => p.thoughtSignature);
  expect(sigs).toHaveLength(1);
  return sigs[0];
}

export function signatureCases(): Array<SignatureCase & { file: string }> {
  return [
    ['gemini3-tool-call.json', 'gemini-3-pro-preview', 'Weather in San Francisco?'],
    ['stream-gemini3-tool-call.sse', 'gemini-3-pro-preview', 'Weather in San Francisco?'],
    ['stream-tool-call-thought-signature.sse', 'gemini-2.5-flash', '今日の東京の天気を教えて'],
  ].map(([file, model, question]) => {
    const { name, signature } = firstCallSignature('gemini', file!);
    return { file: file!, name, tool: name, reply: fixtureReply('gemini', file!), stream: file!.endsWith('.sse'), model: model!, question: question!, signature };
  });
}

/** No trace of a Gemini signature in a body bound for another vendor: raw, carried, or re-encoded. */
export function expectNoSignatureData(body: string, signature: string): void {
  expect(body).not.toContain(signature.slice(0, 24));
  expect(body).not.toContain(Buffer.from(signature).toString('base64url').slice(8, 40));
  expect(body).not.toContain(Buffer.from(signature).toString('base64').slice(8, 40));
  expect(mayCarrySignatures(body)).toBe(false);
  expect(body).not.toContain('skip_thought_signature_validator');
}

/** A JSON Schema using what Gemini's Schema rejects. */
export const SCHEMA_WITH_REFS = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  $defs: {
    Guest: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: ['integer', 'null'] } },
      required: ['name'],
      additionalProperties: false,
    },
  },
  properties: {
    guest: { $ref: '#/$defs/Guest' },
    kind: { const: 'hotel' },
    when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
    nights: { anyOf: [{ type: 'integer' }, { type: 'string' }] },
  },
  required: ['guest', 'kind'],
  additionalProperties: false,
};

/** What `SCHEMA_WITH_REFS` must look like once compiled for Gemini. */
export function expectCompiledSchema(p: any): void {
  const text = JSON.stringify(p);
  for (const k of ['$ref', '$defs', 'additionalProperties', '"const"', '$schema']) expect(text).not.toContain(k);
  expect(p.type).toBe('OBJECT');
  expect(p.required).toEqual(['guest', 'kind']);
  expect(p.properties.guest).toMatchObject({ type: 'OBJECT', required: ['name'], properties: { name: { type: 'STRING' } } });
  expect(p.properties.guest.properties.age).toEqual({ type: 'INTEGER', nullable: true });
  expect(p.properties.kind).toMatchObject({ enum: ['hotel'] });
  expect(p.properties.when).toMatchObject({ type: 'STRING', nullable: true });
  expect(p.properties.nights.anyOf).toEqual([{ type: 'INTEGER' }, { type: 'STRING' }]);
}

/** A mock handler that serves the 1×1 PNG on GET and answers everything else with `reply`. */
export function pngServer(reply: MockReply) {
  return (r: ReceivedRequest): MockReply =>
    r.method === 'GET' ? { headers: { 'content-type': 'image/png' }, body: Buffer.from(PNG_1X1, 'base64') } : reply;
}

/** The `x-interlingua-warnings` a compile of `SCHEMA_WITH_REFS` (as tool 0) must report. */
export function expectSchemaWarnings(header: string | null): void {
  const tokens = (header ?? '').split(', ');
  expect(tokens).toEqual(
    expect.arrayContaining([
      'dropped:tools[0].parameters.$schema',
      'dropped:tools[0].parameters.additionalProperties',
      'dropped:tools[0].parameters.properties.guest.additionalProperties',
    ]),
  );
}

/** A Gemini stream: two thought chunks, two text chunks (cumulative usage on each), then finish. */
export const THOUGHTS_THEN_TEXT_SSE: MockReply = {
  headers: sse,
  chunks: [
    [{ text: 'Adding 1 to 100 ', thought: true }, 10],
    [{ text: 'pairwise gives 101 × 50.', thought: true }, 20],
    [{ text: 'The sum is ' }, 24],
    [{ text: '5050.' }, 27, 'STOP'],
  ].map(([part, out, finish]) => {
    const chunk = {
      candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
      usageMetadata: { promptTokenCount: 17, candidatesTokenCount: Number(out) - 8, thoughtsTokenCount: 8, totalTokenCount: 17 + Number(out) },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'resp-thoughts-1',
    };
    return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
  }),
};
