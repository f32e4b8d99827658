import { describe, expect, it } from 'vitest';
import { decodeReasoning, type ChatRequest, type ChatResponse, type Part } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { encodeResponse } from './encode-response.ts';

const req: ChatRequest = { model: 'gemini-3-flash-preview', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const response = (content: Part[], finishReason: ChatResponse['choices'][0]['finishReason'] = { unified: 'stop' }): ChatResponse => ({
  id: 'v1_up',
  model: 'm',
  created: 1,
  choices: [{ index: 0, content, finishReason }],
});
const encode = (res: ChatResponse, r = req) => encodeResponse(res, r, testContext()) as Record<string, any>;
const steps = (content: Part[]) => encode(response(content)).steps as Array<Record<string, any>>;

describe('Interactions encodeResponse: the less common answers', () => {
  it.each([
    ['{"a":[1]}', { a: [1] }],
    ['', {}],
    ['[1,2]', {}],
    ['null', {}],
    ['"text"', {}],
    ['{"a":', {}],
  ])('call arguments %j → %j', (text, args) => {
    expect(steps([{ type: 'tool-call', id: 'c', name: 'f', arguments: text }])).toEqual([{ type: 'function_call', id: 'c', name: 'f', arguments: args }]);
  });

  it('media by URL and by file handle, with and without a type; audio; files are documents', () => {
    expect(
      steps([
        { type: 'image', source: { type: 'url', url: 'https://x/a.png', mediaType: 'image/png' } },
        { type: 'image', source: { type: 'file-id', id: 'files/i' } },
        { type: 'audio', source: { type: 'file-id', id: 'files/s', mediaType: 'audio/wav' } },
        { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
        { type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'never in an answer' }] },
      ]),
    ).toEqual([
      {
        type: 'model_output',
        content: [
          { type: 'image', uri: 'https://x/a.png', mime_type: 'image/png' },
          { type: 'image', uri: 'files/i' },
          { type: 'audio', uri: 'files/s', mime_type: 'audio/wav' },
          { type: 'document', data: 'JVBE', mime_type: 'application/pdf' },
        ],
      },
    ]);
    expect(() => steps([{ type: 'bogus' } as unknown as Part])).toThrow('unhandled part');
  });

  it('another vendor’s signature on text or a call rides in a carrier with no text of its own; a refusal after signed text keeps it', () => {
    const sig = { origin: 'openai' as const, value: 'enc' };
    const out = steps([{ type: 'text', text: 'a', signature: sig }, { type: 'refusal', text: 'no' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}', signature: sig }]);
    expect(out.map((s) => s.type)).toEqual(['model_output', 'thought', 'thought', 'function_call']);
    expect(out[0]!.content).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'no' }]);
    expect(decodeReasoning(out[1]!.signature)).toEqual({ text: '', signature: sig });
    expect(decodeReasoning(out[2]!.signature)).toEqual({ text: '', signature: sig });
  });

  it('a call after text with a plain stop still waits for its result (requires_action); no choice at all is completed and empty', () => {
    expect(encode(response([{ type: 'text', text: 'a' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }])).status).toBe('requires_action');
    expect(encode(response([{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }, { type: 'text', text: 'a' }])).status).toBe('requires_action');
    expect(encode({ id: 'v1_x', model: 'm', created: 1, choices: [] })).toMatchObject({ status: 'completed', steps: [] });
    expect(encode({ ...response([{ type: 'text', text: 'a' }]), promptBlocked: { reason: 'SAFETY' } }).status).toBe('completed');
  });

  it('a failed answer names the upstream reason when it has one', () => {
    expect(encode(response([], { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' })).errors).toEqual([{ code: 'internal', message: "The model's output ended in an error (MALFORMED_FUNCTION_CALL)." }]);
    expect(encode(response([], { unified: 'error' })).errors).toEqual([{ code: 'internal', message: "The model's output ended in an error." }]);
  });

  it('previous_interaction_id from the hints too; not when it is not a string or the extras are another dialect’s', () => {
    const prev = (extras: ChatRequest['extras']) => encode(response([]), { ...req, extras }).previous_interaction_id;
    expect(prev({ dialect: 'gemini-interactions', fields: {}, hints: { previous_interaction_id: 'v1_h' } })).toBe('v1_h');
    expect(prev({ dialect: 'gemini-interactions', fields: {} })).toBeUndefined();
    expect(prev({ dialect: 'gemini-interactions', fields: { previous_interaction_id: 5 } })).toBeUndefined();
    expect(prev({ dialect: 'openai-responses', fields: { previous_interaction_id: 'v1_o' } } as ChatRequest['extras'])).toBeUndefined();
  });
});
