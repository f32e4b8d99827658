import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message, Part } from '../../src/canonical/index.ts';
import { fixtureJson, fixtureSse, testContext } from '../../test/support/fixtures.ts';
import type { CallerInput, UpstreamTarget } from '../types.ts';
import { gemini } from './index.ts';

const target: UpstreamTarget = { name: 'g', model: 'gemini-2.5-flash', apiKey: 'UPKEY', options: {} };
const callerInput = (method: string, query: Record<string, string> = {}, model = 'gemini-2.5-flash'): CallerInput => ({
  body: {},
  headers: { 'x-goog-api-key': 'CALLER' },
  params: { model, method },
  query,
});

describe('dialect object', () => {
  it('declares the upstream traits', () => {
    expect(gemini.id).toBe('gemini');
    expect(gemini.vendor).toBe('gemini');
    expect(gemini.inlineMediaOnly).toBe(true);
    expect(gemini.multipleChoices).toBe(true);
  });

  it('stream framing follows ?alt=sse', () => {
    expect(gemini.streamFraming!(callerInput('streamGenerateContent', { alt: 'sse' }))).toBe('sse');
    expect(gemini.streamFraming!(callerInput('streamGenerateContent'))).toBe('json-array');
  });
});

describe('encodePassthrough', () => {
  it('forwards the body byte for byte, keeps alt, never forwards ?key=', () => {
    const raw = '{"contents":[{"parts":[{"text":"hi"}]}]}';
    const req = gemini.encodePassthrough(callerInput('streamGenerateContent', { alt: 'sse', key: 'CALLER' }), raw, target);
    expect(req.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(req.body).toBe(raw);
    expect(req.headers['x-goog-api-key']).toBe('UPKEY');
    expect(req.stream).toBe(true);
  });

  it('renames the model in the URL (and in a countTokens generateContentRequest)', () => {
    const raw = '{"generateContentRequest":{"model":"models/alias","contents":[]}}';
    const req = gemini.encodePassthrough(callerInput('countTokens', {}, 'alias'), raw, target);
    expect(req.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(JSON.parse(req.body as string).generateContentRequest.model).toBe('models/gemini-2.5-flash');
    expect(req.stream).toBe(false);
  });

  it('sets a countTokens generateContentRequest.model that names another model to the routed one', () => {
    const raw = '{"generateContentRequest":{"model":"models/gemini-ultra","contents":[]}}';
    const req = gemini.encodePassthrough(callerInput('countTokens'), raw, target);
    expect(JSON.parse(req.body as string).generateContentRequest.model).toBe('models/gemini-2.5-flash');
    const same = '{"generateContentRequest":{"model":"gemini-2.5-flash","contents":[]}}';
    expect(gemini.encodePassthrough(callerInput('countTokens'), same, target).body).toBe(same);
  });

  it('forwards only the alt values whose answers are JSON or SSE', () => {
    const raw = '{"contents":[]}';
    const url = (alt: string) => gemini.encodePassthrough(callerInput('generateContent', { alt }), raw, target).path;
    expect(url('json')).toMatch(/:generateContent\?alt=json$/);
    expect(url('proto')).toMatch(/:generateContent$/);
    expect(url('sse&key=x')).toMatch(/:generateContent$/);
  });
});

describe('encodePassthrough: edges', () => {
  it('an unknown or missing method is generateContent; the POST carries the upstream headers', () => {
    for (const method of ['embedContent', '']) {
      const req = gemini.encodePassthrough(callerInput(method), '{}', target);
      expect(req).toEqual({ method: 'POST', path: '/v1beta/models/gemini-2.5-flash:generateContent', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'UPKEY' }, body: '{}', stream: false });
    }
  });

  it('countTokens bodies it cannot or need not change go through as they are', () => {
    for (const raw of ['not json', 'null', '{"contents":[]}', '{"generateContentRequest":"x"}', '{"generateContentRequest":{"contents":[]}}']) {
      expect(gemini.encodePassthrough(callerInput('countTokens'), raw, target).body).toBe(raw);
    }
    // The snake_case spelling, and a model named without the prefix, are read too.
    const snake = '{"generate_content_request":{"model":"other","contents":[]}}';
    expect(JSON.parse(gemini.encodePassthrough(callerInput('countTokens'), snake, target).body as string)).toEqual({ generate_content_request: { model: 'models/gemini-2.5-flash', contents: [] } });
  });

  it('forwardRequest: the request without a body for generate calls; countTokens is never forwarded as bytes', () => {
    const forward = gemini.forwardRequest!;
    expect(forward(callerInput('streamGenerateContent', { alt: 'sse' }), { model: 'x', stream: true }, target)).toEqual({
      request: { method: 'POST', path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'UPKEY' }, stream: true },
    });
    expect(forward(callerInput('countTokens'), { model: 'x', stream: false }, target)).toBeUndefined();
  });
});

describe('tool loop through a Gemini upstream (other caller dialects)', () => {
  const user: Message = { role: 'user', content: [{ type: 'text', text: 'read screens A, B, C' }] };

  it('ids from decodeResponse and the stream decoder agree, and the results go back paired', () => {
    const req: ChatRequest = { model: 'gemini-3-flash-preview', system: [], messages: [user], stream: true };
    const dec = gemini.createStreamDecoder(req, testContext());
    const events = fixtureSse('gemini', 'vertex-stream-thought-parallel-streamed-args.sse').flatMap((e) => dec.push(e));
    events.push(...dec.finish());
    const assistant: Part[] = [];
    for (const e of events) {
      if (e.type === 'tool-call-start') assistant.push({ type: 'tool-call', id: e.id, name: e.name, arguments: '', ...(e.signature ? { signature: e.signature } : {}) });
      if (e.type === 'tool-call-delta') (assistant[e.index] as { arguments: string }).arguments += e.argumentsDelta;
    }
    expect(assistant.map((p) => (p.type === 'tool-call' ? p.id : ''))).toEqual(['call_1_0', 'call_1_1', 'call_1_2', 'call_1_3']);

    // An OpenAI-style caller answers in reverse order, one message per result.
    const results: Message[] = [...assistant].reverse().map((p) => ({
      role: 'user',
      content: [{ type: 'tool-result', callId: (p as { id: string }).id, content: [{ type: 'text', text: `result of ${(p as { arguments: string }).arguments}` }] }],
    }));
    const next: ChatRequest = { ...req, stream: false, messages: [user, { role: 'assistant', content: assistant }, ...results] };
    const body = JSON.parse(gemini.encodeRequest(next, { ...target, model: 'gemini-3-flash-preview' }, testContext()).value.body as string);
    expect(body.contents).toHaveLength(3);
    expect(body.contents[1].parts[0].thoughtSignature).toMatch(/^AY89a18a/);
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'read_theme', response: { output: 'result of {}' } } },
        { functionResponse: { name: 'read_screen', response: { output: 'result of {"id":"A"}' } } },
        { functionResponse: { name: 'read_screen', response: { output: 'result of {"id":"B"}' } } },
        { functionResponse: { name: 'read_screen', response: { output: 'result of {"id":"C"}' } } },
      ],
    });
  });

  it('decodeResponse synthesizes the same ids as the stream decoder for the same answer', () => {
    const req: ChatRequest = { model: 'm', system: [], messages: [user], stream: false };
    const res = gemini.decodeResponse(fixtureJson('gemini', 'gemini3-tool-call.json'), req, testContext());
    const dec = gemini.createStreamDecoder(req, testContext());
    const events = fixtureSse('gemini', 'stream-gemini3-tool-call.sse').flatMap((e) => dec.push(e));
    const start = events.find((e) => e.type === 'tool-call-start');
    expect(start && start.type === 'tool-call-start' ? start.id : '').toBe((res.choices[0]!.content[0] as { id: string }).id);
  });
});

describe('Gemini caller through canonical and back (thought signatures)', () => {
  it('a Gemini 3 tool turn survives decodeRequest → encodeRequest unchanged', () => {
    const call = fixtureJson('gemini', 'gemini3-tool-call.json').candidates[0].content;
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'weather in SF?' }] },
        call,
        { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { temp: 18 } } }] },
      ],
    };
    const req = gemini.decodeRequest({ body, headers: {}, params: { model: 'gemini-3-pro-preview', method: 'generateContent' }, query: {} }, testContext()).value;
    const out = gemini.encodeRequest(req, { ...target, model: 'gemini-3-pro-preview' }, testContext());
    expect(out.warnings).toEqual([]);
    expect(JSON.parse(out.value.body as string).contents).toEqual(body.contents);
  });
});
