import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type ChatResponse } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'gemini-x', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: false };
const encode = (res: ChatResponse) => gemini.encodeResponse(res, req, testContext()) as Record<string, any>;

const res = (over: Partial<ChatResponse>): ChatResponse => ({
  id: 'resp-1',
  model: 'claude-sonnet',
  created: 1,
  choices: [],
  ...over,
});

describe('encodeResponse', () => {
  it('text, reasoning, tool calls; usage with thoughts split out', () => {
    const body = encode(
      res({
        choices: [
          {
            index: 0,
            content: [
              { type: 'reasoning', text: 'thinking…', signature: { origin: 'anthropic', value: 'EuYB' } },
              { type: 'text', text: 'Calling.' },
              { type: 'tool-call', id: 'toolu_1', name: 'weather', arguments: '{"city":"Paris"}' },
              { type: 'tool-call', id: 'toolu_2', name: 'weather', arguments: '' },
            ],
            finishReason: { unified: 'tool-calls', raw: 'tool_use' },
          },
        ],
        usage: { inputTokens: 100, outputTokens: 50, totalTokens: 150, reasoningTokens: 20, cachedInputTokens: 10 },
      }),
    );
    expect(body).toEqual({
      candidates: [
        {
          content: {
            parts: [
              { text: 'thinking…', thought: true, thoughtSignature: btoa('\xffil1aEuYB') },
              { text: 'Calling.' },
              { functionCall: { id: 'toolu_1', name: 'weather', args: { city: 'Paris' } } },
              { functionCall: { id: 'toolu_2', name: 'weather', args: {} } },
            ],
            role: 'model',
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 30, totalTokenCount: 150, thoughtsTokenCount: 20, cachedContentTokenCount: 10 },
      modelVersion: 'claude-sonnet',
      responseId: 'resp-1',
    });
  });

  it('a Gemini signature is written raw; redacted thinking rides the carrier and decodes back', () => {
    const body = encode(
      res({
        choices: [
          {
            index: 0,
            content: [
              { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque==' } },
              { type: 'text', text: 'hi', signature: { origin: 'gemini', value: 'RAW' } },
            ],
            finishReason: { unified: 'stop' },
          },
        ],
      }),
    );
    const parts = body.candidates[0].content.parts;
    expect(parts[1]).toEqual({ text: 'hi', thoughtSignature: 'RAW' });
    // The caller sends the turn back: the redacted block comes back intact.
    const back = gemini.decodeRequest(
      {
        body: { contents: [{ role: 'user', parts: [{ text: 'q' }] }, { role: 'model', parts }, { role: 'user', parts: [{ text: 'more' }] }] },
        headers: {},
        params: { model: 'm', method: 'generateContent' },
        query: {},
      },
      testContext(),
    ).value;
    expect(back.messages[1]!.content).toEqual([
      { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque==' } },
      { type: 'text', text: 'hi', signature: { origin: 'gemini', value: 'RAW' } },
    ]);
  });

  it('prompt blocked: 200 body with promptFeedback and no candidates', () => {
    const upstream = fixtureJson('gemini', 'prompt-blocked-prohibited-content.json');
    const decoded = gemini.decodeResponse(upstream, req, testContext());
    const body = encode(decoded);
    expect(body.candidates).toBeUndefined();
    expect(body.promptFeedback).toEqual({ blockReason: 'PROHIBITED_CONTENT' });
    expect(body.usageMetadata).toEqual({ promptTokenCount: 12559, candidatesTokenCount: 0, totalTokenCount: 12559 });
  });

  it('Gemini → canonical → Gemini keeps the candidate shape of the fixtures', () => {
    for (const name of ['gemini3-tool-call.json', 'candidate-safety-block.json', 'thinking-thought-part.json', 'gemini3-text-thought-signature.json']) {
      const upstream = fixtureJson('gemini', name);
      const body = encode(gemini.decodeResponse(upstream, req, testContext()));
      const parts = body.candidates[0].content.parts.map((p: Record<string, unknown>) => {
        if (p.functionCall) return { ...p, functionCall: { ...(p.functionCall as object), id: undefined } };
        return p;
      });
      expect(JSON.parse(JSON.stringify(parts))).toEqual(upstream.candidates[0].content.parts);
      expect(body.candidates[0].finishReason).toBe(upstream.candidates[0].finishReason);
      if (upstream.candidates[0].safetyRatings) expect(body.candidates[0].safetyRatings).toEqual(upstream.candidates[0].safetyRatings);
    }
  });

  it.each([
    [{ unified: 'length' }, 'MAX_TOKENS'],
    [{ unified: 'stop-sequence' }, 'STOP'],
    [{ unified: 'content-filter', raw: 'content_filter' }, 'SAFETY'],
    [{ unified: 'content-filter', raw: 'RECITATION' }, 'RECITATION'],
    [{ unified: 'refusal', raw: 'refusal' }, 'SAFETY'],
    [{ unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' }, 'MALFORMED_FUNCTION_CALL'],
    [{ unified: 'pause', raw: 'pause_turn' }, 'OTHER'],
    [{ unified: 'other' }, 'OTHER'],
  ] as const)('finish %j → %s', (reason, wire) => {
    const body = encode(res({ choices: [{ index: 0, content: [{ type: 'text', text: 'x' }], finishReason: { ...reason } }] }));
    expect(body.candidates[0].finishReason).toBe(wire);
  });

  it('empty content has no parts; invalid tool JSON is an upstream error', () => {
    const body = encode(res({ choices: [{ index: 0, content: [], finishReason: { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' } }] }));
    expect(body.candidates[0].content).toEqual({ role: 'model' });
    expect(() =>
      encode(res({ choices: [{ index: 0, content: [{ type: 'tool-call', id: 'a', name: 'f', arguments: '{"x":' }], finishReason: { unified: 'tool-calls' } }] })),
    ).toThrow(ProxyError);
  });

  it('a prompt blocked elsewhere (no Gemini promptFeedback) reports its reason; Gemini prompt feedback of an answer passes through', () => {
    expect(encode(res({ promptBlocked: { reason: 'SAFETY' } }))).toEqual({ promptFeedback: { blockReason: 'SAFETY' }, modelVersion: 'claude-sonnet', responseId: 'resp-1' });
    expect(encode(res({ promptBlocked: { reason: 'OTHER', raw: 'content_filter' } })).promptFeedback).toEqual({ blockReason: 'OTHER' });
    expect(encode(res({ promptBlocked: { reason: 'OTHER', raw: null } })).promptFeedback).toEqual({ blockReason: 'OTHER' });
    const feedback = { safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }] };
    const answer = { index: 0, content: [{ type: 'text' as const, text: 'x' }], finishReason: { unified: 'stop' as const } };
    expect(encode(res({ choices: [answer], extras: { dialect: 'gemini', fields: { promptFeedback: feedback } } })).promptFeedback).toEqual(feedback);
    expect(Object.keys(encode(res({ choices: [answer], extras: { dialect: 'anthropic', fields: { promptFeedback: feedback } } })))).toEqual(['candidates', 'modelVersion', 'responseId']);
  });

  it('tool arguments must be a JSON object; empty arguments are {}', () => {
    const call = (args: string) => encode(res({ choices: [{ index: 0, content: [{ type: 'tool-call', id: 'a', name: 'f', arguments: args }], finishReason: { unified: 'tool-calls' } }] }));
    expect(call('  ').candidates[0].content.parts[0].functionCall).toEqual({ id: 'a', name: 'f', args: {} });
    expect(() => call('{"x":')).toThrow("the upstream produced invalid JSON arguments for tool 'f'");
    for (const bad of ['[1]', 'null', '3']) expect(() => call(bad)).toThrow("the upstream produced non-object arguments for tool 'f'");
  });

  it('media parts and refusals of other vendors; tool results have no place in a candidate', () => {
    const body = encode(
      res({
        choices: [
          {
            index: 0,
            content: [
              { type: 'refusal', text: 'No.' },
              { type: 'image', source: { type: 'file-id', id: 'files/i' } },
              { type: 'audio', source: { type: 'file-id', id: 'files/a' } },
              { type: 'file', source: { type: 'file-id', id: 'files/f' } },
              { type: 'tool-result', callId: 'c', content: [] },
            ],
            finishReason: { unified: 'stop' },
          },
        ],
      }),
    );
    expect(body.candidates[0].content.parts).toEqual([
      { text: 'No.' },
      { fileData: { fileUri: 'files/i', mimeType: 'image/png' } },
      { fileData: { fileUri: 'files/a', mimeType: 'audio/wav' } },
      { fileData: { fileUri: 'files/f', mimeType: 'application/octet-stream' } },
    ]);
  });

  it('model list and count tokens in Gemini shape', () => {
    expect(gemini.encodeModelList!([{ id: 'gemini-2.5-flash', ownedBy: 'google', created: 0 }])).toEqual({
      models: [
        {
          name: 'models/gemini-2.5-flash',
          displayName: 'gemini-2.5-flash',
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
        },
      ],
    });
    expect(gemini.encodeCountTokensResponse!(12)).toEqual({ totalTokens: 12 });
  });
});
