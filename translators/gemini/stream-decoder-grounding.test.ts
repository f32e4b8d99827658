import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';
import { BBC, bytes, CAFE, PAGES, SENTENCE, UEFA } from '../../test/support/gemini-grounding.ts';

const req: ChatRequest = { model: 'gemini-x', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };
function run(chunks: unknown[], r = req): StreamEvent[] {
  const d = gemini.createStreamDecoder(r, testContext());
  const out: StreamEvent[] = [];
  for (const c of chunks) out.push(...d.push({ data: JSON.stringify(c) } satisfies SseEvent));
  out.push(...d.finish());
  return out.filter((e) => e.type !== 'message-start');
}
const support = (start: number, end: number, ...pages: number[]) => ({ segment: { startIndex: start, endIndex: end }, groundingChunkIndices: pages });
const meta = (...supports: unknown[]) => ({ webSearchQueries: ['q1'], groundingChunks: PAGES, groundingSupports: supports });
const cand = (parts: unknown[], extra: Record<string, unknown> = {}) => ({ candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }] });
const search = (id = 'gemini_1_0_search') => ({ type: 'web-search', part: { type: 'web-search', id, kind: 'search', queries: ['q1'], results: [{ url: UEFA, title: 'uefa.com' }, { url: BBC, title: 'bbc.com' }] } });
const cited = (url: string, title: string, start: number, end: number, choice?: number) => ({ type: 'citation', ...(choice ? { choice } : {}), citation: { url, title, span: { start, end } } });

describe('gemini stream decoder: grounding on the last chunk', () => {
  it('citations of the text block before its end (UTF-16 spans of the whole block), then the search, then the finish', () => {
    const events = run([
      cand([{ text: SENTENCE }]),
      cand([{ text: CAFE }], { finishReason: 'STOP', groundingMetadata: meta(support(0, bytes(SENTENCE), 0, 1), support(bytes(SENTENCE), bytes(SENTENCE + CAFE), 1)) }),
    ]);
    expect(events).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: SENTENCE },
      { type: 'text-delta', text: CAFE },
      cited(UEFA, 'uefa.com', 0, SENTENCE.length),
      cited(BBC, 'bbc.com', 0, SENTENCE.length),
      cited(BBC, 'bbc.com', SENTENCE.length, SENTENCE.length + CAFE.length),
      { type: 'text-end' },
      search(),
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it('grounding sent before the finishing chunk is kept for it; ids name the turn and the candidate', () => {
    const two: ChatRequest = { ...req, messages: [...req.messages, { role: 'assistant', content: [{ type: 'text', text: 'a' }] }, { role: 'user', content: [{ type: 'text', text: 'b' }] }] };
    const events = run([cand([{ text: 'abc' }], { groundingMetadata: meta(support(1, 2, 0)) }), cand([], { finishReason: 'STOP' })], two);
    expect(events).toEqual([{ type: 'text-start' }, { type: 'text-delta', text: 'abc' }, cited(UEFA, 'uefa.com', 1, 2), { type: 'text-end' }, search('gemini_3_0_search'), { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } }]);
  });

  it('only the latest text block is cited, with spans in it; supports of earlier blocks or past its end are not', () => {
    // 'abc' (3 bytes) | thought | 'déf' (4 bytes, bytes 3–7 of the answer's text)
    const events = run([
      cand([{ text: 'abc' }, { text: 'thinking', thought: true }, { text: 'dé' }]),
      cand([{ text: 'f' }], { finishReason: 'STOP', groundingMetadata: meta(support(0, 2, 0), support(2, 4, 0), support(3, 6, 1), support(6, 7, 0), support(7, 9, 1)) }),
    ]);
    expect(events.filter((e) => e.type === 'citation')).toEqual([cited(BBC, 'bbc.com', 0, 2), cited(UEFA, 'uefa.com', 2, 3)]);
    expect(events.findIndex((e) => e.type === 'citation')).toBeGreaterThan(events.findIndex((e) => e.type === 'text-delta' && e.text === 'f'));
    expect(events.findLastIndex((e) => e.type === 'citation')).toBeLessThan(events.findLastIndex((e) => e.type === 'text-end'));
  });

  it('a text block closed by its signature starts the next one after its bytes', () => {
    const events = run([cand([{ text: 'ab', thoughtSignature: 'c2ln' }, { text: 'cd' }], { finishReason: 'STOP', groundingMetadata: meta(support(0, 1, 0), support(2, 4, 1)) })]);
    expect(events.filter((e) => e.type === 'citation')).toEqual([cited(BBC, 'bbc.com', 0, 2)]);
  });

  it('a fence added between a code part and text counts in the block; segments with the line break as sent', () => {
    const events = run([cand([{ text: 'x' }, { executableCode: { language: 'PYTHON', code: 'print(1)' } }], { finishReason: 'STOP', groundingMetadata: meta(support(0, 1, 0)) })]);
    expect(events.filter((e) => e.type === 'citation')).toEqual([cited(UEFA, 'uefa.com', 0, 1)]);
  });

  it('a thought still open at the finish, or no text at all: no citations, the search still comes', () => {
    const open = run([cand([{ text: 'abc' }, { text: 'hmm', thought: true }], { finishReason: 'STOP', groundingMetadata: meta(support(0, 2, 0)) })]);
    expect(open.filter((e) => e.type === 'citation')).toEqual([]);
    expect(open.filter((e) => e.type === 'web-search')).toEqual([search()]);
    const none = run([cand([], { finishReason: 'STOP', groundingMetadata: meta(support(0, 2, 0)) })]);
    expect(none).toEqual([search(), { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } }]);
  });

  it('URL context alone: fetch parts, no citations', () => {
    const events = run([cand([{ text: 'abc' }], { finishReason: 'STOP', urlContextMetadata: { urlMetadata: [{ retrievedUrl: 'https://a.example', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }] } })]);
    expect(events).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'abc' },
      { type: 'text-end' },
      { type: 'web-search', part: { type: 'web-search', id: 'gemini_1_0_fetch0', kind: 'fetch', url: 'https://a.example', results: [{ url: 'https://a.example' }] } },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it('grounding that is no object is none; after the finish, grounding is not decoded again', () => {
    expect(run([cand([{ text: 'abc' }], { finishReason: 'STOP', groundingMetadata: 'x', urlContextMetadata: [] })]).filter((e) => e.type === 'web-search' || e.type === 'citation')).toEqual([]);
    const again = run([cand([{ text: 'abc' }], { finishReason: 'STOP' }), cand([], { finishReason: 'STOP', groundingMetadata: meta(support(0, 2, 0)) })]);
    expect(again.filter((e) => e.type === 'web-search' || e.type === 'citation')).toEqual([]);
  });

  it("a second candidate's citations and search name its choice, with ids of its index", () => {
    const events = run([
      {
        candidates: [
          { content: { parts: [{ text: 'zero' }] }, index: 0, finishReason: 'STOP' },
          { content: { parts: [{ text: 'one' }] }, index: 1, finishReason: 'STOP', groundingMetadata: meta(support(0, 3, 1)) },
        ],
      },
    ]);
    expect(events.filter((e) => e.type === 'citation')).toEqual([cited(BBC, 'bbc.com', 0, 3, 1)]);
    expect(events.filter((e) => e.type === 'web-search')).toEqual([{ ...search('gemini_1_1_search'), choice: 1 }]);
  });
});
