/** Any JSON a caller or upstream may send: only ProxyErrors escape, stream steps never throw. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [], stream: true };

/** Arbitrary JSON, biased towards Gemini-looking keys so validation paths get exercised. */
const key = fc.constantFrom('contents', 'parts', 'role', 'text', 'thought', 'thoughtSignature', 'functionCall', 'functionResponse', 'name', 'args', 'response', 'id', 'inlineData', 'inline_data', 'mimeType', 'data', 'fileData', 'fileUri', 'tools', 'functionDeclarations', 'parameters', 'type', 'properties', 'generationConfig', 'thinkingConfig', 'candidates', 'content', 'finishReason', 'usageMetadata', 'promptFeedback', 'blockReason', 'error', 'partialArgs', 'jsonPath', 'willContinue', 'x');
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

function onlyProxyErrors(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
  }
}

describe('robustness', () => {
  it('decodeRequest: arbitrary bodies', () => {
    fc.assert(
      fc.property(json, (body) => {
        onlyProxyErrors(() => gemini.decodeRequest({ body, headers: {}, params: { model: 'm', method: 'generateContent' }, query: {} }, testContext()));
      }),
      { numRuns: 2000 },
    );
  });

  it('decodeRequest: mutations of a real request', () => {
    const base = fixtureJson('gemini', 'stream-tool-result-followup.request.json');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), json), { maxLength: 4 }), (edits) => {
        const body = structuredClone(base);
        for (const [n, v] of edits) {
          const contents = body.contents as Array<{ parts: Array<Record<string, unknown>> }>;
          const c = contents[n % contents.length]!;
          const p = c.parts[n % c.parts.length]!;
          const keys = Object.keys(p);
          p[keys[n % keys.length]!] = v;
        }
        onlyProxyErrors(() => gemini.decodeRequest({ body, headers: {}, params: { model: 'm', method: 'generateContent' }, query: {} }, testContext()));
      }),
      { numRuns: 1000 },
    );
  });

  it('decodeResponse and the stream decoder: arbitrary upstream JSON', () => {
    fc.assert(
      fc.property(json, (body) => {
        onlyProxyErrors(() => gemini.decodeResponse(body, req, testContext()));
        const dec = gemini.createStreamDecoder(req, testContext());
        expect(() => {
          dec.push({ data: JSON.stringify(body) ?? 'null' });
          dec.finish();
        }).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('decodeError: arbitrary bodies', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 400, max: 599 }), (body, status) => {
        expect(gemini.decodeError(status, JSON.stringify(body) ?? '', {})).toBeInstanceOf(ProxyError);
      }),
    );
  });
});
