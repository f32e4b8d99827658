/**
 * countTokens toward a Gemini upstream: the whole request (wrapped for the Gemini API, the
 * fields themselves for Vertex AI) and the answer's words when it is not a count.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { gemini } from './index.ts';

const target = (options: UpstreamTarget['options'] = {}): UpstreamTarget => ({ name: 'google', model: 'gemini-2.5-flash', apiKey: 'K', options });
const req: ChatRequest = {
  model: 'caller',
  system: [{ type: 'text', text: 'S' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [{ name: 'f' }],
  toolChoice: { type: 'required' },
  temperature: 0.2,
  stream: true,
};
const contents = [{ role: 'user', parts: [{ text: 'hi' }] }];
const tools = [{ functionDeclarations: [{ name: 'f' }] }];

describe('gemini countTokens request', () => {
  it('the Gemini API: one generateContentRequest with model, contents, system, tools and tool config; never a stream', () => {
    const http = gemini.encodeCountTokens!(req, target(), testContext());
    expect({ ...http, body: JSON.parse(http.body as string) }).toEqual({
      method: 'POST',
      path: '/v1beta/models/gemini-2.5-flash:countTokens',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'K' },
      body: {
        generateContentRequest: {
          model: 'models/gemini-2.5-flash',
          contents,
          systemInstruction: { parts: [{ text: 'S' }] },
          tools,
          toolConfig: { functionCallingConfig: { mode: 'ANY' } },
        },
      },
      stream: false,
    });
  });

  it('Vertex AI (direct): the fields themselves with the generation config, no model and no tool config', () => {
    const http = gemini.encodeCountTokens!(req, target({ countTokensBody: 'direct' }), testContext());
    expect(http.method).toBe('POST');
    expect(http.stream).toBe(false);
    expect(JSON.parse(http.body as string)).toEqual({ contents, systemInstruction: { parts: [{ text: 'S' }] }, tools, generationConfig: { temperature: 0.2 } });
  });

  it('a bare request sends contents alone, in either form', () => {
    const bare: ChatRequest = { model: 'caller', system: [], messages: req.messages, stream: false };
    expect(JSON.parse(gemini.encodeCountTokens!(bare, target(), testContext()).body as string)).toEqual({ generateContentRequest: { model: 'models/gemini-2.5-flash', contents } });
    expect(JSON.parse(gemini.encodeCountTokens!(bare, target({ countTokensBody: 'direct' }), testContext()).body as string)).toEqual({ contents });
  });

  it('an answer that is not a count says so', () => {
    expect(() => gemini.decodeCountTokens!({ totalTokens: '3' })).toThrow(expect.objectContaining({ kind: 'upstream', message: 'The Gemini countTokens answer has no totalTokens.' }));
  });

  it('every field a countTokens answer may carry is a count of 0 when totalTokens is left out', () => {
    for (const field of ['cachedContentTokenCount', 'promptTokensDetails', 'cacheTokensDetails', 'totalBillableCharacters']) {
      expect(gemini.decodeCountTokens!({ [field]: field.endsWith('Details') ? [] : 0 }), field).toBe(0);
    }
    expect(gemini.decodeCountTokens!({ totalTokens: 0, totalBillableCharacters: 4 })).toBe(0);
  });

  it('a count that is not finite, or a field beside the known ones, is the upstream’s 502', () => {
    for (const bad of [{ totalTokens: Number.NaN }, { totalTokens: Number.POSITIVE_INFINITY }, { cacheTokensDetails: [], extra: 1 }, { totalTokens: undefined, other: 0 }]) {
      expect(() => gemini.decodeCountTokens!(bad)).toThrow(expect.objectContaining({ kind: 'upstream', status: 502, message: 'The Gemini countTokens answer has no totalTokens.' }));
    }
  });

  it('a body option other than direct (Bedrock’s invoke-model) keeps the wrapper', () => {
    const http = gemini.encodeCountTokens!(req, target({ countTokensBody: 'invoke-model' }), testContext());
    expect(Object.keys(JSON.parse(http.body as string))).toEqual(['generateContentRequest']);
  });
});
