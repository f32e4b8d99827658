/**
 * Upstream side: Responses SSE events → canonical stream events with full framing.
 *
 * Items are keyed by `output_index`: a `message` opens a text or refusal block per content part,
 * `reasoning` is one reasoning block (summary parts joined by a blank line; the signature, from
 * the done item's `encrypted_content`, on its end), `function_call` / `custom_tool_call` are tool
 * calls (freeform ones marked `custom`, their input streamed raw). `.done` events and the done
 * item complete whatever their deltas did not say. Built-in tool items and unknown event types
 * are ignored. `response.completed` / `response.incomplete` give usage and the finish reason;
 * `response.failed` and `error` are an `error` event (kind by code: a rate limit keeps the wait
 * read from "try again in N s"). A stream that ends without its terminal event is reported as
 * incomplete at `finish()`.
 */
import * as v from 'valibot';
import {
  decodeToolCallId,
  incompleteStream,
  ProxyError,
  type ChatRequest,
  type SseEvent,
  type StreamEvent,
  type StreamStep,
} from '../../src/canonical/index.ts';
import {
  safeParseAsIs,
} from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import { signatureOfEncrypted } from './decode-input.ts';
import { errorOfEvent, errorOfFailedResponse } from './errors.ts';
import { decodeFinishReason } from './finish-reason.ts';
import { decodeLogprobs } from './logprobs.ts';
import { decodeUsage } from './usage.ts';
import { StreamEventSchema, type ResponsesOutputItem, type ResponsesStreamEvent } from './wire.ts';
import { decodeWebSearchCall } from './web-search.ts';
import { decodeAnnotation } from './citations.ts';

type Block = 'text' | 'refusal';

type Item =
  | { kind: 'message'; open?: Block; said: string; spoke: boolean }
  | { kind: 'reasoning'; summaries: number; said: string; part: string }
  | { kind: 'tool'; index: number; said: string }
  | { kind: 'other' };
type ToolItem = Extract<Item, { kind: 'tool' }>;

export class OpenAIResponsesStreamDecoder implements StreamStep<SseEvent, StreamEvent> {
  private started = false;
  private ended = false;
  private readonly items = new Map<number, Item>();
  /** Items already ended (their late events are ignored). */
  private readonly finished = new Set<number>();
  private tools = 0;
  private sawText = false;
  private sawRefusal = false;

  constructor(
    private readonly req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {}

  push(sse: SseEvent): StreamEvent[] {
    if (this.ended) return [];
    const data = sse.data.trim();
    if (data === '' || data === '[DONE]') return [];
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return this.fail(new ProxyError('upstream', 'The upstream sent an unparsable stream frame.', { raw: data }));
    }
    // Valid as it is (nearly always): no copy.
    const parsed = safeParseAsIs(v.safeParse, StreamEventSchema, json);
    if (!parsed.success) {
      return this.fail(new ProxyError('upstream', 'The upstream sent a stream event of the wrong shape.', { raw: data }));
    }
    const out: StreamEvent[] = [];
    this.event(parsed.output, json as Record<string, unknown>, data, out);
    return out;
  }

  finish(): StreamEvent[] {
    if (this.ended) return [];
    const out: StreamEvent[] = [];
    this.closeAll(out);
    this.ended = true;
    out.push({ type: 'error', error: incompleteStream('no response.completed, response.incomplete or response.failed') });
    return out;
  }

  private fail(error: ProxyError): StreamEvent[] {
    this.ended = true;
    return [{ type: 'error', error }];
  }

  private start(e: ResponsesStreamEvent, out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    const r = e.response;
    out.push({
      type: 'message-start',
      id: r?.id || this.ctx.newId('resp_'),
      model: r?.model || this.req.model,
      created: r?.created_at ?? Math.floor(this.ctx.now() / 1000),
    });
  }

  private event(e: ResponsesStreamEvent, json: Record<string, unknown>, raw: string, out: StreamEvent[]): void {
    // Any event but a failure starts the message (its head from the first `response` seen).
    if (e.type !== 'error' && e.type !== 'response.failed') this.start(e, out);
    switch (e.type) {
      case 'response.output_item.added':
        if (e.item && e.output_index != null) this.added(e.output_index, e.item, out);
        return;
      case 'response.content_part.added': {
        const m = this.message(e, out);
        if (m && (e.part?.type === 'output_text' || e.part?.type === 'refusal')) this.openBlock(m, e.part.type === 'output_text' ? 'text' : 'refusal', out);
        return;
      }
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        this.textDelta(e, out);
        return;
      case 'response.output_text.done':
      case 'response.refusal.done':
        this.textDone(e, out);
        return;
      case 'response.content_part.done': {
        const m = this.message(e, out);
        if (m) this.closeBlock(m, out);
        return;
      }
      case 'response.output_text.annotation.added': {
        const m = this.message(e, out);
        if (m?.open === 'text') out.push({ type: 'citation', citation: decodeAnnotation(json['annotation']) });
        return;
      }
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        this.toolText(this.tool(e.output_index), e.delta ?? '', out);
        return;
      case 'response.function_call_arguments.done':
      case 'response.custom_tool_call_input.done':
        this.toolWhole(this.tool(e.output_index), (e.type === 'response.function_call_arguments.done' ? e.arguments : e.input) ?? '', out);
        return;
      case 'response.reasoning_summary_part.added': {
        const r = this.reasoning(e.output_index);
        if (r) this.summaryPart(r, out);
        return;
      }
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const r = this.reasoning(e.output_index);
        if (r) this.thought(r, e.delta ?? '', out);
        return;
      }
      case 'response.reasoning_summary_text.done': {
        const r = this.reasoning(e.output_index);
        const whole = e.text ?? '';
        if (r && whole.startsWith(r.part)) this.thought(r, whole.slice(r.part.length), out);
        return;
      }
      case 'response.output_item.done':
        if (e.item && e.output_index != null) this.done(e.output_index, e.item, out);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.completed(e, out);
        return;
      case 'response.failed':
        this.ended = true;
        out.push({ type: 'error', error: errorOfFailedResponse(e.response?.error, raw), upstreamFrame: true });
        return;
      case 'error':
        this.ended = true;
        out.push({ type: 'error', error: errorOfEvent(json, raw), upstreamFrame: true });
        return;
      // Stryker disable next-line ConditionalExpression: the switch's last case; without its return the switch ends there all the same
      default:
        return; // created, in_progress, queued (the start only); built-in tool progress, audio…
    }
  }

  /** Text or refusal said: the block's delta, and the logprobs that came with text. */
  private textDelta(e: ResponsesStreamEvent, out: StreamEvent[]): void {
    const kind: Block = e.type === 'response.output_text.delta' ? 'text' : 'refusal';
    const m = this.message(e, out);
    if (!m) return;
    this.blockText(m, kind, e.delta ?? '', out);
    const tokens = kind === 'text' ? decodeLogprobs(e.logprobs) : undefined;
    if (tokens) out.push({ type: 'logprobs', logprobs: { content: tokens } });
  }

  /** A text or refusal block's whole text: what its deltas did not say yet (all of it, when none came). */
  private textDone(e: ResponsesStreamEvent, out: StreamEvent[]): void {
    const kind: Block = e.type === 'response.output_text.done' ? 'text' : 'refusal';
    const m = this.message(e, out);
    if (!m) return;
    const whole = (kind === 'text' ? e.text : e.refusal) ?? '';
    if (m.open === kind && whole.startsWith(m.said)) this.blockText(m, kind, whole.slice(m.said.length), out);
    else if (m.open !== kind && whole) this.blockText(m, kind, whole, out);
  }

  /** The response ended, complete or not: every open block closed, its usage, its finish reason. */
  private completed(e: ResponsesStreamEvent, out: StreamEvent[]): void {
    this.closeAll(out);
    this.ended = true;
    const r = e.response;
    if (r?.usage) out.push({ type: 'usage', usage: decodeUsage(r.usage) });
    out.push({
      type: 'finish',
      reason: decodeFinishReason(r?.status ?? (e.type === 'response.completed' ? 'completed' : 'incomplete'), r?.incomplete_details?.reason, {
        toolCalls: this.tools > 0,
        refusedOnly: this.sawRefusal && !this.sawText,
      }),
    });
  }

  private added(at: number, item: ResponsesOutputItem, out: StreamEvent[]): void {
    if (this.finished.has(at) || this.items.has(at)) return;
    this.closeOthers(out);
    switch (item.type) {
      case 'message':
        // Stryker disable next-line StringLiteral: a message's said is read only while a block is open, and opening one resets it
        this.items.set(at, { kind: 'message', said: '', spoke: false });
        return;
      case 'reasoning':
        this.items.set(at, { kind: 'reasoning', summaries: 0, said: '', part: '' });
        out.push({ type: 'reasoning-start' });
        return;
      case 'function_call':
      case 'custom_tool_call': {
        const index = this.tools++;
        const { id, signature } = decodeToolCallId(item.call_id ?? item.id ?? this.ctx.newId('call_'));
        const tool: ToolItem = { kind: 'tool', index, said: '' };
        this.items.set(at, tool);
        out.push({
          type: 'tool-call-start',
          index,
          id,
          name: item.name ?? '',
          ...(item.type === 'custom_tool_call' ? { custom: true as const } : {}),
          ...(signature ? { signature } : {}),
        });
        const first = item.type === 'function_call' ? item.arguments : item.input;
        this.toolText(tool, first ?? '', out);
        return;
      }
      default:
        this.items.set(at, { kind: 'other' });
    }
  }

  /** Canonical framing: a text or reasoning block ends before another item starts. */
  private closeOthers(out: StreamEvent[]): void {
    for (const [k, item] of this.items) {
      if (item.kind === 'message') this.closeBlock(item, out);
      if (item.kind === 'reasoning') {
        out.push({ type: 'reasoning-end' });
        this.items.delete(k);
        this.finished.add(k);
      }
    }
  }

  /**
   * The message item of an event (one is assumed when its `output_item.added` never came);
   * none for an event aimed at an item of another kind or already ended, which says nothing.
   */
  private message(e: ResponsesStreamEvent, out: StreamEvent[]): Extract<Item, { kind: 'message' }> | undefined {
    const at = e.output_index ?? -1;
    const item = this.items.get(at);
    if (item) return item.kind === 'message' ? item : undefined;
    if (this.finished.has(at)) return undefined;
    // Stryker disable next-line StringLiteral: a message's said is read only while a block is open, and opening one resets it
    const created: Extract<Item, { kind: 'message' }> = { kind: 'message', said: '', spoke: false };
    this.closeOthers(out);
    this.items.set(at, created);
    return created;
  }

  private openBlock(m: Extract<Item, { kind: 'message' }>, kind: Block, out: StreamEvent[]): void {
    if (m.open === kind) return;
    this.closeBlock(m, out);
    m.open = kind;
    m.said = '';
    out.push({ type: kind === 'text' ? 'text-start' : 'refusal-start' });
  }

  private blockText(m: Extract<Item, { kind: 'message' }>, kind: Block, text: string, out: StreamEvent[]): void {
    this.openBlock(m, kind, out);
    m.spoke = true;
    if (!text) return;
    m.said += text;
    if (kind === 'text') this.sawText = true;
    else this.sawRefusal = true;
    out.push({ type: kind === 'text' ? 'text-delta' : 'refusal-delta', text });
  }

  private closeBlock(m: Extract<Item, { kind: 'message' }>, out: StreamEvent[]): void {
    if (m.open) out.push({ type: m.open === 'text' ? 'text-end' : 'refusal-end' });
    m.open = undefined;
  }

  private reasoning(at: number | null | undefined): Extract<Item, { kind: 'reasoning' }> | undefined {
    const item = this.items.get(at ?? -1);
    return item?.kind === 'reasoning' ? item : undefined;
  }

  /** A new summary part: separated from the previous one by a blank line. */
  private summaryPart(r: Extract<Item, { kind: 'reasoning' }>, out: StreamEvent[]): void {
    if (r.summaries++ > 0 && r.said) {
      // Stryker disable next-line StringLiteral: a reasoning item's said is only tested for being empty, and it is not here
      r.said += '\n\n';
      out.push({ type: 'reasoning-delta', text: '\n\n' });
    }
    r.part = '';
  }

  private thought(r: Extract<Item, { kind: 'reasoning' }>, text: string, out: StreamEvent[]): void {
    if (!text) return;
    r.said += text;
    r.part += text;
    out.push({ type: 'reasoning-delta', text });
  }

  private tool(at: number | null | undefined): ToolItem | undefined {
    const item = this.items.get(at ?? -1);
    return item?.kind === 'tool' ? item : undefined;
  }

  private toolText(item: ToolItem | undefined, text: string, out: StreamEvent[]): void {
    if (!item || !text) return;
    item.said += text;
    out.push({ type: 'tool-call-delta', index: item.index, argumentsDelta: text });
  }

  /** What a `.done` or done item says in full, less what the deltas said. */
  private toolWhole(item: ToolItem | undefined, whole: string, out: StreamEvent[]): void {
    if (item && whole.startsWith(item.said)) this.toolText(item, whole.slice(item.said.length), out);
  }

  private done(at: number, doneItem: ResponsesOutputItem, out: StreamEvent[]): void {
    if (this.finished.has(at)) return;
    this.added(at, doneItem, out);
    const item = this.items.get(at)!;
    switch (item.kind) {
      case 'message':
        if (!item.spoke) {
          // A server that sent only the finished item: its content, part by part.
          // Stryker disable next-line ArrayDeclaration: an element in the fallback list is no text or refusal part, so skipped like none
          for (const c of doneItem.content ?? []) {
            if (c.type === 'output_text' || c.type === 'refusal') {
              this.blockText(item, c.type === 'output_text' ? 'text' : 'refusal', (c.type === 'output_text' ? c.text : c.refusal) ?? '', out);
              this.closeBlock(item, out);
            }
          }
        }
        this.closeBlock(item, out);
        break;
      case 'reasoning': {
        if (!item.said) {
          // Stryker disable next-line ArrayDeclaration: an element in the fallback list has no text, so filtered out like none
          const texts = (doneItem.summary ?? []).map((s) => s.text ?? '').filter((t) => t !== '');
          // Stryker disable next-line ConditionalExpression,EqualityOperator: thought() says nothing of an empty text
          if (texts.length > 0) this.thought(item, texts.join('\n\n'), out);
        }
        const enc = doneItem.encrypted_content;
        out.push({ type: 'reasoning-end', ...(enc ? { signature: signatureOfEncrypted(enc) } : {}) });
        break;
      }
      case 'tool':
        this.toolWhole(item, (doneItem.type === 'custom_tool_call' ? doneItem.input : doneItem.arguments) ?? '', out);
        out.push({ type: 'tool-call-end', index: item.index });
        break;
      case 'other': {
        const search = decodeWebSearchCall(doneItem);
        if (search) out.push({ type: 'web-search', part: search });
        break;
      }
    }
    this.items.delete(at);
    this.finished.add(at);
  }

  /** End every block still open (items whose done event never came). */
  private closeAll(out: StreamEvent[]): void {
    for (const item of this.items.values()) {
      if (item.kind === 'message') this.closeBlock(item, out);
      else if (item.kind === 'reasoning') out.push({ type: 'reasoning-end' });
      else if (item.kind === 'tool') out.push({ type: 'tool-call-end', index: item.index });
    }
    this.items.clear();
  }
}
