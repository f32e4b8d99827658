/**
 * Caller side: canonical stream events → Responses SSE frames, each with `event:` and a `data:`
 * object carrying `type` and a `sequence_number` that counts from 0. No `[DONE]`.
 *
 * `response.created`, `response.in_progress`, then per output item: `response.output_item.added`
 * → its own events → `response.output_item.done` with the complete item (what Codex acts on),
 * each item closed before the next one opens (tool calls that overlap upstream are queued and
 * written one after the other); last, exactly one of `response.completed`,
 * `response.incomplete` (`max_output_tokens`, `content_filter`) or `response.failed`, with usage.
 * A failure is an `error` event and `response.failed`; an item cut short by it is never marked
 * done (a client could act on a half-written tool call). `finish()` without a canonical `finish`
 * ends the response as failed: the upstream stopped early.
 *
 * Same dialect both sides, the caller reads the upstream's own frames (`forwarded`); a failure then
 * continues that stream: the same Response (id, fields, items done), the next sequence numbers.
 */
import {
  assertNever,
  ProxyError,
  type CarriedReasoning,
  type ChatRequest,
  type FinishReason,
  type Signature,
  type SseEvent,
  type StreamEvent,
  type StreamFrame,
  type StreamStep,
  ToolCallQueue,
  type Usage,
  type WebSearchPart,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import {
  compactionItem,
  ITEM_PREFIX,
  messageItem,
  outputOptions,
  reasoningItem,
  toolCallItem,
  type ItemStatus,
  type OutputOptions,
} from './encode-output.ts';
import { failedEnd, responseId, responseObject, type ResponseHead } from './encode-response.ts';
import type { Wire } from './encode-settings.ts';
import { errorEventOf } from './errors.ts';
import { encodeFinishReason, type ResponseEnd } from './finish-reason.ts';
import { readForwarded } from './forwarded.ts';
import type { KeptResponse } from './state.ts';
import { KeptStreamOutput } from './stream-kept.ts';
import { StreamAnnotations } from './citations-stream.ts';
import { webSearchItem } from './web-search.ts';
import {
  argumentsDelta,
  annotationFrames,
  argumentsDone,
  closePart,
  closeSummary,
  partDelta,
  ResponseFrames,
  searchPhases,
  summaryDelta,
  type Open,
  type OpenMessage,
  type OpenReasoning,
  type Part,
  type ToolCall,
} from './stream-parts.ts';

export class OpenAIResponsesStreamEncoder implements StreamStep<StreamEvent, StreamFrame> {
  private readonly f = new ResponseFrames();
  private head?: ResponseHead;
  private closed = false;
  private open?: Open;
  private readonly output: Wire[] = [];
  private readonly tools = new ToolCallQueue<ToolCall, StreamFrame[]>({
    openCall: () => (this.open?.kind === 'tool' ? this.open.call.index : undefined),
    openBlock: (call, out) => this.openTool(call, out),
    argumentsDelta: (d, out) => argumentsDelta(this.open as Extract<Open, { kind: 'tool' }>, d, this.f, out),
    closeBlock: (out) => this.closeOpen(out),
  });
  /** Web searches waiting for the open tool call to end. */
  private readonly searches: WebSearchPart[] = [];
  /** The open text block's citations (citations-stream.ts). */
  private readonly annotations = new StreamAnnotations();
  private readonly ended = new Set<number>();
  private reason?: FinishReason;
  private usage?: Usage;
  private readonly opts: OutputOptions;
  /** Passthrough: the Response the upstream's own `response.created` opened. */
  private upstreamResponse?: Wire;
  /** What the store keeps beside what the frames show. */
  private readonly keeping: KeptStreamOutput;

  constructor(
    private readonly req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.opts = outputOptions(req);
    this.keeping = new KeptStreamOutput(this.opts, ctx);
  }

  push(e: StreamEvent): StreamFrame[] {
    if (this.closed) return [];
    if ('choice' in e && e.choice !== undefined && e.choice !== 0) return []; // one output list: choice 0
    const out: StreamFrame[] = [];
    if (e.type === 'message-start') {
      this.start(out, { id: responseId(e.id, this.ctx), model: e.model || this.req.model, createdAt: e.created });
      return out;
    }
    this.start(out);
    switch (e.type) {
      case 'text-start':
      case 'refusal-start':
        if (e.type === 'text-start') this.annotations.start();
        break; // opened by the first delta: no empty part is ever written
      case 'text-delta':
      case 'refusal-delta':
        if (e.text) this.say(e.type === 'text-delta' ? 'text' : 'refusal', e.text, out);
        break;
      case 'text-end':
        this.blockEnd(e.signature, out, true);
        break;
      case 'refusal-end':
        this.blockEnd(undefined, out, false);
        break;
      case 'reasoning-start':
        this.closeOpen(out);
        if (e.redacted) this.redactedReasoning(e.redacted, out);
        else this.openReasoning(out);
        break;
      case 'reasoning-delta':
        if (e.text) this.think(e.text, out);
        break;
      case 'reasoning-end':
        if (this.open?.kind !== 'reasoning') {
          if (!e.signature) break;
          this.openReasoning(out);
        }
        this.closeReasoning(this.open as OpenReasoning, e.signature, out);
        break;
      case 'tool-call-start': {
        const call: ToolCall = { index: e.index, id: e.id, name: e.name, ...(e.custom ? { custom: true as const } : {}), ...(e.signature ? { signature: e.signature } : {}) };
        this.tools.start(call, out);
        break;
      }
      case 'tool-call-delta':
        this.tools.delta(e.index, e.argumentsDelta, out);
        break;
      case 'tool-call-end':
        if (this.tools.end(e.index, out) && this.open === undefined) this.flushSearches(out);
        break;
      case 'web-search':
        // One item at a time: a search waits for a streaming tool call (and the queued ones) to end.
        this.searches.push(e.part);
        if (this.tools.idle) this.flushSearches(out);
        break;
      case 'citation':
        this.cite(e.citation, out);
        break;
      case 'logprobs':
        if (this.opts.logprobs && this.open?.kind === 'message' && this.open.part?.kind === 'text') this.open.part.logprobs.push(...e.logprobs.content);
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

  /**
   * A text (`text`) or refusal block's end. A signature on the text (Gemini's) goes with its
   * message; with no message open, in a reasoning item of its own when the caller reads encrypted
   * reasoning, else kept hidden.
   */
  private blockEnd(signature: Signature | undefined, out: StreamFrame[], text: boolean): void {
    if (text && !(this.open?.kind === 'message' && this.open.part?.kind === 'text')) this.annotations.end(undefined); // an empty block cites nothing
    if (this.open?.kind === 'message') {
      closePart(this.open, this.f, out, this.annotations);
      if (signature) this.open.signature = signature;
    } else if (signature && this.opts.encrypted) {
      this.openReasoning(out);
      this.closeReasoning(this.open as unknown as OpenReasoning, signature, out);
    } else if (signature) {
      this.closeOpen(out);
      this.keeping.hidden(this.output.length - 1, { text: '', signature });
    }
  }

  /** A redacted reasoning item, whole: added and done. */
  private redactedReasoning(redacted: Signature, out: StreamFrame[]): void {
    const id = this.ctx.newId(ITEM_PREFIX.reasoning);
    const at = this.output.length;
    out.push(this.frame('response.output_item.added', { output_index: at, item: reasoningItem(id, [], undefined, this.opts) }));
    this.doneReasoning(at, reasoningItem(id, [], { text: '', redacted }, this.opts), { text: '', redacted }, out);
  }

  /** A citation: of the text part being written, or, late, of the one that just ended. */
  private cite(citation: Extract<StreamEvent, { type: 'citation' }>['citation'], out: StreamFrame[]): void {
    const m = this.open?.kind === 'message' ? this.open : undefined;
    const ended = m && !m.part && !this.annotations.inBlock ? m.content.at(-1) : undefined;
    if (ended?.['type'] === 'output_text') this.annotate(m, this.annotations.late(citation, ended), out, -1);
    else this.annotate(m?.part?.kind === 'text' ? m : undefined, this.annotations.cite(citation, m?.part?.text.length), out);
  }

  /** Passthrough: a frame of the upstream's own stream reached the caller as it was. */
  forwarded(frame: SseEvent): void {
    const f = readForwarded(frame);
    this.f.seq = f.sequenceNumber !== undefined ? f.sequenceNumber + 1 : this.f.seq + 1;
    if (f.response && !this.head) {
      const r = f.response;
      this.upstreamResponse = r;
      // The stream is open: no created/in_progress of ours. The ending is `r` continued (terminal),
      // so no field of this head is ever written.
      // Stryker disable next-line ObjectLiteral: only its presence is read
      this.head = { id: r['id'] as string, model: this.req.model, createdAt: 0 };
    }
    if (f.item) {
      this.output[f.item.at] = f.item.item;
      this.ended.add(f.item.at);
    }
    // The caller already has its one terminal event.
    if (f.type === 'response.completed' || f.type === 'response.incomplete' || f.type === 'response.failed') this.closed = true;
  }

  finish(): StreamFrame[] {
    if (this.closed) return [];
    const out: StreamFrame[] = [];
    this.start(out);
    if (!this.reason) {
      this.fail(new ProxyError('upstream', 'The upstream stream ended before the response was complete.'), out);
      return out;
    }
    const end = encodeFinishReason(this.reason);
    const status: ItemStatus = end.status === 'completed' ? 'completed' : 'incomplete';
    this.closeOpen(out, status);
    this.tools.flush(true, out);
    this.flushSearches(out);
    this.terminal(end, out);
    return out;
  }

  // ---- frames ---------------------------------------------------------------------------------

  private frame(type: string, payload: Wire): StreamFrame {
    return this.f.frame(type, payload);
  }

  private start(out: StreamFrame[], head?: ResponseHead): void {
    if (this.head) return;
    this.head = head ?? { id: this.ctx.newId('resp_'), model: this.req.model, createdAt: Math.floor(this.ctx.now() / 1000) };
    const response = responseObject(this.head, this.req, [], undefined, undefined);
    out.push(this.frame('response.created', { response }));
    out.push(this.frame('response.in_progress', { response }));
    // A compaction the proxy made before the turn: the first item, whole.
    if (this.req.compacted) {
      const item = compactionItem(this.req.compacted, this.ctx);
      out.push(this.frame('response.output_item.added', { output_index: 0, item }));
      out.push(this.frame('response.output_item.done', { output_index: 0, item }));
      this.output.push(item);
      this.ended.add(0);
    }
  }

  private terminal(end: ResponseEnd, out: StreamFrame[]): void {
    this.closed = true;
    const type = end.status === 'completed' ? 'response.completed' : end.status === 'incomplete' ? 'response.incomplete' : 'response.failed';
    const ats = this.output.flatMap((_, i) => (this.ended.has(i) ? [i] : [])); // items cut short are not part of it
    const output = ats.map((i) => this.output[i]!);
    const response = responseObject(this.head!, this.req, output, end, this.usage);
    const up = this.upstreamResponse;
    const ending = up ? { ...up, status: response['status'], error: response['error'], incomplete_details: response['incomplete_details'], output } : response;
    this.keeping.end(ending, this.output, ats);
    out.push(this.frame(type, { response: ending }));
  }

  /** Once the terminal frame is out: the Response as the store keeps it (`KeptResponse`). */
  kept(): KeptResponse | undefined {
    return this.keeping.kept();
  }

  private fail(err: ProxyError, out: StreamFrame[]): void {
    out.push(this.frame('error', errorEventOf(err)));
    this.terminal(failedEnd(err), out);
  }

  /** An item's `output_item.done`, and its place in the final output. */
  private done(at: number, item: Wire, out: StreamFrame[]): void {
    out.push(this.frame('response.output_item.done', { output_index: at, item }));
    this.output[at] = item;
    this.ended.add(at);
  }

  /** A reasoning item's `output_item.done`; the store keeps it with its signature. */
  private doneReasoning(at: number, item: Wire, carried: CarriedReasoning | undefined, out: StreamFrame[]): void {
    this.done(at, item, out);
    this.keeping.reasoning(at, item, carried);
  }

  private added(item: Wire, out: StreamFrame[]): number {
    const at = this.output.length;
    this.output.push(item); // placeholder until done; sliced off if never done
    out.push(this.frame('response.output_item.added', { output_index: at, item }));
    return at;
  }

  /** Each waiting web search as the API streams one: added in progress, searching, completed, done. */
  private flushSearches(out: StreamFrame[]): void {
    if (this.searches.length === 0) return;
    this.closeOpen(out);
    for (const part of this.searches.splice(0)) {
      const item = webSearchItem(part, this.ctx);
      const at = this.added({ id: item['id'], type: 'web_search_call', status: 'in_progress' }, out);
      searchPhases(item['id'], at, this.f, out);
      this.done(at, item, out);
    }
  }

  // ---- messages -------------------------------------------------------------------------------

  private say(kind: Part['kind'], text: string, out: StreamFrame[]): void {
    if (this.open?.kind !== 'message') {
      this.closeOpen(out);
      const id = this.ctx.newId(ITEM_PREFIX.message);
      this.open = { kind: 'message', id, at: this.added(messageItem(id, [], 'in_progress'), out), content: [] };
    }
    partDelta(this.open, kind, text, this.f, out, this.annotations);
  }

  private annotate(m: OpenMessage | undefined, added: Array<[number, unknown]>, out: StreamFrame[], shift = 0): void {
    if (m) annotationFrames(m, added, this.f, out, shift);
  }

  // ---- reasoning ------------------------------------------------------------------------------

  private openReasoning(out: StreamFrame[]): void {
    this.closeOpen(out);
    const id = this.ctx.newId(ITEM_PREFIX.reasoning);
    this.open = { kind: 'reasoning', id, at: this.added(reasoningItem(id, [], undefined, this.opts), out), summaries: [], text: '' };
  }

  private think(text: string, out: StreamFrame[]): void {
    if (this.open?.kind !== 'reasoning') this.openReasoning(out);
    summaryDelta(this.open as OpenReasoning, text, this.opts.summaries, this.f, out);
  }

  private closeReasoning(r: OpenReasoning, signature: Signature | undefined, out: StreamFrame[]): void {
    closeSummary(r, this.f, out);
    this.open = undefined;
    const carried = signature ? { text: r.text, signature } : undefined;
    this.doneReasoning(r.at, reasoningItem(r.id, r.summaries, carried, this.opts), carried, out);
  }

  // ---- tool calls -----------------------------------------------------------------------------

  private openTool(call: ToolCall, out: StreamFrame[]): void {
    this.closeOpen(out);
    const id = this.ctx.newId(call.custom ? ITEM_PREFIX.custom : ITEM_PREFIX.function);
    this.open = { kind: 'tool', id, at: this.added(toolCallItem(id, call, '', 'in_progress'), out), call, args: '' };
  }

  // ---- closing --------------------------------------------------------------------------------

  /** Close the open item completely (`status` for a message cut by the output limit). */
  private closeOpen(out: StreamFrame[], status: ItemStatus = 'completed'): void {
    const o = this.open;
    if (!o) return;
    switch (o.kind) {
      case 'message':
        closePart(o, this.f, out, this.annotations);
        this.open = undefined;
        this.done(o.at, messageItem(o.id, o.content, status), out);
        if (o.signature && this.opts.encrypted) {
          const id = this.ctx.newId(ITEM_PREFIX.reasoning);
          const at = this.added(reasoningItem(id, [], undefined, this.opts), out);
          this.done(at, reasoningItem(id, [], { text: '', signature: o.signature }, this.opts), out);
        } else if (o.signature) this.keeping.hidden(o.at, { text: '', signature: o.signature });
        break;
      case 'reasoning':
        this.closeReasoning(o, undefined, out);
        break;
      case 'tool':
        this.open = undefined;
        argumentsDone(o, this.f, out);
        this.done(o.at, toolCallItem(o.id, o.call, o.args, 'completed'), out);
        break;
    }
  }
}
