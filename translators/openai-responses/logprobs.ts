/** `output_text.logprobs` (the same token lists as Chat Completions, see translators/vendor/openai/logprobs.ts). */
import { decodeOpenAITokenLogprobs } from '../vendor/openai/index.ts';
import { type TokenLogprob } from '../../src/canonical/index.ts';

/** A wire list → canonical tokens; undefined when empty or not a list. */
export function decodeLogprobs(list: unknown): TokenLogprob[] | undefined {
  const tokens = decodeOpenAITokenLogprobs(list);
  return tokens && tokens.length > 0 ? tokens : undefined;
}

export { encodeOpenAITokenLogprobs as encodeLogprobs } from '../vendor/openai/index.ts';
