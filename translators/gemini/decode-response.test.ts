import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req = (messages = 1): ChatRequest => ({
  model: 'gemini-x',
  system: [],
  messages: Array.from({ length: messages }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `m${i}` }] })),
  stream: false,
});
const decode = (name: string, r = req()) => gemini.decodeResponse(fixtureJson('gemini', name), r, testContext());

describe('decodeResponse: fixtures', () => {
  it('gemini3-text-thought-signature: signature stays on the text part; usage in OpenAI semantics', () => {
    const res = decode('gemini3-text-thought-signature.json');
    expect(res.id).toBe('Un6LacrVMcjUxs0PmJfWoQc');
    expect(res.model).toBe('gemini-3-pro-preview');
    expect(res.created).toBe(1_700_000_000);
    expect(res.choices).toHaveLength(1);
    expect(res.choices[0]!.content).toEqual([
      {
        type: 'text',
        text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
        signature: { origin: 'gemini', value: 'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5t9aUZ4IZ65aWagqbBrV45fc97olcg' },
      },
    ]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'stop', raw: 'STOP' });
    expect(res.usage).toEqual({ inputTokens: 9, outputTokens: 272, totalTokens: 281, reasoningTokens: 244 });
  });

  it('gemini3-tool-call: STOP with a call → tool-calls; deterministic id from the turn', () => {
    const res = decode('gemini3-tool-call.json', req(3));
    expect(res.choices[0]!.content).toEqual([
      {
        type: 'tool-call',
        id: 'call_3_0',
        name: 'weather',
        arguments: '{"location":"San Francisco"}',
        signature: { origin: 'gemini', value: expect.stringMatching(/^EskgCsYgAb4/) },
      },
    ]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'STOP' });
    expect(res.choices[0]!.extras).toEqual({ dialect: 'gemini', fields: { finishMessage: 'Model generated function call(s).' } });
    expect(res.usage).toEqual({ inputTokens: 29, outputTokens: 908, totalTokens: 937, reasoningTokens: 893 });
  });

  it('thinking-thought-part: thought → reasoning; MAX_TOKENS → length; no candidatesTokenCount', () => {
    const res = decode('thinking-thought-part.json');
    expect(res.choices[0]!.content).toEqual([{ type: 'reasoning', text: expect.stringMatching(/^\*\*Breaking Down the Sum/) }]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'length', raw: 'MAX_TOKENS' });
    expect(res.usage).toEqual({ inputTokens: 17, outputTokens: 19, totalTokens: 36, reasoningTokens: 19 });
  });

  it('system-instruction', () => {
    const res = decode('system-instruction.json');
    expect(res.choices[0]!.content).toEqual([{ type: 'text', text: 'low' }]);
    expect(res.usage).toEqual({ inputTokens: 9, outputTokens: 21, totalTokens: 30, reasoningTokens: 20 });
  });

  it('structured output: JSON text; cached tokens', () => {
    const a = decode('structured-output-response-json-schema.json');
    expect(JSON.parse((a.choices[0]!.content[0] as { text: string }).text).simpleString).toBe('Hello');
    const b = decode('structured-output-response-schema-cached-tokens.json');
    expect(b.usage).toEqual({ inputTokens: 5, outputTokens: 279, totalTokens: 284, cachedInputTokens: 3, reasoningTokens: 41 });
  });

  it('candidate-safety-block: SAFETY → content-filter; safety ratings and prompt feedback kept as extras', () => {
    const res = decode('candidate-safety-block.json');
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'content-filter', raw: 'SAFETY' });
    expect((res.choices[0]!.extras?.fields.safetyRatings as unknown[]).length).toBe(4);
    expect(res.promptBlocked).toBeUndefined();
    expect(res.extras?.fields.promptFeedback).toMatchObject({ blockReason: 'SAFETY' });
  });

  it('prompt-blocked: no candidates → promptBlocked', () => {
    const res = decode('prompt-blocked-prohibited-content.json');
    expect(res.choices).toEqual([]);
    expect(res.promptBlocked).toEqual({ reason: 'PROHIBITED_CONTENT', raw: { blockReason: 'PROHIBITED_CONTENT' } });
    expect(res.usage).toEqual({ inputTokens: 12559, outputTokens: 0, totalTokens: 12559 });
    expect(res.model).toBe('gemini-1.5-flash-002');
    expect(res.id).toBe('gemini-test0001');
  });

  it('malformed-function-call: content {} and an error finish, never a clean stop; index absent', () => {
    const res = decode('malformed-function-call.json');
    expect(res.choices).toEqual([{ index: 0, content: [], finishReason: { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' } }]);
  });
});

describe('decodeResponse: parts', () => {
  it('parallel calls in several candidates get distinct ids; signature-only parts become reasoning', () => {
    const body = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'S' },
              { functionCall: { name: 'f' } },
              { text: '', thoughtSignature: 'T' },
            ],
          },
          finishReason: 'STOP',
        },
        { content: { role: 'model', parts: [{ functionCall: { id: 'g-id', name: 'f', args: {} } }] }, finishReason: 'STOP', index: 1 },
      ],
    };
    const res = gemini.decodeResponse(body, req(5), testContext());
    expect(res.choices[0]!.content).toEqual([
      { type: 'tool-call', id: 'call_5_0', name: 'f', arguments: '{"a":1}', signature: { origin: 'gemini', value: 'S' } },
      { type: 'tool-call', id: 'call_5_1', name: 'f', arguments: '{}' },
      { type: 'reasoning', text: '', signature: { origin: 'gemini', value: 'T' } },
    ]);
    expect(res.choices[1]!.content).toEqual([{ type: 'tool-call', id: 'g-id', name: 'f', arguments: '{}' }]);
    expect(res.choices[1]!.index).toBe(1);
  });

  it('inline image output and code execution parts', () => {
    const body = {
      candidates: [
        {
          content: {
            parts: [
              { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
              { executableCode: { language: 'PYTHON', code: 'print(2)' } },
              { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '2' } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
    };
    expect(gemini.decodeResponse(body, req(), testContext()).choices[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBO' } },
      { type: 'text', text: '```python\nprint(2)\n```' },
      { type: 'text', text: '```output\n2\n```' },
    ]);
  });

  it.each([
    ['RECITATION', 'content-filter'],
    ['BLOCKLIST', 'content-filter'],
    ['PROHIBITED_CONTENT', 'content-filter'],
    ['SPII', 'content-filter'],
    ['IMAGE_SAFETY', 'content-filter'],
    ['LANGUAGE', 'content-filter'],
    ['OTHER', 'other'],
    ['SOMETHING_NEW', 'other'],
    ['TOO_MANY_TOOL_CALLS', 'error'],
  ])('finishReason %s → %s', (raw, unified) => {
    const body = { candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: raw }] };
    expect(gemini.decodeResponse(body, req(), testContext()).choices[0]!.finishReason).toEqual({ unified, raw });
  });

  it('a body that is not a response is an upstream error', () => {
    expect(() => gemini.decodeResponse('nope', req(), testContext())).toThrow(ProxyError);
  });

  it.each([
    ['an unrelated object', { hello: 'world' }],
    ['an array', []],
    ['candidates of the wrong type', { candidates: 'x' }],
    ['no candidates and no block reason', { candidates: [], usageMetadata: { totalTokenCount: 3 } }],
    ['a candidate that is not an object', { candidates: [5] }],
  ])('%s is a 502, never an empty answer', (_name, body) => {
    let err: unknown;
    try {
      gemini.decodeResponse(body, req(), testContext());
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ kind: 'upstream', status: 502 });
  });

  it('no candidates with a promptFeedback.blockReason is a valid (blocked) answer', () => {
    const res = gemini.decodeResponse({ candidates: [], promptFeedback: { blockReason: 'SAFETY' } }, req(), testContext());
    expect(res.promptBlocked?.reason).toBe('SAFETY');
  });
});

describe('decodeResponse: what the fixtures do not show', () => {
  const one = (parts: unknown[], extra: Record<string, unknown> = {}) =>
    gemini.decodeResponse({ candidates: [{ content: { parts }, finishReason: 'STOP', ...extra }] }, req(3), testContext()).choices[0]!;

  it('code execution: the language as Gemini names it (none when unspecified, Python when absent); empty code and output', () => {
    expect(one([{ executableCode: { language: 'LANGUAGE_UNSPECIFIED', code: 'x = 1' } }, { executableCode: {} }, { codeExecutionResult: { outcome: 'OUTCOME_FAILED' } }]).content).toEqual([
      { type: 'text', text: '```\nx = 1\n```' },
      { type: 'text', text: '```python\n\n```' },
      { type: 'text', text: '```output\n\n```' },
    ]);
  });

  it('a call without id, name or args still gets an id, an empty name and {}; an empty text part is nothing; file data is a file', () => {
    expect(one([{ functionCall: {} }, { text: '' }, { fileData: { fileUri: 'gs://b/doc.pdf', mimeType: 'application/pdf' } }, { functionCall: { name: 'f', args: { a: 1 } } }]).content).toEqual([
      { type: 'tool-call', id: 'call_3_0', name: '', arguments: '{}' },
      { type: 'file', source: { type: 'file-id', id: 'gs://b/doc.pdf', mediaType: 'application/pdf' } },
      { type: 'tool-call', id: 'call_3_1', name: 'f', arguments: '{"a":1}' },
    ]);
  });

  it('candidate fields with no canonical home are kept as Gemini extras; none means no extras', () => {
    const fields = { safetyRatings: [], citationMetadata: { citations: [] }, groundingMetadata: { webSearchQueries: ['q'] }, finishMessage: 'm', avgLogprobs: -0.5, urlContextMetadata: { urlMetadata: [] } };
    expect(one([{ text: 'a' }], { ...fields, tokenCount: 3 }).extras).toEqual({ dialect: 'gemini', fields });
    expect(one([{ text: 'a' }])).not.toHaveProperty('extras');
  });

  it('a body that is not an answer keeps what was sent (cut at 2,000 characters) for the logs', () => {
    const raw = (body: unknown) => {
      try {
        gemini.decodeResponse(body, req(), testContext());
      } catch (e) {
        return (e as ProxyError).raw;
      }
      throw new Error('expected a ProxyError');
    };
    expect(raw({ hello: 'world' })).toBe('{"hello":"world"}');
    expect(raw(undefined)).toBe('');
    const long = raw({ text: 'y'.repeat(3000) });
    expect(long).toHaveLength(2000);
    expect(long!.startsWith('{"text":"yyy')).toBe(true);
  });
});
