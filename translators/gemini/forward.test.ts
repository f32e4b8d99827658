/**
 * Same-dialect forwarding of a Gemini caller: the model and stream flag come from the path, and
 * the check decodes every field but the conversation (the upstream checks that itself).
 */
import { describe, expect, it } from 'vitest';
import { peekJson } from '../../src/kit/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { CallerInput } from '../types.ts';
import { gemini } from './index.ts';

const input = (params: Record<string, string>): CallerInput => ({
  get body(): never {
    throw new Error('body read');
  },
  headers: {},
  params,
  query: {},
});
const bytes = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

describe('gemini forwarding', () => {
  it('the model and the stream flag come from the path; no model, no forwarding', () => {
    const f = gemini.forward!;
    expect(f.model(input({ model: 'gemini-2.5-flash', method: 'streamGenerateContent' }), undefined)).toEqual({ model: 'gemini-2.5-flash', stream: true });
    expect(f.model(input({ model: 'gemini-2.5-flash', method: 'generateContent' }), undefined)).toEqual({ model: 'gemini-2.5-flash', stream: false });
    expect(f.model(input({ method: 'generateContent' }), undefined)).toBeUndefined();
  });

  it('the check passes any conversation and refuses a bad parameter', () => {
    const check = (body: unknown) => {
      const b = bytes(body);
      return gemini.forward!.check(input({ model: 'gemini-2.5-flash', method: 'generateContent' }), { bytes: b, top: peekJson(b)! }, testContext());
    };
    expect(check({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { temperature: 1 } })).toBe(true);
    expect(check({ contents: [{ role: 'robot', parts: 5 }] })).toBe(true);
    expect(check({ contents: [], generationConfig: { temperature: 9 } })).toBe(false);
    expect(check({ contents: [], generationConfig: { responseModalities: ['SMELL'] } })).toBe(false);
  });
});
