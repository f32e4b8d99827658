/**
 * What a Gemini caller receives, checked against the Gemini API v1beta shapes (gemini.schema.json;
 * sources and commits there): generateContent bodies, every streamGenerateContent chunk,
 * countTokens, the model list and the error envelope. `format: byte` fields (thoughtSignature,
 * inlineData.data) must be standard base64, which is what Python's and Go's clients decode.
 */
import { describe, expect, it } from 'vitest';
import { decodeSignature, type StreamEvent, type StreamFrame } from '../../src/canonical/index.ts';
import { gemini } from '../../translators/gemini/index.ts';
import { testContext } from '../support/fixtures.ts';
import { fixtureErrors, fixtureResponses, fixtureStreams, scenarioErrors, scenarioResponses, scenarioStreams, type Sample } from './sources.ts';
import { checker, STANDARD_BASE64, type Allowance } from './validate.ts';

const allowances: Allowance[] = [
  {
    def: 'ErrorResponse',
    at: /^\/error\/status$/,
    value: (v) => v === 'PAYLOAD_TOO_LARGE',
    as: 'INVALID_ARGUMENT',
    reason:
      'HTTP 413: the project spec (shared/spec/generate-content-and-messages.md, error table) names ' +
      'PAYLOAD_TOO_LARGE, which is not a google.rpc.Code; @google/genai surfaces `status` as a plain string.',
  },
];
const check = checker('gemini', allowances);

function chunkProblems(frames: StreamFrame[]): string[] {
  return frames.flatMap((f, i) => {
    if (f.event !== undefined) return [`frame ${i}: Gemini chunks have no event name (${f.event})`];
    const data = JSON.parse(f.data) as Record<string, unknown>;
    const def = 'error' in data ? 'ErrorResponse' : 'GenerateContentResponse';
    return check.problems(def, data).map((p) => `frame ${i}: ${p}`);
  });
}

function encodeStream(s: Sample<StreamEvent[]>): StreamFrame[][] {
  const n = s.value.length;
  return [...new Set([n, Math.floor(n / 3), Math.floor((2 * n) / 3)])].map((cut) => {
    const enc = gemini.createStreamEncoder(s.req, testContext());
    return [...s.value.slice(0, cut).flatMap((e) => enc.push(e)), ...enc.finish()];
  });
}

/** Responses whose tool arguments are not a JSON object: the encoder answers with an error instead. */
function encodeOrError(s: Sample<Parameters<typeof gemini.encodeResponse>[0]>): { def: string; body: unknown } {
  try {
    return { def: 'GenerateContentResponse', body: gemini.encodeResponse(s.value, s.req, testContext()) };
  } catch (e) {
    return { def: 'ErrorResponse', body: gemini.encodeError(e as never).body };
  }
}

const label = <T,>(samples: Sample<T>[]) => samples.map((s) => [s.name, s] as const);

describe('Gemini caller: generateContent bodies conform to GenerateContentResponse', () => {
  it.each(label([...fixtureResponses(), ...scenarioResponses()]))('%s', (_name, s) => {
    const { def, body } = encodeOrError(s);
    expect(def).toBe('GenerateContentResponse');
    expect(check.problems(def, body)).toEqual([]);
  });
});

describe('Gemini caller: every stream chunk conforms', () => {
  it.each(label([...fixtureStreams(), ...scenarioStreams()]))('%s', (_name, s) => {
    for (const frames of encodeStream(s)) expect(chunkProblems(frames)).toEqual([]);
  });
});

describe('Gemini caller: errors, countTokens, model list', () => {
  it.each(label([...fixtureErrors(), ...scenarioErrors()]))('error %s', (_name, s) => {
    const { status, body } = gemini.encodeError(s.value);
    expect(status).toBe((body as { error: { code: number } }).error.code);
    expect(check.problems('ErrorResponse', body)).toEqual([]);
  });

  it('countTokens and the model list', () => {
    expect(check.problems('CountTokensResponse', gemini.encodeCountTokensResponse!(99))).toEqual([]);
    const list = gemini.encodeModelList!([{ id: 'gemini-2.5-flash', ownedBy: 'google', created: 0 }, { id: 'models/x', ownedBy: 'o', created: 0 }]);
    expect(check.problems('ListModelsResponse', list)).toEqual([]);
  });
});

describe('thoughtSignature is bytes (issue #15)', () => {
  const thinking = scenarioResponses().find((s) => s.name === 'all part kinds')!;

  it('a foreign signature reaches a Gemini caller as standard base64 that decodes back to its origin', () => {
    const body = gemini.encodeResponse(thinking.value, thinking.req, testContext()) as any;
    const sigs = body.candidates[0].content.parts.map((p: any) => p.thoughtSignature).filter(Boolean) as string[];
    expect(sigs.length).toBeGreaterThanOrEqual(4);
    for (const sig of sigs) expect(sig).toMatch(STANDARD_BASE64);
    expect(sigs.map((sig) => decodeSignature(sig)?.origin ?? 'gemini (raw)')).toContain('anthropic');
  });

  it('the check has teeth: the first carrier form and missing envelopes are rejected', () => {
    const part = { text: '', thought: true, thoughtSignature: 'il1a.RXFR' };
    expect(check.problems('GenerateContentResponse', { candidates: [{ content: { role: 'model', parts: [part] } }] })).toEqual([
      'GenerateContentResponse/candidates/0/content/parts/0/thoughtSignature must match format "byte"',
    ]);
    expect(check.problems('GenerateContentResponse', { candidates: [{ finishReason: 'ERROR' }] })).not.toEqual([]);
    expect(check.problems('GenerateContentResponse', { candidates: [{ content: { parts: [{ text: 'a', functionCall: { name: 'f' } }] } }] })).not.toEqual([]);
    expect(check.problems('ErrorResponse', { error: { code: 400, message: 'x' } })).toEqual(["ErrorResponse/error must have required property 'status'"]);
  });

  it('every allowance is needed', () => {
    expect(check.unused().map((a) => a.reason)).toEqual([]);
  });
});
