/**
 * `n > 1` against an upstream that returns one choice per call: n calls in parallel, merged into
 * choices by index (usage summed, tool-call ids kept unique). Streams interleave by choice index
 * as events arrive.
 */
import {
  ProxyError,
  type ChatRequest,
  type ChatResponse,
  type StreamEvent,
  type StreamFrame,
  type Usage,
} from '../canonical/index.ts';
import type { ChatCaller } from '../../translators/types.ts';
import { createSseChunkParser } from '../sse/parse.ts';
import { contentTypeOf, createSerializer } from '../sse/serialize.ts';
import type { CallOnce, ChatCall, FlowDeps } from './chat-flow.ts';
import { readResponse } from './chat-flow.ts';
import { jsonReply, proxyHeaders, type Reply } from './respond.ts';
import { asProxyError, type RequestScope } from './scope.ts';

export function sumUsage(list: Array<Usage | undefined>): Usage | undefined {
  const present = list.filter((u): u is Usage => !!u);
  if (present.length === 0) return undefined;
  const sum = (k: keyof Usage) => {
    let total = 0;
    let any = false;
    for (const u of present) {
      const v = u[k];
      if (typeof v === 'number') {
        total += v;
        any = true;
      }
    }
    return any ? total : undefined;
  };
  return {
    inputTokens: sum('inputTokens') ?? 0,
    outputTokens: sum('outputTokens') ?? 0,
    totalTokens: sum('totalTokens') ?? 0,
    cachedInputTokens: sum('cachedInputTokens'),
    cacheWriteTokens: sum('cacheWriteTokens'),
    reasoningTokens: sum('reasoningTokens'),
  };
}

export async function fanOutResponse(
  scope: RequestScope,
  caller: ChatCaller,
  req: ChatRequest,
  n: number,
  run: () => Promise<CallOnce>,
): Promise<Reply> {
  const one = { ...req, candidateCount: 1 };
  const results = await Promise.all(
    Array.from({ length: n }, async () => {
      const out = await run();
      return readResponse(out.success, out.upstream, one, scope);
    }),
  );
  const seen = new Set<string>();
  const merged: ChatResponse = {
    ...results[0]!,
    choices: results.flatMap((r, i) =>
      r.choices.slice(0, 1).map((c) => ({
        ...c,
        index: i,
        content: c.content.map((p) => {
          if (p.type !== 'tool-call') return p;
          const id = seen.has(p.id) ? `${p.id}_${i}` : p.id;
          seen.add(id);
          return { ...p, id };
        }),
      })),
    ),
    usage: sumUsage(results.map((r) => r.usage)),
  };
  scope.usage(merged.usage?.inputTokens, merged.usage?.outputTokens);
  return jsonReply(scope, caller.encodeResponse(merged, req, scope), 200);
}

export async function fanOutStream(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  req: ChatRequest,
  n: number,
  run: () => Promise<CallOnce>,
): Promise<Reply> {
  const calls = await Promise.all(Array.from({ length: n }, run));
  const framing = call.caller.streamFraming?.(call.input) ?? 'sse';
  const serializer = createSerializer(framing);
  const encoder = call.caller.createStreamEncoder({ ...req, candidateCount: n }, scope);
  const lanes = calls.map((c) => ({
    reader: c.success.res.body!.getReader(),
    parser: createSseChunkParser(deps.config.limits.maxSseBufferBytes),
    decoder: c.upstream.createStreamDecoder(req, scope),
    usage: undefined as Usage | undefined,
    done: false,
    pending: undefined as Promise<{ i: number; r?: ReadableStreamReadResult<Uint8Array>; e?: unknown }> | undefined,
  }));
  let started = false;
  let finished = false;
  scope.streaming = true;
  const ids = new Set<string>();

  const route = (i: number, events: StreamEvent[], frames: StreamFrame[]) => {
    for (const ev of events) {
      let out: StreamEvent | undefined = ev;
      if (ev.type === 'message-start') {
        out = started ? undefined : ev;
        started = true;
      } else if (ev.type === 'usage') {
        lanes[i]!.usage = ev.usage;
        out = undefined;
      } else if (ev.type === 'tool-call-start') {
        const id = ids.has(ev.id) ? `${ev.id}_${i}` : ev.id;
        ids.add(id);
        out = { ...ev, id, choice: i };
      } else if (ev.type !== 'error' && ev.type !== 'prompt-blocked') {
        out = { ...ev, choice: i };
      }
      if (out) for (const f of encoder.push(out)) frames.push(f);
    }
  };

  const close = (controller: ReadableStreamDefaultController<Uint8Array>, frames: StreamFrame[], error?: ProxyError) => {
    finished = true;
    if (error) {
      for (const f of encoder.push({ type: 'error', error })) frames.push(f);
      for (const l of lanes) if (!l.done) l.reader.cancel().catch(() => {});
    } else {
      const usage = sumUsage(lanes.map((l) => l.usage));
      if (usage) {
        scope.usage(usage.inputTokens, usage.outputTokens);
        for (const f of encoder.push({ type: 'usage', usage })) frames.push(f);
      }
    }
    for (const f of encoder.finish()) frames.push(f);
    const bytes = serializer.push(frames);
    if (bytes) controller.enqueue(bytes);
    const tail = serializer.finish();
    if (tail) controller.enqueue(tail);
    controller.close();
    scope.streamEnded();
  };

  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const frames: StreamFrame[] = [];
      while (!finished && frames.length === 0) {
        const active = lanes.filter((l) => !l.done);
        if (active.length === 0) return close(controller, frames);
        for (const [i, l] of lanes.entries()) {
          if (!l.done && !l.pending) {
            l.pending = l.reader.read().then(
              (r) => ({ i, r }),
              (e: unknown) => ({ i, e }),
            );
          }
        }
        const got = await Promise.race(active.map((l) => l.pending!));
        const lane = lanes[got.i]!;
        lane.pending = undefined;
        if (got.e !== undefined || !got.r) return close(controller, frames, asProxyError(got.e, scope));
        if (got.r.done) {
          lane.done = true;
          for (const e of lane.parser.finish()) route(got.i, lane.decoder.push(e), frames);
          route(got.i, lane.decoder.finish(), frames);
          continue;
        }
        for (const e of lane.parser.push(got.r.value)) route(got.i, lane.decoder.push(e), frames);
      }
      if (finished) return;
      const bytes = serializer.push(frames);
      if (bytes) {
        scope.markFirstByte();
        controller.enqueue(bytes);
      }
    },
    async cancel() {
      finished = true;
      scope.abort(new ProxyError('upstream', 'Caller disconnected.'));
      await Promise.all(lanes.map((l) => l.reader.cancel().catch(() => {})));
      scope.streamEnded();
    },
  });
  return { status: 200, headers: proxyHeaders(scope, { 'content-type': contentTypeOf(framing), 'cache-control': 'no-cache' }), body: stream };
}
