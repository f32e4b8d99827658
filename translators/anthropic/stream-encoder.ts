/**
 * Caller side: canonical stream events → Anthropic SSE frames, as the real service sends them:
 * message_start → (content_block_start → content_block_delta* → content_block_stop)* →
 * message_delta → message_stop. https://docs.claude.com/en/docs/build-with-claude/streaming
 *
 * Held back, because Anthropic needs it earlier than some upstreams give it:
 * - `message_start` waits for the first content event, so the input usage of upstreams that
 *   report it up front (Anthropic, Gemini) is in it; otherwise it carries zeros and the full
 *   cumulative usage follows in `message_delta` (OpenAI sends usage last).
 * - `message_delta` is written by `finish()`, after the upstream's trailing usage.
 * - Only one block is open at a time: tool calls that overlap on the wire are queued and
 *   written one after the other.
 * Text and thinking blocks open on their first non-empty delta, so the caller never receives an
 * empty text block it could not send back.
 */
import {
  type AppliedEdit,
  type Compaction,
  assertNever,
  type ChatRequest,
  type FinishReason,
  type Signature,
  type StreamEvent,
  ToolCallQueue,
  type StreamFrame,
  type StreamStep,
  type Usage,
  type WebSearchPart,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { messageId, wireSignature } from './encode-response.ts';
import { compactionBlock, encodeAppliedEdits } from './context-management.ts';
import { encodeErrorBody } from './errors.ts';
import { encodeStopReason } from './finish-reason.ts';
import { callerToolId } from './tool-id.ts';
import { encodeDeltaUsage, encodeUsage } from './usage.ts';
import { encodeWebSearch, serverToolUse } from './web-search.ts';
import { HeldText } from './citations-stream.ts';
import { encodeCitations } from './citations.ts';
import { DIRECT_CALLER } from './wire.ts';

type OpenBlock = { kind: 'text' } | { kind: 'thinking' } | { kind: 'tool'; index: number };

interface ToolCall {
  index: number;
  id: string;
  name: string;
  signature?: Signature;
}

export class AnthropicStreamEncoder implements StreamStep<StreamEvent, StreamFrame> {
  private started = false;
  private done = false;
  private id: string | undefined;
  private model: string;
  private usage: Usage | undefined;
  private reason: FinishReason | undefined;
  private hasToolCalls = false;
  private nextIndex = 0;
  private open: OpenBlock | null = null;
  private readonly tools = new ToolCallQueue<ToolCall, StreamFrame[]>({
    openCall: () => (this.open?.kind === 'tool' ? this.open.index : undefined),
    openBlock: (t, out) => this.openTool(out, t),
    argumentsDelta: (d, out) => this.emitDelta(out, { type: 'input_json_delta', partial_json: d }),
    closeBlock: (out) => this.closeOpen(out),
  });
  /** Searches waiting for the open tool call to end, and the ones written (for the usage). */
  private searches: WebSearchPart[] = [];
  // Stryker disable next-line ArrayDeclaration: serverToolUse counts only web-search parts, so a stand-in element counts nothing
  private searched: WebSearchPart[] = [];

  /** The text block waiting for its citations (citations-stream.ts). */
  private readonly heldText: HeldText;

  /** What the proxy's context editing cleared, for `message_delta`. */
  private readonly appliedEdits?: AppliedEdit[];
  /** A compaction the proxy made before the turn, shown first. */
  private readonly compacted?: Compaction;

  constructor(
    req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.model = req.model;
    this.appliedEdits = req.appliedEdits;
    this.compacted = req.compacted;
    this.heldText = new HeldText(req.nativeTools?.some((t) => t.web) ?? false);
  }

  push(e: StreamEvent): StreamFrame[] {
    if (this.done) return [];
    if ('choice' in e && e.choice !== undefined && e.choice !== 0) return [];
    const out: StreamFrame[] = [];
    if (this.heldText.releasedBy(e)) this.writeHeld(out);
    switch (e.type) {
      case 'message-start':
        // Stryker disable next-line ConditionalExpression: id and model are read only when message_start is written, once
        if (!this.started) {
          this.id = messageId(e.id, this.ctx);
          if (e.model) this.model = e.model;
        }
        break;
      case 'text-start':
      case 'refusal-start':
        // Opened lazily by the first non-empty delta.
        break;
      case 'reasoning-end':
        this.endThinking(out, e.signature);
        break;
      case 'text-delta':
      case 'refusal-delta':
        if (e.type === 'text-delta' && this.heldText.holds) this.heldText.add(e.text);
        else if (e.text !== '') {
          this.ensureOpen(out, 'text');
          this.emitDelta(out, { type: 'text_delta', text: e.text });
        }
        break;
      case 'text-end':
        this.textEnd(out, e.signature);
        break;
      case 'refusal-end':
        if (this.open?.kind === 'text') this.closeOpen(out);
        break;
      case 'reasoning-start':
        if (e.redacted) this.redactedThinking(out, e.redacted);
        break;
      case 'reasoning-delta':
        if (e.text !== '') {
          this.ensureOpen(out, 'thinking');
          this.emitDelta(out, { type: 'thinking_delta', thinking: e.text });
        }
        break;
      case 'tool-call-start':
        this.hasToolCalls = true;
        this.tools.start({ index: e.index, id: e.id, name: e.name, signature: e.signature }, out);
        break;
      case 'tool-call-delta':
        this.tools.delta(e.index, e.argumentsDelta, out);
        break;
      case 'tool-call-end':
        if (this.tools.end(e.index, out) && this.open === null) this.flushSearches(out);
        break;
      case 'usage':
        this.usage = e.usage;
        break;
      case 'finish':
        this.reason = e.reason;
        this.closeOpen(out);
        this.tools.flush(true, out);
        this.flushSearches(out);
        break;
      case 'prompt-blocked':
        this.reason = { unified: 'refusal', raw: e.reason };
        break;
      case 'logprobs':
        break;
      case 'citation':
        this.cite(out, e.citation);
        break;
      case 'web-search':
        // One block open at a time: after a streaming tool call, the search waits for its end.
        this.searches.push(e.part);
        if (this.open?.kind !== 'tool') this.flushSearches(out);
        break;
      case 'error':
        // The real service ends a failed stream with `event: error` and nothing after it.
        this.done = true;
        out.push(frame('error', encodeErrorBody(e.error)));
        break;
      default:
        assertNever(e, 'stream event');
    }
    return out;
  }

  /** The text block's end; a Gemini signature on it goes in an empty thinking block after it (see encode-response.ts). */
  private textEnd(out: StreamFrame[], signature: Signature | undefined): void {
    if (signature) this.writeHeld(out);
    if (this.open?.kind === 'text') this.closeOpen(out);
    if (!signature) return;
    this.ensureOpen(out, 'thinking');
    this.endThinking(out, signature);
  }

  /** A redacted thinking block, whole: its start and its stop. */
  private redactedThinking(out: StreamFrame[], redacted: Signature): void {
    this.closeOpen(out);
    this.ensureStarted(out);
    const index = this.nextIndex++;
    const data = wireSignature(redacted);
    out.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data } }));
    out.push(frame('content_block_stop', { type: 'content_block_stop', index }));
  }

  /** A citation: kept with held text; not held, only one Claude wrote, of the whole open block, can still be given. */
  private cite(out: StreamFrame[], citation: Extract<StreamEvent, { type: 'citation' }>['citation']): void {
    if (this.heldText.cite(citation)) return;
    const own = this.open?.kind === 'text' ? encodeCitations([citation]) : null;
    for (const c of own ?? []) this.emitDelta(out, { type: 'citations_delta', citation: c });
  }

  finish(): StreamFrame[] {
    if (this.done) return [];
    const out: StreamFrame[] = [];
    this.writeHeld(out);
    this.ensureStarted(out);
    this.closeOpen(out);
    this.tools.flush(true, out);
    this.flushSearches(out);
    this.done = true;
    const { stop_reason, stop_sequence } = encodeStopReason(this.reason, this.hasToolCalls);
    out.push(
      frame('message_delta', {
        type: 'message_delta',
        delta: { stop_reason, stop_sequence, stop_details: null, container: null },
        usage: { ...encodeDeltaUsage(this.usage), server_tool_use: serverToolUse(this.searched) ?? null },
        ...(this.appliedEdits && { context_management: encodeAppliedEdits(this.appliedEdits) }),
      }),
    );
    out.push(frame('message_stop', { type: 'message_stop' }));
    return out;
  }

  private ensureStarted(out: StreamFrame[]): void {
    if (this.started) return;
    this.started = true;
    this.id ??= this.ctx.newId('msg_');
    out.push(
      frame('message_start', {
        type: 'message_start',
        message: {
          id: this.id,
          type: 'message',
          role: 'assistant',
          model: this.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          stop_details: null,
          container: null,
          diagnostics: null,
          usage: encodeUsage(this.usage),
        },
      }),
    );
    // A compaction the proxy made before the turn: the first block, its summary in one delta.
    if (this.compacted) {
      const index = this.nextIndex++;
      const { content, encrypted_content } = compactionBlock(this.compacted);
      out.push(frame('content_block_start', { type: 'content_block_start', index, content_block: { type: 'compaction', content: null, encrypted_content: null } }));
      out.push(frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'compaction_delta', content, encrypted_content } }));
      out.push(frame('content_block_stop', { type: 'content_block_stop', index }));
    }
  }

  private ensureOpen(out: StreamFrame[], kind: 'text' | 'thinking'): void {
    if (this.open?.kind === kind) return;
    this.closeOpen(out);
    this.ensureStarted(out);
    const content_block =
      kind === 'text' ? { type: 'text', text: '', citations: null } : { type: 'thinking', thinking: '', signature: '' };
    out.push(frame('content_block_start', { type: 'content_block_start', index: this.nextIndex, content_block }));
    this.open = { kind };
  }

  /** The held text block, one block per cited stretch: its citations first, then its text. */
  private writeHeld(out: StreamFrame[]): void {
    for (const block of this.heldText.take()) {
      this.closeOpen(out);
      this.ensureStarted(out);
      out.push(frame('content_block_start', { type: 'content_block_start', index: this.nextIndex, content_block: { type: 'text', text: '', citations: block.citations ? [] : null } }));
      // Stryker disable next-line ObjectLiteral,StringLiteral: only closeOpen reads it, right after, and only whether a block is open
      this.open = { kind: 'text' };
      for (const citation of block.citations ?? []) this.emitDelta(out, { type: 'citations_delta', citation });
      this.emitDelta(out, { type: 'text_delta', text: block.text });
      this.closeOpen(out);
    }
  }

  private endThinking(out: StreamFrame[], signature: Signature | undefined): void {
    if (signature) {
      this.ensureOpen(out, 'thinking');
      this.emitDelta(out, { type: 'signature_delta', signature: wireSignature(signature) });
    }
    if (this.open?.kind === 'thinking') this.closeOpen(out);
  }

  private emitDelta(out: StreamFrame[], delta: Record<string, unknown>): void {
    out.push(frame('content_block_delta', { type: 'content_block_delta', index: this.nextIndex, delta }));
  }

  private closeOpen(out: StreamFrame[]): void {
    if (!this.open) return;
    out.push(frame('content_block_stop', { type: 'content_block_stop', index: this.nextIndex }));
    this.nextIndex++;
    this.open = null;
  }

  /** A web search's blocks as the service streams them: the tool use with its input as one delta, then the result whole. */
  private flushSearches(out: StreamFrame[]): void {
    if (this.searches.length === 0) return;
    this.closeOpen(out);
    this.ensureStarted(out);
    for (const part of this.searches.splice(0)) {
      this.searched.push(part);
      for (const block of encodeWebSearch(part)) {
        const index = this.nextIndex++;
        const { input, ...head } = block as Record<string, unknown>;
        const start = block.type === 'server_tool_use' ? { ...head, input: {} } : block;
        out.push(frame('content_block_start', { type: 'content_block_start', index, content_block: start }));
        if (block.type === 'server_tool_use') {
          out.push(frame('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input ?? {}) } }));
        }
        out.push(frame('content_block_stop', { type: 'content_block_stop', index }));
      }
    }
  }

  private openTool(out: StreamFrame[], t: ToolCall): void {
    this.closeOpen(out);
    this.ensureStarted(out);
    out.push(
      frame('content_block_start', {
        type: 'content_block_start',
        index: this.nextIndex,
        content_block: { type: 'tool_use', id: callerToolId(t.id, t.signature), name: t.name, input: {}, caller: DIRECT_CALLER },
      }),
    );
    this.open = { kind: 'tool', index: t.index };
  }
}

function frame(event: string, data: unknown): StreamFrame {
  return { event, data: JSON.stringify(data) };
}

export function createStreamEncoder(req: ChatRequest, ctx: TranslateContext): AnthropicStreamEncoder {
  return new AnthropicStreamEncoder(req, ctx);
}
