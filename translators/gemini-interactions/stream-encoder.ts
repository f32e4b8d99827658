/**
 * Caller side: canonical stream events → Interactions SSE frames, each `event: <type>` with a
 * `data:` object carrying the same `event_type` (docs' streaming guide; SDK `InteractionSSEEvent`):
 *
 *   interaction.created {interaction:{id, status:"in_progress", object, model}}
 *   per step: step.start {index, step} → step.delta {index, delta}… → step.stop {index}
 *   interaction.completed {interaction:{id, status, usage, created, updated, object, model}}
 *   done [DONE]
 *
 * Steps are numbered from 0 in the order they open, one open at a time (tool calls that overlap
 * upstream are queued and written one after the other). Text and refusals are `model_output`
 * steps with `text` deltas; reasoning is a `thought` step with `thought_summary` deltas (only
 * when the caller asked for summaries) and a last `thought_signature` delta (see
 * encode-response.ts for what the signature holds); a call is a `function_call` step that starts
 * with `arguments: {}` and streams `arguments_delta` JSON fragments. Frames leave as events
 * arrive; a thought step opens only once it has something to show (a summary or a signature).
 * A search the upstream ran is its call and result steps, whole (web-search.ts); a citation is a
 * `text_annotation_delta` on the open output step (citations-stream.ts).
 *
 * Like the service, `interaction.completed` carries no steps (the docs: "empty outputs to reduce
 * the payload size"): whoever needs the whole answer collects it from the step events.
 *
 * A failure is an `error` event `{"error":{"code","message"}}`, then `done`: no
 * `interaction.completed`, and a step cut short by it is never stopped (a client could act on a
 * half-written call). `finish()` without a canonical `finish` is such a failure (the upstream
 * stopped early). Same dialect both sides, the caller reads the upstream's own frames
 * (`forwarded`): an error ending then only adds `error` and `done` to them.
 */
import {
  assertNever,
  ProxyError,
  type ChatRequest,
  type FinishReason,
  type Signature,
  type SseEvent,
  type StreamEvent,
  type StreamFrame,
  ToolCallQueue,
  type Usage,
  type WebSearchPart,
} from '../../src/canonical/index.ts';
import type { CallerStreamEncoder, TranslateContext } from '../types.ts';
import { interactionId, isoSeconds, thoughtSignature, wantsSummaries } from './encode-response.ts';
import { errorEventOf } from './errors.ts';
import { encodeStatus } from './status.ts';
import { encodeUsage } from './usage.ts';
import { DONE, type SseInteraction, type StepDeltaData, type Wire } from './wire-events.ts';
import type { AnyStep } from './wire.ts';
import { StepAnnotations } from './citations-stream.ts';
import { encodeSearchSteps } from './web-search.ts';

interface Call {
  index: number;
  id: string;
  name: string;
  signature?: Signature;
}

type Open =
  | { kind: 'output'; at: number }
  | { kind: 'thought'; at?: number; text: string }
  | { kind: 'call'; at: number; call: Call };

export class InteractionsStreamEncoder implements CallerStreamEncoder {
  private head?: { id: string; model: string; created: string };
  private closed = false;
  private next = 0;
  private open?: Open;
  private readonly calls = new ToolCallQueue<Call, StreamFrame[]>({
    openCall: () => (this.open?.kind === 'call' ? this.open.call.index : undefined),
    openBlock: (call, out) => this.openCall(call, out),
    argumentsDelta: (d, out) => this.argsDelta((this.open as Extract<Open, { kind: 'call' }>).at, d, out),
    closeBlock: (out) => this.closeOpen(out),
  });
  private toolCalls = false;
  private reason?: FinishReason;
  private usage?: Usage;
  private readonly summaries: boolean;
  /** The open output step's citations (citations-stream.ts), and searches waiting for a call to end. */
  private readonly annotations = new StepAnnotations();
  private readonly searches: WebSearchPart[] = [];
  /** The signature of the thought step just stopped, while no other step has started. */
  private signedThought?: string;

  constructor(
    private readonly req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.summaries = wantsSummaries(req);
  }

  push(e: StreamEvent): StreamFrame[] {
    if (this.closed) return [];
    const choice = (e as { choice?: number }).choice;
    if (choice !== undefined && choice !== 0) return []; // one list of steps: choice 0
    const out: StreamFrame[] = [];
    if (e.type === 'message-start') {
      this.start(out, e.id, e.model);
      return out;
    }
    this.start(out);
    switch (e.type) {
      case 'text-start':
        this.annotations.start();
        break; // a model_output step opens at its first delta
      case 'refusal-start':
      case 'refusal-end':
        break;
      case 'text-delta':
      case 'refusal-delta':
        if (!e.text) break;
        this.say(e.text, out);
        // A refusal's text is the step's text too: the offsets of the citations after it count it.
        this.annotations.text(e.text);
        break;
      case 'text-end':
        this.annotate(this.annotations.end(), out);
        if (e.signature) this.signatureStep(e.signature, out); // closes the output step first
        break;
      case 'reasoning-start':
        this.closeOpen(out);
        if (e.redacted) this.wholeThought(thoughtSignature('', undefined, e.redacted), out);
        else this.open = { kind: 'thought', text: '' };
        break;
      case 'reasoning-delta':
        if (e.text) this.think(e.text, out);
        break;
      case 'reasoning-end':
        this.endThought(e.signature, out);
        break;
      case 'tool-call-start': {
        const call: Call = { index: e.index, id: e.id, name: e.name, ...(e.signature ? { signature: e.signature } : {}) };
        this.calls.start(call, out);
        break;
      }
      case 'tool-call-delta':
        this.calls.delta(e.index, e.argumentsDelta, out);
        break;
      case 'tool-call-end':
        if (this.calls.end(e.index, out) && this.open === undefined) this.flushSearches(out);
        break;
      case 'logprobs':
        break; // the wire has no place for them
      case 'web-search':
        // Its steps whole, between the others: a search waits for a streaming call to end.
        this.searches.push(e.part);
        if (this.calls.idle) this.flushSearches(out);
        break;
      case 'citation':
        this.annotate(this.annotations.cite(e.citation), out);
        break;
      case 'usage':
        this.usage = e.usage;
        break;
      case 'finish':
        this.reason = e.reason;
        break;
      case 'prompt-blocked':
        this.reason = { unified: 'content-filter', raw: e.reason };
        break;
      case 'error':
        this.fail(e.error, out);
        break;
      default:
        assertNever(e, 'stream event');
    }
    return out;
  }

  /** Passthrough: a frame of the upstream's own stream reached the caller as it was. */
  forwarded(frame: SseEvent): void {
    // The caller has its interaction.created: an error ending must not open a second interaction.
    this.head ??= { id: '', model: this.req.model, created: isoSeconds(this.ctx.now()) };
    if (frame.event === 'done' || frame.data.trim() === DONE) this.closed = true;
  }

  finish(): StreamFrame[] {
    if (this.closed) return [];
    const out: StreamFrame[] = [];
    this.start(out);
    if (!this.reason) {
      this.fail(new ProxyError('upstream', 'The upstream stream ended before the interaction was complete.'), out);
      return out;
    }
    this.closeOpen(out);
    this.calls.flush(true, out);
    this.flushSearches(out);
    this.closed = true;
    const head = this.head!;
    const interaction: SseInteraction = {
      id: head.id,
      status: encodeStatus(this.reason, this.toolCalls),
      ...(this.usage ? { usage: encodeUsage(this.usage) } : {}),
      created: head.created,
      updated: isoSeconds(this.ctx.now()),
      object: 'interaction',
      model: head.model,
    };
    out.push(this.frame('interaction.completed', { interaction }));
    out.push({ event: 'done', data: DONE });
    return out;
  }

  // ---- frames ---------------------------------------------------------------------------------

  private frame(type: string, payload: Wire): StreamFrame {
    return { event: type, data: JSON.stringify({ ...payload, event_type: type }) };
  }

  private start(out: StreamFrame[], id?: string, model?: string): void {
    if (this.head) return;
    this.head = { id: interactionId(id, this.ctx), model: model || this.req.model, created: isoSeconds(this.ctx.now()) };
    const interaction: SseInteraction = { id: this.head.id, status: 'in_progress', object: 'interaction', model: this.head.model };
    out.push(this.frame('interaction.created', { interaction }));
  }

  private fail(err: ProxyError, out: StreamFrame[]): void {
    this.closed = true;
    out.push(this.frame('error', { error: errorEventOf(err) }));
    out.push({ event: 'done', data: DONE });
  }

  private stepStart(step: AnyStep, out: StreamFrame[]): number {
    this.signedThought = undefined;
    const index = this.next++;
    out.push(this.frame('step.start', { index, step }));
    return index;
  }

  private delta(index: number, delta: StepDeltaData, out: StreamFrame[]): void {
    out.push(this.frame('step.delta', { index, delta }));
  }

  private stop(index: number, out: StreamFrame[]): void {
    out.push(this.frame('step.stop', { index }));
  }

  // ---- steps ----------------------------------------------------------------------------------

  private say(text: string, out: StreamFrame[]): void {
    if (this.open?.kind !== 'output') {
      this.closeOpen(out);
      this.open = { kind: 'output', at: this.stepStart({ type: 'model_output' }, out) };
      this.annotations.step();
    }
    this.delta(this.open.at, { type: 'text', text }, out);
  }

  private annotate(annotations: unknown[], out: StreamFrame[]): void {
    if (annotations.length > 0 && this.open?.kind === 'output') this.delta(this.open.at, { type: 'text_annotation_delta', annotations }, out);
  }

  /** Each waiting search as its call and result steps, whole. */
  private flushSearches(out: StreamFrame[]): void {
    if (this.searches.length === 0) return;
    this.closeOpen(out);
    for (const part of this.searches.splice(0)) for (const step of encodeSearchSteps(part)) this.stop(this.stepStart(step, out), out);
  }

  private startedThought(t: Extract<Open, { kind: 'thought' }>, out: StreamFrame[]): number {
    t.at ??= this.stepStart({ type: 'thought' }, out);
    return t.at;
  }

  private think(text: string, out: StreamFrame[]): void {
    if (this.open?.kind !== 'thought') {
      this.closeOpen(out);
      this.open = { kind: 'thought', text: '' };
    }
    const t = this.open;
    t.text += text; // kept for the carrier: a vendor may have signed it
    if (this.summaries) this.delta(this.startedThought(t, out), { type: 'thought_summary', content: { type: 'text', text } }, out);
  }

  private endThought(signature: Signature | undefined, out: StreamFrame[]): void {
    if (this.open?.kind !== 'thought') {
      if (signature) this.signatureStep(signature, out);
      return;
    }
    const t = this.open;
    this.open = undefined;
    const value = thoughtSignature(t.text, signature);
    if (value !== undefined) this.delta(this.startedThought(t, out), { type: 'thought_signature', signature: value }, out);
    if (t.at !== undefined) this.stop(t.at, out);
    this.signedThought = value;
  }

  /** A whole thought step that only carries a signature. */
  private wholeThought(signature: string | undefined, out: StreamFrame[]): void {
    // Stryker disable next-line all: never undefined here (both callers give a signature or redacted data)
    if (signature === undefined) return;
    const at = this.stepStart({ type: 'thought' }, out);
    this.delta(at, { type: 'thought_signature', signature }, out);
    this.stop(at, out);
  }

  /** A Gemini signature on text or a call: a thought step of its own. */
  private signatureStep(signature: Signature, out: StreamFrame[]): void {
    this.closeOpen(out);
    this.wholeThought(thoughtSignature('', signature), out);
  }

  private openCall(call: Call, out: StreamFrame[]): void {
    this.closeOpen(out);
    // (Already the signature of the thought step just before: lent to it, lent-signatures.ts.)
    if (call.signature && thoughtSignature('', call.signature) !== this.signedThought) this.signatureStep(call.signature, out);
    this.toolCalls = true;
    const at = this.stepStart({ type: 'function_call', id: call.id, name: call.name, arguments: {} }, out);
    this.open = { kind: 'call', at, call };
  }

  private argsDelta(at: number, fragment: string, out: StreamFrame[]): void {
    this.delta(at, { type: 'arguments_delta', arguments: fragment }, out);
  }

  private closeOpen(out: StreamFrame[]): void {
    const o = this.open;
    if (!o) return;
    this.open = undefined;
    switch (o.kind) {
      case 'output':
      case 'call':
        this.stop(o.at, out);
        break;
      case 'thought':
        if (o.at !== undefined) this.stop(o.at, out);
        break;
    }
  }
}
