import { describe, expect, test } from 'vitest';
import { fixtureJson, fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { openaiChat } from './index.ts';

const target = { name: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-2024-08-06', apiKey: 'sk', options: {} };
const input = (body: unknown) => ({ body, headers: {}, params: {}, query: {} });

test('the dialect object', () => {
  expect(openaiChat).toMatchObject({ id: 'openai-chat', vendor: 'openai', multipleChoices: true, inlineMediaOnly: false });
  for (const fn of [
    'decodeRequest',
    'encodeResponse',
    'createStreamEncoder',
    'encodeError',
    'encodeModelList',
    'encodeRequest',
    'decodeResponse',
    'createStreamDecoder',
    'decodeError',
    'encodePassthrough',
  ] as const) {
    expect(typeof openaiChat[fn]).toBe('function');
  }
});

test('OpenAI caller through an OpenAI upstream, non-stream: the caller gets the upstream body back', () => {
  const ctx = testContext();
  const req = openaiChat.decodeRequest(input(fixtureJson('openai-chat', 'tool-call-single.request.json')), ctx).value;
  const http = openaiChat.encodeRequest(req, target, ctx).value;
  expect(JSON.parse(http.body as string).tools[0].function.name).toBe('GetWeatherArgs');
  const wire = fixtureJson('openai-chat', 'tool-call-single.json');
  const out = openaiChat.encodeResponse(openaiChat.decodeResponse(wire, req, ctx), req, ctx) as any;
  expect(out.choices[0].message.tool_calls).toEqual(wire.choices[0].message.tool_calls);
  expect(out.choices[0].finish_reason).toBe('tool_calls');
});

test('OpenAI caller through an OpenAI upstream, stream without include_usage: usage chunk stripped', () => {
  const ctx = testContext();
  const req = openaiChat.decodeRequest(input(fixtureJson('openai-chat', 'stream-text-basic.request.json')), ctx).value;
  expect(JSON.parse(openaiChat.encodeRequest(req, target, ctx).value.body as string).stream_options).toEqual({ include_usage: true });
  const dec = openaiChat.createStreamDecoder(req, ctx);
  const enc = openaiChat.createStreamEncoder(req, ctx);
  const frames = fixtureSse('openai-chat', 'stream-text-basic.sse')
    .flatMap((e) => dec.push(e))
    .concat(dec.finish())
    .flatMap((e) => enc.push(e))
    .concat(enc.finish());
  expect(frames.at(-1)).toEqual({ data: '[DONE]' });
  expect(frames.some((f) => f.data.includes('"usage"'))).toBe(false);
});

describe('forwarding a same-dialect body as bytes', () => {
  test('the upstream request without reading the body; the model given only on a rename; none for a host that adapts bodies', () => {
    const caller = { get body(): never { throw new Error('body read') }, headers: { 'openai-project': 'p1' }, params: {}, query: {} };
    expect(openaiChat.forwardRequest!(caller, { model: target.model, stream: true }, target)).toEqual({
      request: { method: 'POST', path: '/chat/completions', headers: { 'content-type': 'application/json', authorization: 'Bearer sk', 'openai-project': 'p1' }, stream: true },
      model: undefined,
    });
    expect(openaiChat.forwardRequest!(caller, { model: 'alias', stream: false }, target)?.model).toBe(target.model);
    expect(openaiChat.forwardRequest!(caller, { model: 'alias', stream: false }, { ...target, options: { maxTokensField: 'max_tokens' } })).toBeUndefined();
  });
});
