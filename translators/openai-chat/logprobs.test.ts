import { expect, it } from 'vitest';
import { decodeLogprobs, encodeLogprobs } from './logprobs.ts';

it('fills what OpenAI always sends: refusal beside content, bytes on tokens and alternatives', () => {
  // As the Gemini decoder produces them: no bytes.
  const fromGemini = { content: [{ token: 'Hé', logprob: -0.1, top: [{ token: 'Hi', logprob: -2.3 }] }] };
  expect(encodeLogprobs(fromGemini)).toEqual({
    content: [{ token: 'Hé', logprob: -0.1, bytes: [72, 195, 169], top_logprobs: [{ token: 'Hi', logprob: -2.3, bytes: [72, 105] }] }],
    refusal: null,
  });
});

it("OpenAI's own logprobs round-trip; nothing stays nothing", () => {
  const own = { content: null, refusal: [{ token: 'No', logprob: -0.5, bytes: [78, 111], top_logprobs: [{ token: 'I', logprob: -3, bytes: [73] }] }] };
  const decoded = decodeLogprobs(own);
  expect(decoded).toEqual({ content: [], refusal: [{ token: 'No', logprob: -0.5, bytes: [78, 111], top: [{ token: 'I', logprob: -3, bytes: [73] }] }] });
  expect(encodeLogprobs(decoded)).toEqual(own);
  expect(decodeLogprobs({ content: [], refusal: null })).toBeUndefined();
  expect(decodeLogprobs('nope')).toBeUndefined();
  expect(encodeLogprobs(undefined)).toBeNull();
});

it('logprobs with no tokens at all still send content as an empty list', () => {
  expect(encodeLogprobs({ content: [] })).toEqual({ content: [], refusal: null });
  expect(encodeLogprobs({ content: [], refusal: [{ token: 'No', logprob: -1, bytes: [78, 111], top: [] }] })).toEqual({
    content: null,
    refusal: [{ token: 'No', logprob: -1, bytes: [78, 111], top_logprobs: [] }],
  });
});
