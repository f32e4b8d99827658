/**
 * Upstream side: Interactions SSE frames → canonical stream events.
 *
 * Each frame's `data` is a JSON object naming its `event_type` (the `event:` line names it too;
 * either is read). `interaction.created` → `message-start`; per step, `step.start` opens the
 * step and may already carry content (a `model_output`'s first text, a thought's summary — the
 * thinking guide's capture shows both), so it is read, not only the deltas:
 * - `model_output`: text contents and `text` deltas → one text block (media have no stream event);
 * - `thought`: `thought_summary` deltas → reasoning text, `thought_signature` (its last delta, or
 *   a non-empty `signature` in `step.start`) → the reasoning's Gemini signature at its end; a
 *   thought with neither summary nor signature makes no block. A signed thought's end waits for
 *   the next step: before a `function_call` the signature goes on the call instead
 *   (generateContent's place for it, as decode-response.ts and decode-input.ts do);
 * - a search's `google_search_call` / `url_context_call` and result steps (their deltas folded in)
 *   → one `web-search` event after the text that follows it, whose `text_annotation_delta`s
 *   (`citation` events, bytes to UTF-16) name its pages (web-search.ts);
 * - `function_call`: `step.start {id, name, arguments: {}}` → `tool-call-start`, `arguments_delta`
 *   JSON fragments → deltas (arguments already whole in `step.start` are one delta, and `{}` is
 *   written for a call that streamed none);
 * `step.stop` closes the step (its `usage`, the total so far, is kept). `interaction.completed`
 * gives the usage and the status (status.ts): a `finish`, or for `failed` an `error`. An `error`
 * event is an `error`; nothing is decoded after it. `interaction.status_update`, `done` /
 * `[DONE]`, unknown events and unknown delta kinds are skipped (the docs say to). A frame that is
 * not JSON, names no event, or is of a known event with the wrong shape is an `error`; a stream
 * that ends before `interaction.completed` is incomplete: `finish()` reports an `error`.
 */
import * as v from 'valibot';
import {
  incompleteStream,
  ProxyError,
  type ChatRequest,
  type Citation,
  type Signature,
  type SseEvent,
  type StreamEvent,
  type StreamStep,
  type Usage,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { geminiSignature, partsOfStep, summaryText, unixSeconds } from './decode-response.ts';
import { errorOfFailedInteraction, proxyErrorOfEvent } from './errors.ts';
import { decodeStatus } from './status.ts';
import { decodeUsage, hasUsage } from './usage.ts';
import { DONE, ErrorEventSchema, LifecycleSchema, StepDeltaSchema, StepStartSchema, StepStopSchema } from './wire-events.ts';
import { FunctionCallStepSchema } from './wire.ts';
import { decodeAnnotations, foldSearchDelta, isSearchStep, StreamSearches } from './web-search.ts';
import { isJsonObject as isObject } from '../../src/kit/index.ts';

type Step =
  | { kind: 'output'; open: boolean; said: string }
  | { kind: 'search'; step: Record<string, unknown> }
  | { kind: 'thought'; open: boolean; signature?: Signature }
  | { kind: 'call'; call: number; args: 'none' | 'streamed' | 'whole' }
  | { kind: 'other' };


function unexpected(raw: string, why: string): ProxyError {
  return new ProxyError('upstream', `The upstream sent a stream frame that is not an Interactions event (${why}).`, { raw: raw.slice(0, 2000) });
}

export class InteractionsStreamDecoder implements StreamStep<SseEvent, StreamEvent> {
  private started = false;
  private failed = false;
  private completed = false;
  private sawSteps = false;
  private readonly steps = new Map<number, Step>();
  private calls = 0;
  private usage?: Usage;
  /** A signed thought that has ended: its `reasoning-end` waits for the next step (a call takes the signature). */
  private held?: { signature: Signature; open: boolean };
  /** Searches waiting for the text that cites their pages (web-search.ts). */
  private readonly searches = new StreamSearches();

  constructor(
    private readonly req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {}

  push(input: SseEvent): StreamEvent[] {
    if (this.failed || this.completed) return [];
    const data = input.data.trim();
    if (data === '' || data === DONE || input.event === 'done') return [];
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return this.fail(unexpected(input.data, 'not JSON'));
    }
    if (!isObject(json)) return this.fail(unexpected(input.data, 'not an object'));
    const type = typeof json['event_type'] === 'string' ? json['event_type'] : input.event;
    if (!type) return this.fail(unexpected(input.data, 'no event_type'));
    const out: StreamEvent[] = [];
    switch (type) {
      case 'interaction.created': {
        const c = v.safeParse(LifecycleSchema, json);
        if (!c.success) return this.fail(unexpected(input.data, type));
        const created = c.output.interaction['created'];
        this.start(out, c.output.interaction.id ?? undefined, c.output.interaction.model ?? undefined, unixSeconds(typeof created === 'string' ? created : undefined));
        return out;
      }
      case 'step.start': {
        const s = v.safeParse(StepStartSchema, json);
        if (!s.success) return this.fail(unexpected(input.data, type));
        this.start(out);
        this.stepStart(s.output.index, s.output.step, out);
        return out;
      }
      case 'step.delta': {
        const d = v.safeParse(StepDeltaSchema, json);
        if (!d.success) return this.fail(unexpected(input.data, type));
        this.start(out);
        this.stepDelta(d.output.index, d.output.delta, out);
        return out;
      }
      case 'step.stop': {
        const s = v.safeParse(StepStopSchema, json);
        if (!s.success) return this.fail(unexpected(input.data, type));
        if (hasUsage(s.output.usage)) this.usage = decodeUsage(s.output.usage);
        this.stepStop(s.output.index, out);
        return out;
      }
      case 'interaction.completed': {
        const c = v.safeParse(LifecycleSchema, json);
        if (!c.success) return this.fail(unexpected(input.data, type));
        this.start(out, c.output.interaction.id ?? undefined, c.output.interaction.model ?? undefined);
        this.complete(c.output.interaction, input.data, out);
        return out;
      }
      case 'error': {
        const e = v.safeParse(ErrorEventSchema, json);
        return this.fail(proxyErrorOfEvent(e.success ? e.output.error : undefined, input.data), out, true);
      }
      default:
        return out; // interaction.status_update and events this proxy does not know
    }
  }

  finish(): StreamEvent[] {
    if (this.failed || this.completed) return [];
    const out: StreamEvent[] = [];
    this.closeAll(out);
    this.release(false, out);
    return this.fail(incompleteStream('no interaction.completed'), out);
  }

  /** `upstreamFrame`: the upstream's own error event, or a failed interaction. */
  private fail(error: ProxyError, out: StreamEvent[] = [], upstreamFrame = false): StreamEvent[] {
    this.failed = true;
    out.push(upstreamFrame ? { type: 'error', error, upstreamFrame } : { type: 'error', error });
    return out;
  }

  private start(out: StreamEvent[], id?: string, model?: string, created?: number): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'message-start', id: id || this.ctx.newId('v1_'), model: model || this.req.model, created: created ?? Math.floor(this.ctx.now() / 1000) });
  }

  /** Close every open text / reasoning block (steps come one after another). */
  private closeBlocks(out: StreamEvent[]): void {
    for (const [index, s] of this.steps) {
      if ((s.kind === 'output' || s.kind === 'thought') && s.open) this.stepStop(index, out);
    }
  }

  private closeAll(out: StreamEvent[]): void {
    for (const index of [...this.steps.keys()]) this.stepStop(index, out);
  }

  private stepStart(index: number, step: Record<string, unknown>, out: StreamEvent[]): void {
    this.sawSteps = true;
    if (this.steps.has(index)) this.stepStop(index, out);
    this.closeBlocks(out);
    const callSignature = this.release(step['type'] === 'function_call', out);
    switch (step['type']) {
      case 'model_output': {
        this.steps.set(index, { kind: 'output', open: false, said: '' });
        // Stryker disable next-line ArrayDeclaration: any list without text contents adds nothing
        for (const p of partsOfStep(step) ?? []) {
          if (p.type !== 'text' || !p.text) continue;
          const at = (this.steps.get(index) as Extract<Step, { kind: 'output' }>).said.length;
          this.text(index, p.text, out);
          this.cite((p.citations ?? []).map((c) => (c.span ? { ...c, span: { start: c.span.start + at, end: c.span.end + at } } : c)), out);
        }
        return;
      }
      case 'thought': {
        const signature = geminiSignature(typeof step['signature'] === 'string' ? step['signature'] : undefined);
        this.steps.set(index, { kind: 'thought', open: false, ...(signature ? { signature } : {}) });
        const text = summaryText(Array.isArray(step['summary']) ? step['summary'] : undefined);
        if (text) this.thought(index, text, out);
        return;
      }
      case 'function_call': {
        const f = v.safeParse(FunctionCallStepSchema, step);
        const id = f.success ? f.output.id : this.ctx.newId('call_');
        const name = f.success ? f.output.name : String(step['name'] ?? '');
        const call = this.calls++;
        out.push({ type: 'tool-call-start', index: call, id, name, ...(callSignature ? { signature: callSignature } : {}) });
        const args = f.success ? f.output.arguments : undefined;
        const whole = !!args && Object.keys(args).length > 0;
        if (whole) out.push({ type: 'tool-call-delta', index: call, argumentsDelta: JSON.stringify(args) });
        this.steps.set(index, { kind: 'call', call, args: whole ? 'whole' : 'none' });
        return;
      }
      default:
        this.steps.set(index, isSearchStep(step['type']) ? { kind: 'search', step: { ...step } } : { kind: 'other' });
    }
  }

  /** Citations of the open text block, kept for the searches whose pages they name. */
  private cite(citations: Citation[], out: StreamEvent[]): void {
    this.searches.cite(citations);
    for (const citation of citations) out.push({ type: 'citation', citation });
  }

  private text(index: number, text: string, out: StreamEvent[]): void {
    const s = this.steps.get(index);
    if (s?.kind !== 'output') return;
    if (!s.open) {
      this.closeBlocks(out);
      s.open = true;
      out.push({ type: 'text-start' });
    }
    s.said += text;
    out.push({ type: 'text-delta', text });
  }

  private thought(index: number, text: string, out: StreamEvent[]): void {
    const s = this.steps.get(index);
    if (s?.kind !== 'thought') return;
    if (!s.open) {
      this.closeBlocks(out);
      s.open = true;
      out.push({ type: 'reasoning-start' });
    }
    if (text) out.push({ type: 'reasoning-delta', text });
  }

  private stepDelta(index: number, delta: Record<string, unknown>, out: StreamEvent[]): void {
    if (!this.steps.has(index)) {
      // A delta for a step never started: infer the step from the delta's kind.
      const kind = delta['type'] === 'text' ? 'model_output' : delta['type'] === 'thought_summary' || delta['type'] === 'thought_signature' ? 'thought' : undefined;
      if (!kind) return;
      this.stepStart(index, { type: kind }, out);
    }
    const s = this.steps.get(index)!;
    switch (delta['type']) {
      case 'text':
        if (typeof delta['text'] === 'string' && delta['text']) this.text(index, delta['text'], out);
        return;
      case 'thought_summary': {
        const text = summaryText([delta['content']]);
        if (text) this.thought(index, text, out);
        return;
      }
      case 'thought_signature':
        if (s.kind === 'thought' && typeof delta['signature'] === 'string' && delta['signature']) s.signature = { origin: 'gemini', value: delta['signature'] };
        return;
      case 'arguments_delta':
        if (s.kind !== 'call' || s.args === 'whole' || typeof delta['arguments'] !== 'string' || !delta['arguments']) return;
        s.args = 'streamed';
        out.push({ type: 'tool-call-delta', index: s.call, argumentsDelta: delta['arguments'] });
        return;
      case 'text_annotation_delta':
        // Byte offsets into the output's text so far (the annotations of its text content).
        if (s.kind === 'output' && s.open) this.cite(decodeAnnotations(delta['annotations'], s.said), out);
        return;
      default:
        if (s.kind === 'search' && isSearchStep(delta['type'])) foldSearchDelta(s.step, delta);
        return; // images, other hosted-tool deltas: no canonical stream event
    }
  }

  private stepStop(index: number, out: StreamEvent[]): void {
    const s = this.steps.get(index);
    if (!s) return;
    this.steps.delete(index);
    switch (s.kind) {
      case 'output':
        if (s.open) out.push({ type: 'text-end' });
        for (const part of this.searches.flush(false)) out.push({ type: 'web-search', part });
        return;
      case 'search':
        this.searches.step(s.step);
        return;
      case 'thought':
        if (s.signature) this.held = { signature: s.signature, open: s.open };
        else if (s.open) out.push({ type: 'reasoning-end' });
        return;
      case 'call':
        if (s.args === 'none') out.push({ type: 'tool-call-delta', index: s.call, argumentsDelta: '{}' });
        out.push({ type: 'tool-call-end', index: s.call });
        return;
      case 'other':
        return;
    }
  }

  /**
   * End the held thought: before a call (`call`), unsigned, the signature going on the call
   * (returned); otherwise with its signature.
   */
  private release(call: boolean, out: StreamEvent[]): Signature | undefined {
    const h = this.held;
    if (!h) return undefined;
    this.held = undefined;
    if (call) {
      if (h.open) out.push({ type: 'reasoning-end' });
      return h.signature;
    }
    if (!h.open) out.push({ type: 'reasoning-start' });
    out.push({ type: 'reasoning-end', signature: h.signature });
    return undefined;
  }

  private complete(interaction: Record<string, unknown> & { status?: string | null; usage?: unknown }, raw: string, out: StreamEvent[]): void {
    this.closeAll(out);
    // A server that sends the steps only on the terminal event (no step events) still gives them.
    if (!this.sawSteps && Array.isArray(interaction['steps'])) {
      interaction['steps'].forEach((step, i) => {
        // (a leading `user_input` step is one this decoder does not map: it gives nothing)
        if (isObject(step)) {
          this.stepStart(i, step, out);
          this.stepStop(i, out);
        }
      });
    }
    this.release(false, out);
    for (const part of this.searches.flush(true)) out.push({ type: 'web-search', part });
    const usage = isObject(interaction.usage) && hasUsage(interaction.usage) ? decodeUsage(interaction.usage) : this.usage;
    if (interaction.status === 'failed') {
      // Its `errors[0]` says why, as for a failed Interaction answered whole (decode-response.ts).
      this.fail(errorOfFailedInteraction(Array.isArray(interaction['errors']) ? interaction['errors'] : undefined, raw), out, true);
      return;
    }
    this.completed = true;
    if (usage) out.push({ type: 'usage', usage });
    out.push({ type: 'finish', reason: decodeStatus(interaction.status, this.calls > 0) });
  }
}
