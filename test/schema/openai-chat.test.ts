/**
 * What an OpenAI Chat Completions caller receives, checked against OpenAI's OpenAPI document
 * (openai.schema.json; source and commit there): chat.completion bodies, every
 * chat.completion.chunk and the stream's error frame, error envelopes, the model list.
 *
 * Fields the document does not define, `reasoning_content` (DeepSeek's) and `reasoning_details`
 * (OpenRouter's, carrying other vendors' signatures), are deliberate extensions; the document's
 * objects are open, so they are not violations and need no allowance.
 */
import { describe, expect, it } from 'vitest';
import type { StreamEvent, StreamFrame } from '../../src/canonical/index.ts';
import { openaiChat } from '../../translators/openai-chat/index.ts';
import { testContext } from '../support/fixtures.ts';
import { fixtureErrors, fixtureResponses, fixtureStreams, logprobSamples, scenarioErrors, scenarioResponses, scenarioStreams, type Sample } from './sources.ts';
import { checker, type Allowance } from './validate.ts';

const finishError = (def: string, at: RegExp): Allowance => ({
  def,
  at,
  value: (v) => v === 'error',
  as: 'stop',
  reason:
    "finish_reason 'error' for a generation that ended in an error (Gemini MALFORMED_FUNCTION_CALL…): " +
    "the document's enum has no such value and 'stop' would claim a clean end; it is OpenRouter's " +
    'normalized value, and the official SDKs pass unknown strings through (translators/openai-chat/finish-reason.ts).',
});

const allowances: Allowance[] = [
  finishError('CreateChatCompletionResponse', /^\/choices\/\d+\/finish_reason$/),
  finishError('CreateChatCompletionStreamResponse', /^\/choices\/\d+\/finish_reason$/),
];
const check = checker('openai', allowances);

function frameProblems(frames: StreamFrame[]): string[] {
  const problems: string[] = [];
  frames.forEach((f, i) => {
    if (f.event !== undefined) problems.push(`frame ${i}: Chat Completions frames have no event name`);
    if (f.data === '[DONE]') {
      if (i !== frames.length - 1) problems.push(`frame ${i}: [DONE] before the end`);
      return;
    }
    const data = JSON.parse(f.data) as Record<string, unknown>;
    const def = 'error' in data ? 'ErrorResponse' : 'CreateChatCompletionStreamResponse';
    problems.push(...check.problems(def, data).map((p) => `frame ${i}: ${p}`));
  });
  if (frames.at(-1)?.data !== '[DONE]') problems.push('the stream does not end with [DONE]');
  return problems;
}

function encodeStream(s: Sample<StreamEvent[]>): StreamFrame[][] {
  const n = s.value.length;
  return [...new Set([n, Math.floor(n / 3), Math.floor((2 * n) / 3)])].map((cut) => {
    const enc = openaiChat.createStreamEncoder(s.req, testContext());
    return [...s.value.slice(0, cut).flatMap((e) => enc.push(e)), ...enc.finish()];
  });
}

const label = <T,>(samples: Sample<T>[]) => samples.map((s) => [s.name, s] as const);

describe('OpenAI chat caller: bodies conform to CreateChatCompletionResponse', () => {
  it.each(label([...fixtureResponses(), ...scenarioResponses(), logprobSamples().response]))('%s', (_name, s) => {
    expect(check.problems('CreateChatCompletionResponse', openaiChat.encodeResponse(s.value, s.req, testContext()))).toEqual([]);
  });

  it('also for a caller of the deprecated `functions` (function_call, finish_reason function_call)', () => {
    const legacy = scenarioResponses().find((s) => s.name === 'all part kinds')!;
    const extras = { dialect: 'openai-chat' as const, fields: {}, legacyFunctions: true as const };
    const body = openaiChat.encodeResponse(legacy.value, { ...legacy.req, extras }, testContext()) as any;
    expect(body.choices[0]).toMatchObject({ finish_reason: 'function_call', message: { function_call: { name: 'weather' } } });
    expect(check.problems('CreateChatCompletionResponse', body)).toEqual([]);
    const stream = scenarioStreams().find((s) => s.name.startsWith('reasoning'))!;
    for (const frames of encodeStream({ ...stream, req: { ...stream.req, extras } })) expect(frameProblems(frames)).toEqual([]);
  });
});

describe('OpenAI chat caller: every chunk conforms, the stream ends with [DONE]', () => {
  it.each(label([...fixtureStreams(), ...scenarioStreams(), logprobSamples().stream]))('%s', (_name, s) => {
    for (const frames of encodeStream(s)) expect(frameProblems(frames)).toEqual([]);
  });

  it.each(label(scenarioStreams()))('without stream_options.include_usage, with logprobs: %s', (_name, s) => {
    for (const frames of encodeStream({ ...s, req: { ...s.req, streamUsage: false, logprobs: true } })) expect(frameProblems(frames)).toEqual([]);
  });
});

describe('OpenAI chat caller: errors and the model list', () => {
  it.each(label([...fixtureErrors(), ...scenarioErrors()]))('error %s', (_name, s) => {
    const { status, body } = openaiChat.encodeError(s.value);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(check.problems('ErrorResponse', body)).toEqual([]);
  });

  it('model list', () => {
    const list = openaiChat.encodeModelList!([{ id: 'gpt-4o', ownedBy: 'openai', created: 1_700_000_000 }]);
    expect(check.problems('ListModelsResponse', list)).toEqual([]);
  });
});

describe('OpenAI schema checks have teeth', () => {
  it('rejects a missing refusal, a bad finish_reason, a numeric error code', () => {
    const body = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, logprobs: null, finish_reason: 'end_turn', message: { role: 'assistant', content: 'x' } }] };
    const problems = check.problems('CreateChatCompletionResponse', body);
    expect(problems).toContain("CreateChatCompletionResponse/choices/0/message must have required property 'refusal'");
    expect(problems.some((p) => p.startsWith('CreateChatCompletionResponse/choices/0/finish_reason'))).toBe(true);
    expect(check.problems('ErrorResponse', { error: { message: 'x', type: 't', param: null, code: 429 } })).toEqual(['ErrorResponse/error/code must be string,null']);
  });

  it('every allowance is needed', () => {
    expect(check.unused().map((a) => a.reason)).toEqual([]);
  });
});
