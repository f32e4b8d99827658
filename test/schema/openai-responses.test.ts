/**
 * What an OpenAI Responses caller receives, checked against OpenAI's OpenAPI document
 * (openai-responses.schema.json; source and commit there): Response objects, every stream event
 * and the order a client relies on, error envelopes, token counts, the model list.
 *
 * The model list also carries `models[]`, Codex's catalogue (translators/openai-responses/
 * model-list.ts); the document's objects are open, so it is no violation and needs no allowance.
 */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { openaiResponses } from '../../translators/openai-responses/index.ts';
import { testContext } from '../support/fixtures.ts';
import { baseRequest, fixtureErrors, fixtureResponses, fixtureStreams, logprobSamples, scenarioErrors, scenarioResponses, scenarioStreams, type Sample } from './sources.ts';
import { replayedReasoningWithoutId } from './openai-responses-allowances.ts';
import { checker, type Allowance } from './validate.ts';

/** In-stream failures the document's `ResponseErrorCode` has no word for (the HTTP envelope's codes for them). */
const EXTRA_CODES = ['invalid_api_key', 'permission_denied', 'model_not_found'];
const codeAllowance = (def: string, at: RegExp): Allowance => ({
  def,
  at,
  value: (v) => typeof v === 'string' && EXTRA_CODES.includes(v),
  as: 'invalid_prompt',
  reason:
    "response.error.code for a stream that fails on authentication, permission or an unknown model: the enum has no such code, and 'invalid_prompt' would send the user looking at the prompt; these are the codes OpenAI's HTTP errors use for the same failures, and clients show the message either way.",
});

const allowances: Allowance[] = [
  codeAllowance('ResponseStreamEvent', /^\/response\/error\/code$/),
  replayedReasoningWithoutId,
];
const check = checker('openai-responses', allowances);

/** The Responses caller's view of a request: it asked for summaries and encrypted reasoning. */
const asCaller = (r: ChatRequest): ChatRequest => ({
  ...r,
  reasoning: { ...r.reasoning, includeThoughts: true },
  extras: { ...(r.extras?.dialect === 'openai-responses' ? r.extras : { dialect: 'openai-responses', fields: {} }), encryptedReasoning: true } as never,
});

function frameProblems(frames: StreamFrame[]): string[] {
  const problems: string[] = [];
  frames.forEach((f, i) => {
    const data = JSON.parse(f.data) as Record<string, unknown>;
    if (f.event !== data['type']) problems.push(`frame ${i}: event line ${f.event} is not the data's type`);
    problems.push(...check.problems('ResponseStreamEvent', data).map((p) => `frame ${i}: ${p}`));
  });
  const last = frames.at(-1)?.event;
  if (!['response.completed', 'response.incomplete', 'response.failed'].includes(last ?? '')) problems.push('the stream does not end with its terminal event');
  return problems;
}

function encodeStream(s: Sample<StreamEvent[]>): StreamFrame[][] {
  const n = s.value.length;
  return [...new Set([n, Math.floor(n / 3), Math.floor((2 * n) / 3)])].flatMap((cut) =>
    [s.req, asCaller(s.req)].map((r) => {
      const enc = openaiResponses.createStreamEncoder(r, testContext());
      return [...s.value.slice(0, cut).flatMap((e) => enc.push(e)), ...enc.finish()];
    }),
  );
}

const label = <T,>(samples: Sample<T>[]) => samples.map((s) => [s.name, s] as const);

describe('OpenAI Responses caller: bodies conform to Response', () => {
  it.each(label([...fixtureResponses({ freeform: true }), ...scenarioResponses(), logprobSamples().response]))('%s', (_name, s) => {
    for (const r of [s.req, asCaller(s.req), { ...s.req, logprobs: true }]) {
      expect(check.problems('Response', openaiResponses.encodeResponse(s.value, r, testContext()))).toEqual([]);
    }
  });
});

describe('OpenAI Responses caller: every event conforms, the stream ends with its terminal event', () => {
  it.each(label([...fixtureStreams({ freeform: true }), ...scenarioStreams(), logprobSamples().stream]))('%s', (_name, s) => {
    for (const frames of encodeStream(s)) expect(frameProblems(frames)).toEqual([]);
  });
});

describe('OpenAI Responses caller: errors, token counts, the model list', () => {
  it.each(label([...fixtureErrors(), ...scenarioErrors()]))('error %s', (_name, s) => {
    const { status, body } = openaiResponses.encodeError(s.value);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(check.problems('ErrorResponse', body)).toEqual([]);
    // The same failure inside a stream.
    const enc = openaiResponses.createStreamEncoder(baseRequest({ stream: true }), testContext());
    expect(frameProblems([...enc.push({ type: 'error', error: s.value }), ...enc.finish()])).toEqual([]);
  });

  it('token counts and the model list', () => {
    expect(check.problems('TokenCountsResource', openaiResponses.encodeCountTokensResponse!(12))).toEqual([]);
    expect(check.problems('ListModelsResponse', openaiResponses.encodeModelList!([{ id: 'gpt-5.1', ownedBy: 'openai', created: 1_700_000_000 }]))).toEqual([]);
    // A route's token limits are fields OpenAI's list lacks: the document's objects are open.
    const meta = { id: 'deep', ownedBy: 'openai', created: 0, contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { effort: 'high' as const } };
    expect(check.problems('ListModelsResponse', openaiResponses.encodeModelList!([meta]))).toEqual([]);
  });
});

/**
 * State served by the proxy (toward upstreams that keep none): what `GET …/input_items` and
 * `GET /v1/responses/{id}` answer from kept turns, and the `input` a Responses upstream is then
 * sent for a turn continued by reference. (`DELETE /v1/responses/{id}`: the document gives its
 * 200 no body schema, and the SDK reads none.)
 */
describe('OpenAI Responses state: input items, retrieve and the upstream input conform', () => {
  const state = openaiResponses.state!;
  const img = 'data:image/png;base64,iVBORw0KGgo=';
  /** Inputs as callers send them: every item kind and content form a caller may use. */
  const inputs: Array<[string, unknown]> = [
    ['a string', 'What is the weather in Paris?'],
    [
      'easy messages of every role, content as text and as parts',
      [
        { role: 'developer', content: 'Be brief.' },
        { role: 'system', content: [{ type: 'input_text', text: 'System rules.' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'Look:' }, { type: 'input_image', image_url: img }, { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' }] },
        { role: 'assistant', content: 'Earlier answer.' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'With parts.' }] },
        { role: 'user', content: 'Go on.' },
      ],
    ],
    [
      'tool calls, their outputs, reasoning, freeform tools',
      [
        { role: 'user', content: 'Patch it.' },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: 'gAAAA' },
        { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"cmd":"ls"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_2', output: 'done' },
      ],
    ],
  ];

  /** Each input answered (JSON, kept as the store keeps it) with every part kind, then continued. */
  const cases = inputs.flatMap(([name, input]) =>
    [...scenarioResponses().filter((s) => s.name === 'all part kinds' || s.name === 'refusal only'), ...fixtureResponses().slice(0, 6)].map((s) => {
      const ctx = testContext();
      const req = s.req;
      const { answer, kept } = openaiResponses.encodeKept!(s.value, req, ctx);
      const first = new Map(state.record({ model: 'm', input }, kept, new Map(), ctx));
      const id = (answer as { id: string }).id;
      const expanded = state.expand({ model: 'm', previous_response_id: id, input: 'And then?' }, first);
      const second = new Map(state.record(expanded, { id: 'resp_next', object: 'response', output: [] }, first, ctx));
      return { name: `${name} / ${s.name}`, first: first.get(`resp:${id}`)!, second: second.get('resp:resp_next')!, expanded };
    }),
  );

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    for (const stored of [c.first, c.second]) {
      for (const query of [{}, { order: 'asc' }, { limit: '2' }, { include: 'reasoning.encrypted_content' }] as Array<Record<string, string>>) {
        expect(check.problems('ResponseItemList', state.inputItems(stored, query))).toEqual([]);
      }
    }
    expect(check.problems('Response', state.retrieved(c.first))).toEqual([]);
    // The continued turn, sent to a Responses upstream: decoded as the caller's, encoded anew.
    const decoded = openaiResponses.decodeRequest({ body: c.expanded, headers: {}, params: {}, query: {} }, testContext()).value;
    const sent = openaiResponses.encodeRequest(decoded, { name: 'openai', model: 'gpt-5', options: {} }, testContext()).value;
    expect(check.problems('InputParam', JSON.parse(sent.body as string).input)).toEqual([]);
  });

  it('the checks have teeth: an input item without an id or status, an assistant turn in input parts, a bare output message', () => {
    const list = (data: unknown[]) => ({ object: 'list', data, first_id: 'a', last_id: 'b', has_more: false });
    expect(check.problems('ResponseItemList', list([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }]))).not.toEqual([]);
    expect(check.problems('ResponseItemList', list([{ id: 'fc_1', type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }]))).not.toEqual([]);
    expect(check.problems('ResponseItemList', list([{ id: 'msg_1', type: 'message', role: 'user', content: 'x' }]))).not.toEqual([]);
    expect(check.problems('InputParam', [{ role: 'assistant', content: [{ type: 'output_text', text: 'x' }] }])).not.toEqual([]);
    expect(check.problems('InputParam', [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'x', annotations: [] }] }])).not.toEqual([]);
    expect(check.problems('InputParam', [{ role: 'assistant', content: 'x' }, { type: 'item_reference', id: 'msg_1' }])).toEqual([]);
  });
});

describe('OpenAI Responses schema checks have teeth', () => {
  it('rejects an unknown status, a function call without arguments, a delta without a sequence number', () => {
    const body = { id: 'r', object: 'response', created_at: 1, status: 'done', error: null, incomplete_details: null, instructions: null, model: 'm', tools: [], parallel_tool_calls: true, metadata: {}, tool_choice: 'auto', temperature: 1, top_p: 1, output: [{ type: 'function_call', call_id: 'c', name: 'f' }] };
    const problems = check.problems('Response', body);
    expect(problems.some((p) => p.startsWith('Response/status'))).toBe(true);
    expect(problems).toContain("Response/output/0 must have required property 'arguments'");
    expect(check.problems('ResponseStreamEvent', { type: 'response.output_text.delta', item_id: 'i', output_index: 0, content_index: 0, delta: 'x', logprobs: [] })).toContain("ResponseStreamEvent/ must have required property 'sequence_number'");
    expect(check.problems('ResponseStreamEvent', { type: 'response.failed', sequence_number: 1, response: { ...body, status: 'failed', output: [], error: { code: 'oops', message: 'x' } } }).some((p) => p.includes('/response/error/code'))).toBe(true);
  });

  it('every allowance is needed', () => {
    const enc = openaiResponses.createStreamEncoder(baseRequest({ stream: true }), testContext());
    frameProblems([...enc.push({ type: 'error', error: new ProxyError('authentication', 'Incorrect API key provided.') }), ...enc.finish()]);
    expect(check.unused().map((a) => a.reason)).toEqual([]);
  });
});
