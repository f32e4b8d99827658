/**
 * The small helpers of the Gemini dialect, through the translator: Vertex streamed argument
 * paths, which models need call signatures, cached and thought token counts, logprobs fields.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

/** The arguments a Vertex streamed call assembles from these partialArgs. */
function assembled(partials: unknown[][]): unknown {
  const d = gemini.createStreamDecoder(req, testContext());
  const events: StreamEvent[] = [];
  const chunk = (functionCall: unknown) => ({ data: JSON.stringify({ candidates: [{ content: { parts: [{ functionCall }] } }] }) });
  events.push(...d.push(chunk({ name: 'f', willContinue: true })));
  for (const p of partials) events.push(...d.push(chunk({ partialArgs: p, willContinue: true })));
  events.push(...d.push(chunk({})));
  const delta = events.find((e) => e.type === 'tool-call-delta');
  return delta && delta.type === 'tool-call-delta' ? JSON.parse(delta.argumentsDelta) : undefined;
}

describe('Vertex streamed arguments', () => {
  it('quoted keys with escapes, array slots created as arrays, null replaced by an object when a path goes through it', () => {
    expect(
      assembled([
        [{ jsonPath: "$['it\\'s']", stringValue: 'q' }],
        [{ jsonPath: '$.l[1]', numberValue: 5 }],
        [{ jsonPath: '$.n', nullValue: 'NULL_VALUE' }],
        [{ jsonPath: '$.n.inner', boolValue: false }],
      ]),
    ).toEqual({ "it's": 'q', l: [null, 5], n: { inner: false } });
  });

  it('a partial with no value, no path, a path not starting with $, or an unparsable path is skipped', () => {
    expect(assembled([[{ jsonPath: '$.x' }, { stringValue: 'v' }, { jsonPath: 'x', stringValue: 'v' }, { jsonPath: '$..x', stringValue: 'v' }, { jsonPath: '$', stringValue: 'v' }, { jsonPath: '$.ok', nullValue: 0 }]])).toEqual({ ok: null });
  });

  it('a continued string is appended; a value not marked to continue replaces it', () => {
    expect(
      assembled([
        [{ jsonPath: '$.s', stringValue: 'ab', willContinue: true }],
        [{ jsonPath: '$.s', stringValue: 'cd' }],
        [{ jsonPath: '$.s', stringValue: 'new' }],
      ]),
    ).toEqual({ s: 'new' });
    expect(assembled([[{ jsonPath: '$.s', stringValue: 'ab', willContinue: true }], [{ jsonPath: '$.s', stringValue: 'cd' }]])).toEqual({ s: 'abcd' });
  });
});

describe('call signatures by model generation', () => {
  const firstCall = (model: string) => {
    const body = JSON.parse(
      gemini.encodeRequest(
        { ...req, stream: false, messages: [...req.messages, { role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }] }] },
        { name: 'g', model, apiKey: 'k', options: {} },
        testContext(),
      ).value.body as string,
    );
    return body.contents[1].parts[0].thoughtSignature;
  };
  it.each([
    ['gemini-3-pro-preview', 'skip_thought_signature_validator'],
    ['gemini-10-ultra', 'skip_thought_signature_validator'],
    ['gemini-2.5-flash', undefined],
    ['gemini-exp-1206', undefined],
    ['gemini-pro', undefined],
  ])('%s → %s', (model, expected) => {
    expect(firstCall(model)).toBe(expected);
  });
});

describe('usage counts on a Gemini answer', () => {
  const usageOf = (usage: ChatResponse['usage']) =>
    (gemini.encodeResponse({ id: 'r', model: 'm', created: 1, choices: [{ index: 0, content: [{ type: 'text', text: 'a' }], finishReason: { unified: 'stop' } }], usage }, req, testContext()) as { usageMetadata: unknown }).usageMetadata;

  it('no cached or thought count when there are none; thoughts split out of the output when there are', () => {
    expect(usageOf({ inputTokens: 5, outputTokens: 3, totalTokens: 8, cachedInputTokens: 0, reasoningTokens: 0 })).toEqual({ promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 });
    expect(usageOf({ inputTokens: 5, outputTokens: 3, totalTokens: 8, cachedInputTokens: 2, reasoningTokens: 2 })).toEqual({ promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 8, thoughtsTokenCount: 2, cachedContentTokenCount: 2 });
  });

  it('from Gemini: tool-use prompt tokens count as input, cached tokens only when there are some', () => {
    const res = gemini.decodeResponse(
      { candidates: [{ content: { parts: [{ text: 'a' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 4, toolUsePromptTokenCount: 2, candidatesTokenCount: 1, cachedContentTokenCount: 0, thoughtsTokenCount: 0 } },
      req,
      testContext(),
    );
    expect(res.usage).toEqual({ inputTokens: 6, outputTokens: 1, totalTokens: 7, reasoningTokens: 0 });
  });
});

describe('logprobs from Gemini with fields missing', () => {
  it('a token without text or probability, steps without alternatives', () => {
    const res = gemini.decodeResponse(
      { candidates: [{ content: { parts: [{ text: 'a' }] }, finishReason: 'STOP', logprobsResult: { chosenCandidates: [{}, { token: 'b', logProbability: -1 }, 5], topCandidates: [{}] } }] },
      req,
      testContext(),
    );
    expect(res.choices[0]!.logprobs).toEqual({ content: [{ token: '', logprob: 0, top: [] }, { token: 'b', logprob: -1, top: [] }] });
  });
});
