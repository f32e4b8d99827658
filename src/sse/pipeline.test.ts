/**
 * The one stream pipeline as a plain step: upstream chunks pushed by hand, the caller's output
 * collected in an array. A toy dialect stands in for the translators: `data: {"t":"…"}` is text,
 * `data: {"end":true}` the terminator, `data: {"error":"…"}` an in-stream error; its encoder writes
 * `data: <event type>[:text]` frames and `data: END` as its close, `data: ERROR:<message>` on error.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProxyError, type SseEvent, type StreamEvent, type StreamFrame, type StreamStep } from '../canonical/index.ts';
import { RequestScope } from '../observe/scope.ts';
import type { Emit } from './byte-step.ts';
import { streamPipeline, type StreamPipelineOptions } from './pipeline.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string) => enc.encode(s);

class ToyDecoder implements StreamStep<SseEvent, StreamEvent> {
  ended = false;
  push(e: SseEvent): StreamEvent[] {
    let json: { t?: string; end?: boolean; error?: string };
    try {
      json = JSON.parse(e.data);
    } catch {
      return [{ type: 'error', error: new ProxyError('upstream', `bad frame: ${e.data.slice(0, 20)}`) }];
    }
    // (The upstream's own error, in a well-formed frame.)
    if (json.error) return [{ type: 'error', error: new ProxyError('upstream', json.error), upstreamFrame: true }];
    if (json.end) {
      this.ended = true;
      return [{ type: 'usage', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } }, { type: 'finish', reason: { unified: 'stop', raw: 'end' } }];
    }
    return [{ type: 'text-delta', text: json.t ?? '' }];
  }
  finish(): StreamEvent[] {
    return this.ended ? [] : [{ type: 'error', error: new ProxyError('upstream', 'stopped before its end') }];
  }
}

class ToyEncoder implements StreamStep<StreamEvent, StreamFrame> {
  closed = false;
  seen: SseEvent[] = [];
  push(e: StreamEvent): StreamFrame[] {
    if (this.closed) return [];
    if (e.type === 'error') {
      this.closed = true;
      return [{ data: `ERROR:${e.error.message}` }, { data: `after:${this.seen.length}` }];
    }
    const choice = 'choice' in e && e.choice ? `@${e.choice}` : '';
    return [{ data: e.type === 'text-delta' ? `text${choice}:${e.text}` : `${e.type}${choice}` }];
  }
  finish(): StreamFrame[] {
    if (this.closed) return [];
    this.closed = true;
    return [{ data: 'END' }];
  }
  forwarded(frame: SseEvent): void {
    this.seen.push(frame);
  }
}

function setup(o: Partial<StreamPipelineOptions> & { lanes?: number } = {}) {
  const scope = new RequestScope('/test', 'req_1', Date.now);
  const encoder = new ToyEncoder();
  const step = streamPipeline({
    scope,
    decoders: Array.from({ length: o.lanes ?? 1 }, () => new ToyDecoder()),
    encoder,
    framing: 'sse',
    maxFrameBytes: 256,
    idleMs: 60_000,
    ...o,
  });
  const out: string[] = [];
  const emit: Emit = (c) => out.push(typeof c === 'string' ? c : dec.decode(c));
  let woken = 0;
  step.start(() => woken++);
  return { scope, encoder, step, out, emit, text: () => out.join(''), woken: () => woken };
}

const WELL_FORMED = 'data: {"t":"Hel"}\n\ndata: {"t":"lo"}\n\ndata: {"end":true}\n\n';

afterEach(() => {
  vi.useRealTimers();
});

describe('streamPipeline, translating', () => {
  it('push/end: each chunk is answered at once; a complete stream ends with the encoder’s close', () => {
    const t = setup();
    t.step.push(0, bytes('data: {"t":"Hel"}\n\ndata: {"t"'), t.emit);
    expect(t.text()).toBe('data: text:Hel\n\n');
    t.step.push(0, bytes(':"lo"}\n\ndata: {"end":true}\n\n'), t.emit);
    expect(t.step.done).toBe(false);
    t.step.end(0, t.emit);
    expect(t.text()).toBe('data: text:Hel\n\ndata: text:lo\n\ndata: usage\n\ndata: finish\n\ndata: END\n\n');
    expect(t.step.done).toBe(true);
    expect(t.scope.log.tokensOut).toBe(2);
  });

  it('an upstream that stops before its terminator ends with the error event, not the close', () => {
    const t = setup();
    t.step.push(0, bytes('data: {"t":"Hel"}\n\n'), t.emit);
    t.step.end(0, t.emit);
    expect(t.text()).toBe('data: text:Hel\n\ndata: ERROR:stopped before its end\n\ndata: after:0\n\n');
  });

  it('an invalid frame, an in-stream error and an empty stream each end with one error event', () => {
    for (const [input, message] of [
      ['data: {"t":"a"}\n\ndata: {nope\n\ndata: {"t":"b"}\n\n', 'bad frame'],
      ['data: {"error":"the engine broke"}\n\n', 'the engine broke'],
      [': just a comment\n\n', 'no events'],
      ['', 'without sending anything'],
    ] as const) {
      const t = setup();
      t.step.push(0, bytes(input), t.emit);
      t.step.end(0, t.emit);
      expect(t.text()).toContain(`ERROR:`);
      expect(t.text()).toContain(message);
      expect(t.text().match(/ERROR:/g)).toHaveLength(1);
      expect(t.text()).not.toContain('text:b');
      expect(t.step.done).toBe(true);
    }
  });

  it('a frame over maxFrameBytes ends the stream, whole or split across chunks', () => {
    const big = `data: {"t":"${'x'.repeat(400)}"}\n\n`;
    const whole = setup();
    whole.step.push(0, bytes(big), whole.emit);
    expect(whole.text()).toMatch(/^data: ERROR:Upstream stream frame too large/);
    expect(whole.step.done).toBe(true);
    const split = setup();
    for (let i = 0; i < big.length && !split.step.done; i += 100) split.step.push(0, bytes(big.slice(i, i + 100)), split.emit);
    expect(split.text()).toMatch(/^data: ERROR:Upstream stream frame too large/);
    expect(split.step.done).toBe(true);
  });

  it('fail: a network error ends the stream with the error event; nothing after done', () => {
    const t = setup();
    t.step.push(0, bytes('data: {"t":"a"}\n\n'), t.emit);
    t.step.fail(0, new TypeError('socket hang up'), t.emit);
    expect(t.text()).toBe('data: text:a\n\ndata: ERROR:Upstream closed the stream early.\n\ndata: after:0\n\n');
    const before = t.text();
    t.step.push(0, bytes('data: {"t":"late"}\n\n'), t.emit);
    t.step.end(0, t.emit);
    expect(t.text()).toBe(before);
    expect(t.scope.log.error ?? t.scope.finishLog(200).error).toMatch(/socket hang up/);
  });

  it('cancel: the caller went away — the request is aborted, nothing more is emitted', () => {
    const t = setup();
    t.step.push(0, bytes('data: {"t":"a"}\n\n'), t.emit);
    t.step.cancel();
    expect(t.scope.aborted).toBe(true);
    expect(t.scope.reason?.message).toMatch(/Caller disconnected/);
    expect(t.step.done).toBe(true);
    t.step.push(0, bytes('data: {"t":"b"}\n\n'), t.emit);
    t.step.flush(t.emit);
    expect(t.text()).toBe('data: text:a\n\n');
    expect(t.woken()).toBe(0);
  });

  it('two lanes (fan-out) merge into choices; one close once both ended', () => {
    const t = setup({ lanes: 2 });
    t.step.push(0, bytes('data: {"t":"a"}\n\n'), t.emit);
    t.step.push(1, bytes('data: {"t":"b"}\n\ndata: {"end":true}\n\n'), t.emit);
    t.step.end(1, t.emit);
    expect(t.step.done).toBe(false);
    t.step.push(0, bytes('data: {"end":true}\n\n'), t.emit);
    t.step.end(0, t.emit);
    expect(t.text()).toBe('data: text:a\n\ndata: text@1:b\n\ndata: finish@1\n\ndata: finish\n\ndata: usage\n\ndata: END\n\n');
    expect(t.scope.log.tokensIn).toBe(2);
  });

  it('fan-out: one lane failing ends the whole stream with one error event', () => {
    const t = setup({ lanes: 2 });
    t.step.push(0, bytes('data: {"t":"a"}\n\n'), t.emit);
    t.step.push(1, bytes('data: {"error":"lane 1 broke"}\n\n'), t.emit);
    expect(t.step.done).toBe(true);
    t.step.push(0, bytes('data: {"end":true}\n\n'), t.emit);
    expect(t.text()).toBe('data: text:a\n\ndata: ERROR:lane 1 broke\n\ndata: after:0\n\n');
  });
});

describe('streamPipeline, same dialect (passthrough)', () => {
  it('forwards well-formed bytes as they came, whatever the chunking, and adds nothing', () => {
    for (const cut of [1, 7, 19, 30, WELL_FORMED.length]) {
      const t = setup({ passthrough: true });
      for (let i = 0; i < WELL_FORMED.length; i += cut) t.step.push(0, bytes(WELL_FORMED.slice(i, i + cut)), t.emit);
      t.step.end(0, t.emit);
      expect(t.text()).toBe(WELL_FORMED);
      expect(t.step.done).toBe(true);
    }
  });

  it('emits whole frames only: a frame waits until its blank line', () => {
    const t = setup({ passthrough: true });
    t.step.push(0, bytes('data: {"t":"Hel"}\n\ndata: {"t"'), t.emit);
    expect(t.text()).toBe('data: {"t":"Hel"}\n\n');
    t.step.push(0, bytes(':"lo"}\r\n\r\n'), t.emit);
    expect(t.text()).toBe('data: {"t":"Hel"}\n\ndata: {"t":"lo"}\r\n\r\n');
  });

  it('a last frame without its blank line is completed once it decodes', () => {
    const t = setup({ passthrough: true });
    t.step.push(0, bytes('data: {"t":"a"}\n\ndata: {"end":true}'), t.emit);
    t.step.end(0, t.emit);
    expect(t.text()).toBe('data: {"t":"a"}\n\ndata: {"end":true}\n\n');
  });

  it('a bad frame is not forwarded: the frames before it, then the error ending, which knows what was forwarded', () => {
    const t = setup({ passthrough: true });
    t.step.push(0, bytes('data: {"t":"a"}\n\ndata: {"t":"b"}\n\ndata: {nope\n\ndata: {"t":"c"}\n\n'), t.emit);
    expect(t.text()).toBe('data: {"t":"a"}\n\ndata: {"t":"b"}\n\ndata: ERROR:bad frame: {nope\n\ndata: after:2\n\n');
    expect(t.encoder.seen.map((e) => e.data)).toEqual(['{"t":"a"}', '{"t":"b"}']);
  });

  it('a half frame then a clean end, and a missing terminator, end with the error event', () => {
    const half = setup({ passthrough: true });
    half.step.push(0, bytes('data: {"t":"a"}\n\ndata: {"t":"b'), half.emit);
    half.step.end(0, half.emit);
    expect(half.text()).toBe('data: {"t":"a"}\n\ndata: ERROR:bad frame: {"t":"b\n\ndata: after:1\n\n');
    const cut = setup({ passthrough: true });
    cut.step.push(0, bytes('data: {"t":"a"}\n\n'), cut.emit);
    cut.step.end(0, cut.emit);
    expect(cut.text()).toBe('data: {"t":"a"}\n\ndata: ERROR:stopped before its end\n\ndata: after:1\n\n');
  });

  it('the upstream’s own error frame is forwarded as it was, with whatever follows it; nothing of ours is added', () => {
    const upstream = 'data: {"t":"a"}\n\ndata: {"error":"boom","detail":null}\n\ndata: [DONE]\n\n';
    for (const cut of [1, 9, upstream.length]) {
      const t = setup({ passthrough: true });
      for (let i = 0; i < upstream.length; i += cut) t.step.push(0, bytes(upstream.slice(i, i + cut)), t.emit);
      t.step.end(0, t.emit);
      expect(t.text()).toBe(upstream);
      expect(t.step.done).toBe(true);
    }
    // A deadline or a broken connection after it adds nothing either.
    const late = setup({ passthrough: true });
    late.step.push(0, bytes('data: {"error":"boom"}\n\n'), late.emit);
    late.step.fail(0, new Error('socket hang up'), late.emit);
    expect(late.text()).toBe('data: {"error":"boom"}\n\n');
  });

  it('a frame cut before its data (an event line, then the end) is never forwarded: the stream ends after the last whole frame', () => {
    const cut = setup({ passthrough: true });
    cut.step.push(0, bytes('data: {"t":"a"}\n\nevent: message_delta\n'), cut.emit);
    cut.step.end(0, cut.emit);
    expect(cut.text()).toBe('data: {"t":"a"}\n\ndata: ERROR:stopped before its end\n\ndata: after:1\n\n');
    // After a complete answer, the cut frame is dropped and the stream ends as complete.
    const after = setup({ passthrough: true });
    after.step.push(0, bytes('data: {"end":true}\n\nevent: ping\nid: 3\n'), after.emit);
    after.step.end(0, after.emit);
    expect(after.text()).toBe('data: {"end":true}\n\n');
  });

  it('a frame over maxFrameBytes that never completes ends the stream once it is too large', () => {
    const t = setup({ passthrough: true });
    t.step.push(0, bytes('data: {"t":"a"}\n\n'), t.emit);
    for (let i = 0; i < 5 && !t.step.done; i++) t.step.push(0, bytes('data: {"t":"' + 'x'.repeat(90)), t.emit);
    expect(t.step.done).toBe(true);
    expect(t.text()).toMatch(/^data: \{"t":"a"\}\n\ndata: ERROR:Upstream stream frame too large/);
  });
});

describe('streamPipeline, deadlines', () => {
  it('an idle upstream: the step wakes its driver and flush ends the stream with the error event', () => {
    vi.useFakeTimers();
    const t = setup({ idleMs: 1000 });
    t.step.push(0, bytes('data: {"t":"a"}\n\n'), t.emit);
    vi.advanceTimersByTime(999);
    expect(t.woken()).toBe(0);
    vi.advanceTimersByTime(2);
    expect(t.woken()).toBe(1);
    expect(t.scope.aborted).toBe(true);
    t.step.flush(t.emit);
    expect(t.text()).toBe('data: text:a\n\ndata: ERROR:Upstream stream was idle for 1000 ms.\n\ndata: after:0\n\n');
    expect(t.step.done).toBe(true);
  });

  it('the total deadline (scope.setDeadline) ends a stream that keeps talking', () => {
    vi.useFakeTimers();
    const t = setup({ idleMs: 1000 });
    t.scope.setDeadline(2500);
    for (let i = 0; i < 4; i++) {
      t.step.push(0, bytes('data: {"t":"."}\n\n'), t.emit);
      vi.advanceTimersByTime(700);
    }
    expect(t.woken()).toBe(1);
    t.step.flush(t.emit);
    expect(t.text()).toMatch(/data: ERROR:The request did not complete within 2500 ms \(timeouts\.totalMs\)\.\n\ndata: after:0\n\n$/);
    expect(t.step.done).toBe(true);
  });

  it('flush without a deadline passed emits nothing; a stream that ended stops its timers', () => {
    vi.useFakeTimers();
    const t = setup({ idleMs: 1000 });
    t.step.flush(t.emit);
    expect(t.out).toEqual([]);
    t.step.push(0, bytes(WELL_FORMED), t.emit);
    t.step.end(0, t.emit);
    vi.advanceTimersByTime(5000);
    expect(t.woken()).toBe(0);
    expect(t.scope.aborted).toBe(false);
  });
});

describe('streamPipeline, holding the terminal frame (hold)', () => {
  it('the frame carrying the answer and the rest wait for the store, then come as the tail', async () => {
    let release!: () => void;
    const stored: unknown[] = [];
    const hold = { answerOf: (f: StreamFrame) => (f.data === 'finish' ? 'the answer' : undefined), keep: (a: unknown) => (stored.push(a), new Promise<void>((r) => (release = r))) };
    const t = setup({ hold });
    t.step.push(0, bytes(WELL_FORMED), t.emit);
    t.step.end(0, t.emit);
    expect(t.text()).toBe('data: text:Hel\n\ndata: text:lo\n\ndata: usage\n\n');
    expect(stored).toEqual(['the answer']);
    expect(t.step.done).toBe(true);
    const tail = t.step.tail!();
    expect(t.step.tail!()).toBeUndefined();
    release();
    expect(await tail).toBe('data: finish\n\ndata: END\n\n');
  });

  it('without an answer in the stream nothing is held and there is no tail', () => {
    const t = setup({ hold: { answerOf: () => undefined, keep: () => Promise.reject(new Error('never')) } });
    t.step.push(0, bytes(WELL_FORMED), t.emit);
    t.step.end(0, t.emit);
    expect(t.text()).toContain('data: END\n\n');
    expect(t.step.tail!()).toBeUndefined();
  });
});
