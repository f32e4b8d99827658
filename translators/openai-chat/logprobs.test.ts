import { expect, it } from 'vitest';
import { encodeLogprobs } from './logprobs.ts';

it('fills what OpenAI always sends: refusal beside content, bytes on tokens and alternatives', () => {
  // As the Gemini decoder produces them (translators/gemini/logprobs.ts).
  const fromGemini = { content: [{ token: 'Hé', logprob: -0.1, top_logprobs: [{ token: 'Hi', logprob: -2.3 }] }] };
  expect(encodeLogprobs(fromGemini)).toEqual({
    content: [{ token: 'Hé', logprob: -0.1, bytes: [72, 195, 169], top_logprobs: [{ token: 'Hi', logprob: -2.3, bytes: [72, 105] }] }],
    refusal: null,
  });
});

it('leaves OpenAI\'s own logprobs as they were, and nothing stays nothing', () => {
  const own = { content: null, refusal: [{ token: 'No', logprob: -0.5, bytes: null, top_logprobs: [] }] };
  expect(encodeLogprobs(own)).toEqual(own);
  expect(encodeLogprobs(undefined)).toBeNull();
  expect(encodeLogprobs(null)).toBeNull();
});
