/**
 * What a Responses answer keeps beyond what its caller is shown (`encodeKept`, the stream
 * encoder's `kept()`): another vendor's reasoning with its signature when the caller did not ask
 * for `reasoning.encrypted_content`, and a Gemini text signature's reasoning item, which only an
 * encrypted caller is shown; ids shared with the answer. The caller's answer is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { encodeReasoning, type ChatRequest, type ChatResponse, type Part, type StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { encodeKept, encodeResponse } from './encode-response.ts';
import type { KeptResponse } from './state.ts';
import { OpenAIResponsesStreamEncoder } from './stream-encoder.ts';

type Data = Record<string, any>;

const plain: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const encrypted: ChatRequest = { ...plain, extras: { dialect: 'openai-responses', fields: {}, encryptedReasoning: true } as never };
const thinking = { origin: 'anthropic' as const, value: 'EqQBsig' };
const textSig = { origin: 'gemini' as const, value: 'CikBtext' };
const res = (content: Part[]): ChatResponse => ({ id: '', model: 'm', created: 1, choices: [{ index: 0, content, finishReason: { unified: 'stop' } }] });
const parts: Part[] = [
  { type: 'reasoning', text: 'Thinking.', signature: thinking },
  { type: 'text', text: 'Answer.', signature: textSig },
];

/** The same canonical answer as stream events. */
const events: StreamEvent[] = [
  { type: 'message-start', id: '', model: 'm', created: 1 },
  { type: 'reasoning-start' },
  { type: 'reasoning-delta', text: 'Thinking.' },
  { type: 'reasoning-end', signature: thinking },
  { type: 'text-start' },
  { type: 'text-delta', text: 'Answer.' },
  { type: 'text-end', signature: textSig },
  { type: 'finish', reason: { unified: 'stop' } },
];

function streamed(req: ChatRequest): { frames: Data[]; kept: KeptResponse | undefined; early: unknown } {
  const enc = new OpenAIResponsesStreamEncoder({ ...req, stream: true }, testContext());
  const frames = events.flatMap((e) => enc.push(e));
  const early = enc.kept();
  frames.push(...enc.finish());
  const kept = enc.kept();
  expect(enc.kept()).toBe(kept); // made once: the hidden item's id does not change
  return { frames: frames.map((f) => JSON.parse(f.data) as Data), kept, early };
}

describe('kept beyond what the caller is shown', () => {
  it('JSON: the answer is encodeResponse’s; the kept output adds the signatures, the text signature’s item is hidden', () => {
    const { answer, kept } = encodeKept(res(parts), plain, testContext());
    // (The hidden item's id is minted in between: the Response id is the next one.)
    expect({ ...(answer as Data), id: 'resp' }).toEqual({ ...(encodeResponse(res(parts), plain, testContext()) as Data), id: 'resp' });
    const shown = (answer as Data)['output'] as Data[];
    expect(shown.map((i) => i['type'])).toEqual(['reasoning', 'message']);
    expect(shown[0]).not.toHaveProperty('encrypted_content');
    expect(kept.response).toBe(answer);
    expect(kept.output).toEqual([
      { ...shown[0], encrypted_content: encodeReasoning({ text: 'Thinking.', signature: thinking }) },
      shown[1],
      { id: kept.hidden![0], type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', signature: textSig }) },
    ]);
    expect(kept.hidden).toEqual([expect.stringMatching(/^rs_/)]);
  });

  it('JSON: a caller that asked for encrypted reasoning was shown it all: nothing more is kept', () => {
    const { answer, kept } = encodeKept(res(parts), encrypted, testContext());
    expect(((answer as Data)['output'] as Data[]).map((i) => i['type'])).toEqual(['reasoning', 'message', 'reasoning']);
    expect(kept).toEqual({ response: answer });
    const unsigned = encodeKept(res([{ type: 'reasoning', text: 'plain' }, { type: 'text', text: 'x' }]), plain, testContext());
    expect(unsigned.kept).toEqual({ response: unsigned.answer });
  });

  it('stream: the frames are as before; kept() after the terminal frame holds the signatures, the same ids', () => {
    const { frames, kept, early } = streamed(plain);
    expect(early).toBeUndefined();
    const done = frames.at(-1)!['response'] as Data;
    expect(JSON.stringify(frames)).not.toContain('encrypted_content');
    expect(done['output'].map((i: Data) => i['type'])).toEqual(['reasoning', 'message']);
    expect(kept!.response).toEqual(done);
    expect(kept!.output).toEqual([
      { ...done['output'][0], encrypted_content: encodeReasoning({ text: 'Thinking.', signature: thinking }) },
      done['output'][1],
      { id: kept!.hidden![0], type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', signature: textSig }) },
    ]);
  });

  it('stream: an encrypted caller keeps what it was shown; a stream cut before its end keeps what ended', () => {
    const { frames, kept } = streamed(encrypted);
    expect(kept).toEqual({ response: frames.at(-1)!['response'] });
    const enc = new OpenAIResponsesStreamEncoder({ ...plain, stream: true }, testContext());
    for (const e of events.slice(0, 4)) enc.push(e);
    enc.finish(); // no finish event: the response fails, its reasoning item done
    expect(enc.kept()!.output).toEqual([expect.objectContaining({ type: 'reasoning', encrypted_content: expect.any(String) })]);
  });
});
