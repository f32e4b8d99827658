/**
 * The small helpers of the Gemini dialect, through the translator: Vertex streamed argument
 * paths, which models need call signatures, cached and thought token counts, logprobs fields.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

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
