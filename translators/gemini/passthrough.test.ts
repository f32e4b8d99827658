import { describe, expect, it } from 'vitest';
import type { CallerInput, UpstreamTarget } from '../types.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';

const target = (model = 'gemini-2.5-flash', over: Partial<UpstreamTarget> = {}): UpstreamTarget => ({ name: 'g', model, apiKey: 'AIza-up', options: {}, ...over });
const input = (method: string | undefined, query: Record<string, string> = {}): CallerInput => ({ body: {}, headers: {}, params: { model: 'alias', ...(method !== undefined && { method }) }, query });
const BODY = '{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}';

describe('Gemini passthrough: the caller’s body to the routed model’s URL', () => {
  it('generateContent: the body byte for byte, the routed model in the path, the key in x-goog-api-key, not streamed', () => {
    expect(encodePassthrough(input('generateContent', { key: 'caller-key' }), BODY, target())).toStrictEqual({
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-up' },
      body: BODY,
      stream: false,
    });
  });

  it('streamGenerateContent keeps alt=sse (or alt=json) and streams; other alt values are not forwarded', () => {
    const sse = encodePassthrough(input('streamGenerateContent', { alt: 'sse' }), BODY, target('models/gemini-2.5-pro'));
    expect(sse).toMatchObject({ path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', stream: true, body: BODY });
    expect(encodePassthrough(input('streamGenerateContent', { alt: 'json' }), BODY, target()).path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=json');
    expect(encodePassthrough(input('streamGenerateContent', { alt: 'proto' }), BODY, target()).path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(encodePassthrough(input('streamGenerateContent'), BODY, target()).path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(encodePassthrough(input('generateContent', { alt: 'sse' }), BODY, target())).toMatchObject({ path: '/v1beta/models/gemini-2.5-flash:generateContent?alt=sse', stream: false });
  });

  it('an unknown or missing method is generateContent', () => {
    expect(encodePassthrough(input('embedContent'), BODY, target()).path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(encodePassthrough(input(undefined), BODY, target()).path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
  });

  it('without an upstream key, no x-goog-api-key; the upstream’s own headers are sent', () => {
    expect(encodePassthrough(input('generateContent'), BODY, target('m', { apiKey: undefined, options: { headers: { 'x-extra': '1' } } })).headers).toStrictEqual({ 'content-type': 'application/json', 'x-extra': '1' });
  });
});

describe('Gemini passthrough: countTokens and its inner model', () => {
  const count = (body: unknown, model = 'gemini-2.5-flash') => encodePassthrough(input('countTokens'), typeof body === 'string' ? body : JSON.stringify(body), target(model));

  it('countTokens is not streamed; a body without generateContentRequest goes as it is', () => {
    const out = count({ contents: [{ parts: [{ text: 'hi' }] }] });
    expect(out).toMatchObject({ path: '/v1beta/models/gemini-2.5-flash:countTokens', stream: false, body: '{"contents":[{"parts":[{"text":"hi"}]}]}' });
  });

  it('an inner model naming another one is set to the routed model, in either spelling of the field', () => {
    expect(JSON.parse(count({ generateContentRequest: { model: 'models/alias', contents: [] } }).body as string)).toStrictEqual({ generateContentRequest: { model: 'models/gemini-2.5-flash', contents: [] } });
    expect(JSON.parse(count({ generate_content_request: { model: 'alias' } }, 'models/gemini-2.5-flash').body as string)).toStrictEqual({ generate_content_request: { model: 'models/gemini-2.5-flash' } });
    expect(JSON.parse(count({ generateContentRequest: { model: 5 } }).body as string)).toStrictEqual({ generateContentRequest: { model: 'models/gemini-2.5-flash' } });
  });

  it('an inner model already the routed one (with or without models/) keeps the bytes as sent', () => {
    const spaced = '{ "generateContentRequest": { "model": "models/gemini-2.5-flash" } }';
    expect(count(spaced).body).toBe(spaced);
    const bare = '{ "generateContentRequest": { "model": "gemini-2.5-flash" } }';
    expect(count(bare).body).toBe(bare);
  });

  it('an inner request without a model, one that is no object, or a body that is no JSON, goes as it is', () => {
    for (const raw of ['{ "generateContentRequest": { "contents": [] } }', '{ "generateContentRequest": "models/x" }', '{ "generateContentRequest": null }', 'not json', '{ "generate_content_request": 0 }']) {
      expect(count(raw).body).toBe(raw);
    }
  });
});

describe('Gemini forwardRequest: the body forwarded as bytes', () => {
  it('the request without its body; countTokens is not forwarded (its inner model may need setting)', () => {
    expect(forwardRequest(input('streamGenerateContent', { alt: 'sse' }), { model: 'alias', stream: true }, target())).toStrictEqual({
      request: { method: 'POST', path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-up' }, stream: true },
    });
    expect(forwardRequest(input('countTokens'), { model: 'alias', stream: false }, target())).toBeUndefined();
  });
});
