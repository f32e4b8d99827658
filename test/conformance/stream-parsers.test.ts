/**
 * The stream parser's one contract (src/sse/parse.ts `SseChunkParser`: upstream bytes in, SSE
 * events out), run unchanged against every implementation — the SSE parser (src/sse/parse.ts) in
 * each framing an upstream may write (LF, CRLF, CR, comments, a BOM, `data:` with no space, id and
 * retry fields, multi-line data, and as the proxy's own writer frames them) and Bedrock's AWS event
 * stream (providers/bedrock-stream.ts):
 *
 * - the events of a whole body, in order, counted, with `sawBytes`;
 * - the same events however the bytes are split (every cut, byte by byte, uneven many-way splits),
 *   each as soon as its frame's last byte is in;
 * - a body cut anywhere never corrupts or reorders the events before the cut;
 * - a frame over the limit sets `error` (the pipeline's frame-too-large) and yields nothing;
 * - an empty body is no events and no bytes seen.
 *
 * Gemini's `json-array` framing is only ever written (src/sse/serialize.ts), never parsed: the
 * proxy asks Gemini upstreams for SSE (`alt=sse`).
 */
import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../../src/canonical/index.ts';
import { createBedrockStreamParser } from '../../src/upstream/providers/bedrock-stream.ts';
import { createSseChunkParser, type SseChunkParser } from '../../src/sse/parse.ts';
import { createSerializer } from '../../src/sse/serialize.ts';
import { chunkFrame, concatBytes } from '../support/aws.ts';

interface Impl {
  make(maxFrameBytes: number): SseChunkParser;
  /** The events this framing carries (what an upstream sends through it). */
  events: SseEvent[];
  /** One frame per event, as the upstream writes it (the whole body is their concatenation). */
  frames(events: SseEvent[]): Uint8Array[];
  /** One event whose frame is over `bytes` long. */
  oversized(bytes: number): SseEvent;
  /** The last frame's event comes out only with the next line (CR line ends). */
  lagsOneLine?: boolean;
}

const enc = new TextEncoder();

/** Anthropic's stream, as SSE and as Bedrock sends it (JSON data, the event named by its type). */
const anthropicEvents: SseEvent[] = [
  { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 3, output_tokens: 1 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Héllo ✓ 😀\n\nnext' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
  { type: 'message_stop' },
].map((e) => ({ event: e.type, data: JSON.stringify(e) }));

/** What SSE alone carries besides: unnamed events, data over several lines, empty data. */
const sseEvents: SseEvent[] = [...anthropicEvents, { data: '{"a":1}' }, { data: 'line one\nline two\n\nline four' }, { event: 'ping', data: '' }, { data: '[DONE]' }];

interface SseStyle {
  eol: string;
  /** Written before the first frame. */
  head?: string;
  /** Written at the start of each frame (comments, ids, retry). */
  before?: string;
  sep?: ': ' | ':';
}

function sseFrames(style: SseStyle) {
  return (events: SseEvent[]): Uint8Array[] =>
    events.map((e, i) => {
      const sep = style.sep ?? ': ';
      const lines = [...(style.before ? [style.before] : []), ...(e.event !== undefined ? [`event${sep}${e.event}`] : []), ...e.data.split('\n').map((l) => `data${sep}${l}`)];
      return enc.encode((i === 0 ? (style.head ?? '') : '') + lines.join(style.eol) + style.eol + style.eol);
    });
}

const sse = (style: SseStyle): Impl => ({
  lagsOneLine: style.eol === '\r',
  make: createSseChunkParser,
  events: sseEvents,
  frames: sseFrames(style),
  oversized: (bytes) => ({ data: 'x'.repeat(bytes + 1) }),
});

const impls: Array<[string, Impl]> = [
  ['SSE, LF', sse({ eol: '\n' })],
  ['SSE, CRLF', sse({ eol: '\r\n' })],
  ['SSE, CR', sse({ eol: '\r' })],
  ['SSE, comments before frames and a BOM', sse({ eol: '\n', head: '\uFEFF: hello\n\n', before: ': keep-alive' })],
  ['SSE, id and retry fields, data: with no space', sse({ eol: '\r\n', before: 'id: 7\r\nretry: 1000', sep: ':' })],
  ['SSE, as the proxy writes it (src/sse/serialize.ts)', { ...sse({ eol: '\n' }), frames: (events) => events.map((e) => createSerializer('sse').push([e])!) }],
  [
    'Bedrock event stream',
    {
      make: createBedrockStreamParser,
      events: anthropicEvents,
      frames: (events) => events.map((e) => chunkFrame(e.data)),
      oversized: (bytes) => ({ event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(bytes) } }) }),
    },
  ],
];

function parse(p: SseChunkParser, chunks: Uint8Array[]): SseEvent[] {
  return [...chunks.flatMap((c) => p.push(c)), ...p.finish()];
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(bytes.subarray(at, cut));
    at = cut;
  }
  return out;
}

const LIMIT = 1 << 16;

describe.each(impls)('stream parser: %s', (_name, impl) => {
  const frames = impl.frames(impl.events);
  const body = concatBytes(frames);

  it('gives the events of a whole body, in order, counted', () => {
    const p = impl.make(LIMIT);
    expect(parse(p, [body])).toEqual(impl.events);
    expect(p.eventCount).toBe(impl.events.length);
    expect(p.sawBytes).toBe(true);
    expect(p.error).toBeUndefined();
  });

  it('gives the same events at every cut, byte by byte, and in uneven many-way splits', () => {
    for (let cut = 0; cut <= body.length; cut++) expect(parse(impl.make(LIMIT), splitAt(body, [cut])), `cut at ${cut}`).toEqual(impl.events);
    expect(parse(impl.make(LIMIT), splitAt(body, Array.from({ length: body.length }, (_, i) => i)))).toEqual(impl.events);
    for (let seed = 1; seed <= 5; seed++) {
      const cuts: number[] = [];
      for (let at = seed; at < body.length; at += 1 + ((at * 7919 + seed) % 37)) cuts.push(at);
      expect(parse(impl.make(LIMIT), splitAt(body, cuts)), `seed ${seed}`).toEqual(impl.events);
    }
  });

  it('hands out each event as soon as its frame is in', () => {
    const p = impl.make(LIMIT);
    const got: SseEvent[] = [];
    frames.forEach((f, i) => {
      got.push(...p.push(f));
      // CR alone ends a line only once the next character is seen (it may be CRLF's first half).
      expect(got, `after frame ${i}`).toEqual(impl.events.slice(0, impl.lagsOneLine ? i : i + 1));
    });
    got.push(...p.finish());
    expect(got).toEqual(impl.events);
  });

  it('a body cut anywhere keeps the events before the cut as they were', () => {
    for (let cut = 0; cut < body.length; cut++) {
      const got = parse(impl.make(LIMIT), [body.subarray(0, cut)]);
      const complete = frames.reduce((n, f, i) => (concatBytes(frames.slice(0, i + 1)).length <= cut ? i + 1 : n), 0);
      expect(got.slice(0, complete), `cut at ${cut}`).toEqual(impl.events.slice(0, complete));
      expect(got.length, `cut at ${cut}`).toBeLessThanOrEqual(complete + 1);
    }
  });

  it('a frame over the limit sets `error` and yields no event, whole or split, and nothing after it', () => {
    const [first] = impl.frames(impl.events.slice(0, 1));
    const big = concatBytes([...impl.frames([impl.oversized(5000)]), ...impl.frames(impl.events.slice(1, 2))]);
    for (const chunks of [[big], splitAt(big, Array.from({ length: Math.ceil(big.length / 512) }, (_, i) => i * 512))]) {
      const p = impl.make(4096);
      const got = parse(p, [first!, ...chunks]);
      // With CR line ends the event before it may still wait for its line's end, and be lost with it.
      if (impl.lagsOneLine && got.length === 0) expect(chunks.length).toBeGreaterThan(1);
      else expect(got, `${chunks.length} chunks`).toEqual(impl.events.slice(0, 1));
      expect(p.error?.type).toBe('max-buffer-size-exceeded');
      expect(p.push(first!)).toEqual([]);
    }
  });

  it('an empty body is no events and no bytes seen', () => {
    const p = impl.make(LIMIT);
    expect(parse(p, [new Uint8Array(0)])).toEqual([]);
    expect(p.sawBytes).toBe(false);
    expect(p.eventCount).toBe(0);
  });
});

describe('SSE parser', () => {
  it('dispatches a last frame that lacks its blank line', () => {
    expect(parse(createSseChunkParser(LIMIT), [enc.encode('data: {"a":1}')])).toEqual([{ data: '{"a":1}' }]);
  });
});

describe('Bedrock event stream parser', () => {
  it('a body that ends inside a frame is an error event at the end', () => {
    const body = concatBytes(impls.at(-1)![1].frames(anthropicEvents));
    const got = parse(createBedrockStreamParser(LIMIT), [body.subarray(0, body.length - 5)]);
    expect(got.at(-1)).toMatchObject({ event: 'error' });
    expect(JSON.parse(got.at(-1)!.data).error.message).toMatch(/ended inside a frame/);
  });
});
