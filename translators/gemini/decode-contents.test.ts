/**
 * The caller's Gemini `contents` → canonical messages: the words of each refusal, the roles
 * Gemini accepts, how function responses find their call, and when thought parts merge.
 */
import { describe, expect, it } from 'vitest';
import { encodeSignature, ProxyError } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const request = (contents: unknown, method = 'generateContent', model = 'gemini-2.5-flash') =>
  gemini.decodeRequest({ body: { contents }, headers: {}, params: { model, method }, query: {} }, testContext()).value;

const decode = (contents: unknown) => request(contents).messages;

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    const { kind, status, message, param } = e as ProxyError;
    return { kind, status, message, param };
  }
  throw new Error('expected a ProxyError');
};

const user = (...parts: unknown[]) => ({ role: 'user', parts });

const model = (...parts: unknown[]) => ({ role: 'model', parts });

describe('gemini contents: refusals in the words Gemini uses', () => {
  it.each([
    ['an unknown role', [{ role: 'system', parts: [{ text: 'x' }] }], "Please use a valid role: user, model. Got 'system'.", 'contents[0].role'],
    ['a content without parts', [user({ text: 'x' }), { role: 'model' }], 'contents.parts must not be empty.', 'contents[1].parts'],
    ['a part of the wrong type, in the schema check own words', [user('x')], '`contents[0].parts[0]` must be an object ({ … }), not a string.', 'contents[0].parts[0]'],
    ['a call without a name', [user({ text: 'q' }), model({ functionCall: { name: '' } })], 'functionCall.name is required.', 'contents[1].parts[0].functionCall.name'],
    ['an empty user part', [user({ text: 'q' }, {})], 'Part must have one of: text, inlineData, fileData, functionCall, functionResponse.', 'contents[0].parts[1]'],
    [
      'a response no call asked for',
      [user({ text: 'q' }), model({ text: 'a' }), user({ functionResponse: { name: 'f', response: {} } })],
      'Please ensure that function response turn comes immediately after a function call turn, and that each functionResponse names a call.',
      'contents[2].parts[0].functionResponse',
    ],
  ])('%s', (_label, contents, message, param) => {
    expect(refusal(() => request(contents))).toEqual({ kind: 'invalid-request', status: 400, message, param });
  });

  it('the model comes from the path, models/ prefix or not; none is refused', () => {
    expect(request([user({ text: 'q' })], 'generateContent', 'models/gemini-x').model).toBe('gemini-x');
    expect(request([user({ text: 'q' })], 'generateContent', 'tuned/models/x').model).toBe('tuned/models/x');
    expect(refusal(() => request([user({ text: 'q' })], 'generateContent', 'models/'))).toEqual({
      kind: 'invalid-request',
      status: 400,
      message: 'model is required in the request path.',
      param: 'model',
    });
  });
});

describe('gemini contents: roles and turns', () => {
  it("'function' and 'tool' turns are the user's; a content without role is the user's", () => {
    const messages = decode([
      user({ text: 'q' }),
      model({ functionCall: { name: 'f', args: {} } }),
      { role: 'function', parts: [{ functionResponse: { name: 'f', response: { output: 'a' } } }] },
      model({ functionCall: { name: 'g' } }),
      { role: 'tool', parts: [{ functionResponse: { name: 'g', response: { output: 'b' } } }] },
      { parts: [{ text: 'and?' }] },
    ]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[4]!.content).toEqual([{ type: 'tool-result', callId: 'call_3_0', name: 'g', content: [{ type: 'text', text: 'b' }] }, { type: 'text', text: 'and?' }]);
  });

  it('synthetic call ids count per turn, and start again after a merged turn', () => {
    const messages = decode([user({ text: 'q' }), model({ functionCall: { name: 'a' } }), model({ functionCall: { name: 'b' } }), user({ text: 'r' }), model({ functionCall: { name: 'c' } })]);
    expect(messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'tool-call' ? [p.id] : [])))).toEqual(['call_1_0', 'call_1_1', 'call_3_0']);
  });
});

describe('gemini contents: function responses find their call', () => {
  const calls = model({ functionCall: { id: 'a', name: 'f' } }, { functionCall: { id: 'b', name: 'f' } });
  const ids = (contents: unknown[]) => decode(contents).at(-1)!.content.flatMap((p) => (p.type === 'tool-result' ? [p.callId] : []));

  it('by id first; a response whose id matches no call but whose name does takes that call', () => {
    expect(ids([user({ text: 'q' }), calls, user({ functionResponse: { id: 'a', name: 'other', response: {} } }, { functionResponse: { name: 'f', response: {} } })])).toEqual(['a', 'b']);
    expect(ids([user({ text: 'q' }), calls, user({ functionResponse: { id: 'zz', name: 'f', response: {} } }, { functionResponse: { id: 'b', response: {} } })])).toEqual(['a', 'b']);
  });

  it('an id that matches nothing (and no name) is kept as given', () => {
    expect(ids([user({ text: 'q' }), calls, user({ functionResponse: { id: 'late', response: {} } })])).toEqual(['late']);
  });

  it('a response names its call; its response object becomes the result text', () => {
    const [result] = decode([user({ text: 'q' }), calls, user({ functionResponse: { id: 'a', response: { error: { code: 1 } } } }, { functionResponse: { id: 'b', response: { output: 3 } } })]).at(-1)!.content;
    expect(result).toEqual({ type: 'tool-result', callId: 'a', content: [{ type: 'text', text: '{"code":1}' }], isError: true });
    expect(decode([user({ text: 'q' }), calls, user({ functionResponse: { id: 'b', response: { output: 3 } } }, { functionResponse: { id: 'a', response: { output: 'x', more: 1 } } })]).at(-1)!.content).toEqual([
      { type: 'tool-result', callId: 'b', content: [{ type: 'text', text: '{"output":3}' }] },
      { type: 'tool-result', callId: 'a', content: [{ type: 'text', text: '{"output":"x","more":1}' }] },
    ]);
  });
});

describe('gemini contents: thought parts', () => {
  const thoughts = (...parts: unknown[]) => decode([user({ text: 'q' }), model(...parts), user({ text: 'r' })])[1]!.content;
  const anthropic = encodeSignature({ origin: 'anthropic', value: 'AS' });

  it('unsigned thoughts merge; a Gemini signature ends a run and is never merged into', () => {
    expect(thoughts({ text: 'a', thought: true }, { text: 'b', thought: true, thoughtSignature: 'G1' }, { text: 'c', thought: true }, { text: 'd', thought: true })).toEqual([
      { type: 'reasoning', text: 'a' },
      { type: 'reasoning', text: 'b', signature: { origin: 'gemini', value: 'G1' } },
      { type: 'reasoning', text: 'cd' },
    ]);
  });

  it('a foreign signature closes the run it ends; the next thought starts anew', () => {
    expect(thoughts({ text: 'a', thought: true }, { text: 'b', thought: true, thoughtSignature: anthropic }, { text: 'c', thought: true })).toEqual([
      { type: 'reasoning', text: 'ab', signature: { origin: 'anthropic', value: 'AS' } },
      { type: 'reasoning', text: 'c' },
    ]);
  });

  it('redacted thinking carried back is its own part, never merged', () => {
    const redacted = encodeSignature({ origin: 'anthropic', value: 'redacted:R' });
    const parts = thoughts({ text: 'a', thought: true }, { thoughtSignature: redacted }, { text: 'b', thought: true });
    expect(parts).toHaveLength(3);
    expect(parts[1]).toEqual({ type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'R' } });
  });
});

describe('gemini caller media and responses: edges', () => {
  const decode = (contents: unknown) => gemini.decodeRequest({ body: { contents }, headers: {}, params: { model: 'g', method: 'generateContent' }, query: {} }, testContext()).value.messages;

  it('an audio MIME type with no subtype gives no format; gs:// and Files API URIs are file handles, https URLs are URLs', () => {
    expect(
      decode([
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'audio/', data: 'A' } },
            { fileData: { fileUri: 'gs://bucket/a.png', mimeType: 'image/png' } },
            { fileData: { fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mimeType: 'application/pdf' } },
            { fileData: { fileUri: 'https://example.com/a.png', mimeType: 'image/png' } },
          ],
        },
      ])[0]!.content,
    ).toEqual([
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/', data: 'A' } },
      { type: 'image', source: { type: 'file-id', id: 'gs://bucket/a.png', mediaType: 'image/png' } },
      { type: 'file', source: { type: 'file-id', id: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mediaType: 'application/pdf' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png', mediaType: 'image/png' } },
    ]);
  });

  it('a function response without a response object is an empty result', () => {
    const messages = decode([
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ functionCall: { name: 'f' } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f' } }] },
    ]);
    expect(messages[2]!.content).toEqual([{ type: 'tool-result', callId: 'call_1_0', name: 'f', content: [{ type: 'text', text: '{}' }] }]);
  });
});
