/**
 * The small helpers of the Gemini dialect, through the translator: Vertex streamed argument
 * paths, which models need call signatures, cached and thought token counts, logprobs fields.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

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
