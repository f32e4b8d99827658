/**
 * The search loop streamed (web-search.ts): each round is a streamed upstream call whose bytes go
 * through the one stream pipeline as one lane, round after round. The lane's body is made here:
 * a round's bytes as they come (read once more on the side, to learn the model's calls), then,
 * when the model called the web functions, a marker frame with the searches run — its event name
 * holds a secret of this request, so no upstream can forge one — then the next round's bytes. The
 * lane's decoder (`RoundStep`) decodes each round with a fresh upstream decoder, swallows the
 * calls to the web functions, turns each marker into `web-search` events (each caller encoder
 * writes its own blocks), keeps one message start, and holds a round's finish and usage until
 * it knows the round was the last: then the usage of every round, summed, and the last finish.
 * A text block that names a page the searches found cites it (`citation` events right after the
 * block's end, as the JSON answer's citations: web-search-cite.ts), unless the upstream cited it.
 * A later round that fails ends the stream with the caller dialect's error event.
 */
import { chainSteps, sumUsage, type Part, type SseEvent, type StreamEvent, type StreamStep, type ToolCallPart, type Usage, type WebResult, type WebSearchPart } from '../canonical/index.ts';
import type { RequestScope } from '../observe/scope.ts';
import { PipeBody } from '../sse/byte-step.ts';
import { createSseChunkParser } from '../sse/parse.ts';
import { streamPipeline } from '../sse/pipeline.ts';
import { contentTypeOf } from '../sse/serialize.ts';
import type { UpstreamSuccess } from '../upstream/call.ts';
import type { RoutedTarget } from '../upstream/resolve.ts';
import { callPlanned, chatUpstreamOf, streamFramingOf, type ChatCall, type FlowDeps } from './context.ts';
import { assertEventStream } from './upstream-answer.ts';
import { customToolNames, raiseCustomToolStream } from './custom-tools.ts';
import type { PlannedAttempt } from './plan.ts';
import { proxyHeaders, type Reply } from './reply.ts';
import { mintingEncoder, mintsIds, terminalHold } from './state.ts';
import { citationsOf } from './web-search-cite.ts';
import { MAX_ROUNDS, nextRound, planRound, runCalls, type WebLoop } from './web-search-loop.ts';
import type { WebRunner } from './web-search-run.ts';

/** What a marker frame says: the searches of the round, and whether another round follows. */
interface Marker {
  parts: WebSearchPart[];
  more: boolean;
}

/** A round's stream events folded into the parts of the model's turn (to send back next round). */
export function partsOfEvents(events: readonly StreamEvent[]): Part[] {
  const parts: Part[] = [];
  const calls = new Map<number, ToolCallPart>();
  let text: Extract<Part, { type: 'text' }> | undefined;
  let reasoning: Extract<Part, { type: 'reasoning' }> | undefined;
  for (const ev of events) {
    if ('choice' in ev && (ev.choice ?? 0) !== 0) continue;
    switch (ev.type) {
      case 'text-start':
        parts.push((text = { type: 'text', text: '' }));
        break;
      case 'text-delta':
        if (text) text.text += ev.text;
        break;
      case 'text-end':
        if (text && ev.signature) text.signature = ev.signature;
        text = undefined;
        break;
      case 'reasoning-start':
        parts.push((reasoning = { type: 'reasoning', text: '', ...(ev.redacted && { redacted: ev.redacted }) }));
        break;
      case 'reasoning-delta':
        if (reasoning) reasoning.text += ev.text;
        break;
      case 'reasoning-end':
        if (reasoning && ev.signature) reasoning.signature = ev.signature;
        reasoning = undefined;
        break;
      case 'tool-call-start': {
        const call: ToolCallPart = { type: 'tool-call', id: ev.id, name: ev.name, arguments: '', ...(ev.custom && { custom: true }), ...(ev.signature && { signature: ev.signature }) };
        calls.set(ev.index, call);
        parts.push(call);
        break;
      }
      case 'tool-call-delta': {
        const call = calls.get(ev.index);
        if (call) call.arguments += ev.argumentsDelta;
        break;
      }
      default:
        break;
    }
  }
  return parts;
}

/**
 * The lane's decoder: every round through a fresh upstream decoder, the web calls swallowed, the
 * markers made `web-search` events, one message start, the last round's finish with every
 * round's usage summed.
 */
export class RoundStep implements StreamStep<SseEvent, StreamEvent> {
  #decoder: StreamStep<SseEvent, StreamEvent>;
  #started = false;
  /** Usage of the rounds before this one, summed; the latest of this one. */
  #before: Usage | undefined;
  #round: Usage | undefined;
  /** This round's finish and usage events, in order, until it is known to be the last. */
  #held: StreamEvent[] = [];
  /** This round's calls to the web functions (by the upstream's index), and the caller's calls renumbered. */
  #swallowed = new Set<number>();
  #renumbered = new Map<number, number>();
  #nextIndex = 0;
  /** The pages the searches so far found, and the open text block's text (undefined once the upstream cited it). */
  #pages: WebResult[] = [];
  #text: string | undefined;

  constructor(
    private readonly make: () => StreamStep<SseEvent, StreamEvent>,
    private readonly runner: WebRunner,
    private readonly marker: string,
  ) {
    this.#decoder = make();
  }

  push(e: SseEvent): StreamEvent[] {
    if (e.event !== this.marker) return this.#filter(this.#decoder.push(e));
    const m = JSON.parse(e.data) as Marker;
    const out = this.#filter(this.#decoder.finish());
    for (const part of m.parts) {
      out.push({ type: 'web-search', part });
      this.#pages.push(...part.results);
    }
    if (m.more) {
      // Another round follows: its events through a decoder of their own.
      this.#before = sumUsage([this.#before, this.#round]);
      this.#round = undefined;
      this.#held = [];
      this.#swallowed.clear();
      this.#renumbered.clear();
      this.#decoder = this.make();
    }
    return out;
  }

  finish(): StreamEvent[] {
    const out = this.#filter(this.#decoder.finish());
    const usage = sumUsage([this.#before, this.#round]);
    // Stopped for tool calls none of which is the caller's (web calls not run, the rounds used up): it stopped.
    const stopped = (ev: StreamEvent): StreamEvent =>
      ev.type === 'finish' && ev.reason.unified === 'tool-calls' && this.#renumbered.size === 0 ? { ...ev, reason: { ...ev.reason, unified: 'stop' } } : ev;
    for (const ev of this.#held) out.push(ev.type === 'usage' ? { type: 'usage', usage: usage ?? ev.usage } : stopped(ev));
    this.#held = [];
    return out;
  }

  #filter(events: StreamEvent[]): StreamEvent[] {
    const out: StreamEvent[] = [];
    for (const ev of events) {
      switch (ev.type) {
        case 'message-start':
          if (!this.#started) out.push(ev);
          this.#started = true;
          break;
        case 'tool-call-start':
          if (this.runner.owns({ type: 'tool-call', id: ev.id, name: ev.name, arguments: '' })) this.#swallowed.add(ev.index);
          else {
            this.#renumbered.set(ev.index, this.#nextIndex);
            out.push({ ...ev, index: this.#nextIndex++ });
          }
          break;
        case 'tool-call-delta':
        case 'tool-call-end':
          if (!this.#swallowed.has(ev.index)) out.push({ ...ev, index: this.#renumbered.get(ev.index) ?? ev.index });
          break;
        case 'usage':
          this.#round = ev.usage;
          this.#held.push(ev);
          break;
        case 'finish':
          this.#held.push(ev);
          break;
        case 'text-start':
        case 'text-delta':
        case 'text-end':
        case 'citation':
          this.#cite(ev, out);
          break;
        default:
          out.push(ev);
      }
    }
    return out;
  }

  /** A text event on its way, and after a block's end the citations of the pages it names. */
  #cite(ev: Extract<StreamEvent, { type: 'text-start' | 'text-delta' | 'text-end' | 'citation' }>, out: StreamEvent[]): void {
    out.push(ev);
    if ((ev.choice ?? 0) !== 0) return;
    if (ev.type === 'text-start') this.#text = '';
    else if (ev.type === 'text-delta' && this.#text !== undefined) this.#text += ev.text;
    else if (ev.type === 'citation') this.#text = undefined;
    else if (ev.type === 'text-end') {
      if (this.#text !== undefined && this.#pages.length > 0) for (const citation of citationsOf(this.#text, this.#pages)) out.push({ type: 'citation', citation });
      this.#text = undefined;
    }
  }
}

/** A secret of this request for the marker frames' event name. */
function markerName(): string {
  const b = crypto.getRandomValues(new Uint8Array(12));
  return `interlingua-web-${[...b].map((x) => x.toString(16).padStart(2, '0')).join('')}`;
}

const utf8 = new TextEncoder();

/** The lane's body: every round's bytes, the marker frames between them. */
function roundsBody(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  loop: WebLoop,
  targets: readonly RoutedTarget[],
  first: UpstreamSuccess<PlannedAttempt>,
  o: { marker: string },
): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  async function* rounds(): AsyncGenerator<Uint8Array> {
    let success = first;
    let req = loop.req;
    for (let round = 0; ; round++) {
      // Read on the side: what the model said and called this round.
      const parser = createSseChunkParser(deps.config.limits.maxSseBufferBytes);
      const decoder = chatUpstreamOf(deps, success.attempt.target).createStreamDecoder(req, scope);
      const events: StreamEvent[] = [];
      reader = success.res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const e of parser.push(value)) events.push(...decoder.push(e));
        yield value;
      }
      for (const e of parser.finish()) events.push(...decoder.push(e));
      events.push(...decoder.finish());
      if (events.some((e) => e.type === 'error')) return;
      const said = partsOfEvents(events);
      const calls = said.filter((p): p is ToolCallPart => p.type === 'tool-call');
      const ours = calls.filter((c) => loop.runner.owns(c));
      if (ours.length === 0) return;
      // The last round (asked to answer without tools): a web call it still makes is not run.
      if (round >= MAX_ROUNDS - 1) {
        scope.note('web-search:max-rounds');
        return;
      }
      const outcomes = await runCalls(loop.runner, ours);
      const more = calls.length === ours.length;
      const marker: Marker = { parts: [...outcomes.values()].map((x) => x.part), more };
      yield utf8.encode(`event: ${o.marker}\ndata: ${JSON.stringify(marker)}\n\n`);
      if (!more) return;
      req = nextRound(req, said, [...outcomes.values()], round);
      success = await callPlanned(deps, scope, planRound(deps, scope, call, req, targets, round + 1), (t) => chatUpstreamOf(deps, t).decodeError, call.session);
      await assertEventStream(success, scope);
    }
  }
  const it = rounds();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await it.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        controller.error(e);
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason).catch(() => {});
      await it.return(undefined).catch(() => {});
    },
  });
}

/** The streamed answer of the search loop: the first round called, the rest as the stream goes. */
export async function webStreamReply(
  deps: FlowDeps,
  scope: RequestScope,
  call: ChatCall,
  loop: WebLoop,
  targets: readonly RoutedTarget[],
  first: PlannedAttempt[],
  o: { keep?: (answer: unknown) => Promise<void> },
): Promise<Reply> {
  const success = await callPlanned(deps, scope, first, (t) => chatUpstreamOf(deps, t).decodeError, call.session);
  await assertEventStream(success, scope);
  const marker = markerName();
  const upstream = chatUpstreamOf(deps, success.attempt.target);
  const req = loop.req;
  const make = () => {
    const decoder = upstream.createStreamDecoder(req, scope);
    return upstream.customTools || customToolNames(req).size === 0 ? decoder : chainSteps(decoder, raiseCustomToolStream(req));
  };
  const { caller } = call;
  const mint = mintsIds(caller, upstream);
  const encoder = caller.createStreamEncoder(loop.asked, scope);
  const minting = mint ? mintingEncoder(encoder) : encoder;
  const framing = streamFramingOf(call);
  const step = streamPipeline({
    scope,
    decoders: [new RoundStep(make, loop.runner, marker)],
    encoder: minting,
    framing,
    maxFrameBytes: deps.config.limits.maxSseBufferBytes,
    idleMs: success.attempt.target.upstream.timeouts.idleMs,
    hold: o.keep && caller.state ? terminalHold(caller.state, o.keep) : undefined,
  });
  const body = roundsBody(deps, scope, call, loop, targets, success, { marker });
  const headers = proxyHeaders(scope, { 'content-type': contentTypeOf(framing), 'cache-control': 'no-cache' });
  return { status: 200, headers, body: new PipeBody([new Response(body)], step) };
}
