import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';
import { decodeLogprobs, encodeLogprobs } from './logprobs.ts';

const geminiResult = {
  topCandidates: [
    { candidates: [{ token: 'Hi', logProbability: -0.1 }, { token: 'Hey', logProbability: -2.5 }] },
    { candidates: [{ token: '!', logProbability: -0.01 }] },
  ],
  chosenCandidates: [
    { token: 'Hi', tokenId: 1, logProbability: -0.1 },
    { token: '!', tokenId: 2, logProbability: -0.01 },
  ],
};
const canonical = {
  content: [
    { token: 'Hi', logprob: -0.1, top: [{ token: 'Hi', logprob: -0.1 }, { token: 'Hey', logprob: -2.5 }] },
    { token: '!', logprob: -0.01, top: [{ token: '!', logprob: -0.01 }] },
  ],
};

describe('logprobs', () => {
  it('decodes and encodes both ways', () => {
    expect(decodeLogprobs(geminiResult)).toEqual(canonical);
    expect(encodeLogprobs(canonical)).toEqual({
      topCandidates: geminiResult.topCandidates,
      chosenCandidates: geminiResult.chosenCandidates.map(({ token, logProbability }) => ({ token, logProbability })),
    });
    expect(decodeLogprobs(undefined)).toBeUndefined();
    expect(encodeLogprobs({ content: [], refusal: [] })).toBeUndefined();
  });

  it('travel through responses and streams', () => {
    const req: ChatRequest = { model: 'm', system: [], messages: [], stream: false, logprobs: true };
    const res = gemini.decodeResponse(
      { candidates: [{ content: { parts: [{ text: 'Hi!' }] }, finishReason: 'STOP', logprobsResult: geminiResult, avgLogprobs: -0.05 }] },
      req,
      testContext(),
    );
    expect(res.choices[0]!.logprobs).toEqual(canonical);
    const body = gemini.encodeResponse(res, req, testContext()) as { candidates: Array<Record<string, unknown>> };
    expect(body.candidates[0]!.avgLogprobs).toBe(-0.05);
    expect(body.candidates[0]!.logprobsResult).toEqual(encodeLogprobs(canonical));

    const dec = gemini.createStreamDecoder(req, testContext());
    const events = dec.push({ data: JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Hi!' }] }, logprobsResult: geminiResult }] }) });
    expect(events.find((e) => e.type === 'logprobs')).toEqual({ type: 'logprobs', logprobs: canonical });
    const enc = gemini.createStreamEncoder(req, testContext());
    const frames = enc.push({ type: 'logprobs', logprobs: canonical });
    expect(JSON.parse(frames[0]!.data).candidates[0].logprobsResult).toEqual(encodeLogprobs(canonical));
  });
});
