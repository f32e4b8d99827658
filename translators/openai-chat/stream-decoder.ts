/**
 * Upstream side: Chat Completions SSE chunks → canonical stream events with full framing.
 *
 * Handles: a role-only first chunk or a tool call in the role chunk; tool-call deltas keyed by
 * `index` with id/name only on the first fragment; parallel calls; `n>1` choices interleaved by
 * `choices[].index`; refusal and reasoning (`reasoning_content` / `reasoning` /
 * `reasoning_details`) deltas; `delta.annotations` (the url citations of search models and
 * OpenRouter, as `citation` events); logprobs; the `choices:[]` usage chunk and `usage:null`;
 * `obfuscation`; Azure's first chunk with empty id/model and no choices; Groq's usage in
 * `x_groq.usage`; a tool call whose `name` comes after its first arguments fragment (some
 * compatible servers: the call starts once its name is known, or nameless when it ends without
 * one); an in-stream `data: {"error":…}` or vLLM's `data: {"object":"error",…}` (an `error`
 * event); `[DONE]`.
 *
 * A frame that is not a chunk (neither a `choices` list nor `usage`) is an `error` event. A
 * stream that ends with neither `[DONE]` nor a `finish_reason` on every choice is incomplete:
 * `finish()` reports it as an `error` event, so the caller never sees a clean end.
 */
import { decodeLogprobs } from './logprobs.ts';
import * as v from 'valibot';
import {
  incompleteStream,
  ProxyError,
  type ChatRequest,
  type Signature,
  type SseEvent,
  type StreamEvent,
  type StreamStep,
} from '../../src/canonical/index.ts';
import {
  safeParseAsIs,
} from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import { streamErrorOf } from './errors.ts';
import { decodeFinishReason } from './finish-reason.ts';
import { splitContent } from './media.ts';
import { decodeReasoning } from './reasoning.ts';
import { toolCallIdentity } from './tool-call-id.ts';
import { decodeUsage } from './usage.ts';
import { OpenAIChatChunkSchema, type OpenAIChatChunk } from './wire.ts';
import { ChatStreamCitations } from './citations-stream.ts';

type BlockKind = 'text' | 'refusal' | 'reasoning';
type WireChoice = NonNullable<OpenAIChatChunk['choices']>[number];

/** Wire index of the deprecated streamed `function_call` (it has none). */
const FUNCTION_CALL_INDEX = -1;

/** A tool call whose name has not come yet: its fragments wait for it. */
interface PendingCall {
  wire: number;
  /** Its identity, once a fragment carried an id. */
  identity?: { id: string; signature?: Signature };
  args: string;
}

interface ChoiceState {
  open?: BlockKind;
  pending?: PendingCall;
  reasoningSignature?: Signature;
  /** Wire tool-call index → canonical index. */
  tools: Map<number, number>;
  /** Wire index of the call still open. */
  openTool?: number;
  sawText: boolean;
  sawRefusal: boolean;
  finished: boolean;
}

export class OpenAIChatStreamDecoder implements StreamStep<SseEvent, StreamEvent> {
  private started = false;
  private failed = false;
  private done = false;
  private readonly choices = new Map<number, ChoiceState>();
  /** What each choice's message said, for its `delta.annotations` (citations-stream.ts). */
  private readonly said = new ChatStreamCitations();
  /** The request offered a hosted web tool: the pages a choice cites are its search's (citations.ts). */
  private readonly searching: boolean;

  constructor(
    private readonly req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.searching = req.nativeTools?.some((t) => t.web) ?? false;
  }

  push(event: SseEvent): StreamEvent[] {
    if (this.failed) return [];
    const data = event.data.trim();
    if (data === '[DONE]') {
      this.done = true;
      return [];
    }
    if (data === '') return [];
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return this.fail(new ProxyError('upstream', 'The upstream sent an unparsable stream frame.', { raw: data }));
    }
    const streamError = streamErrorOf(json, data);
    if (streamError) return this.fail(streamError, true);
    // Valid as it is (nearly always): no copy.
    const parsed = safeParseAsIs(v.safeParse, OpenAIChatChunkSchema, json);
    // A chunk has a `choices` list (empty in Azure's first and the usage chunk) or `usage`.
    if (!parsed.success || Array.isArray(json) || (!Array.isArray(parsed.output.choices) && !parsed.output.usage)) {
      return this.fail(new ProxyError('upstream', 'The upstream sent a malformed stream chunk.', { raw: data }));
    }
    const chunk = parsed.output;
    const out: StreamEvent[] = [];
    // Stryker disable next-line ArrayDeclaration: a chunk without choices has usage; a string as a choice has no delta or finish, so it says nothing
    const choices = chunk.choices ?? [];
    if (!this.started && (chunk.id || choices.length > 0 || chunk.usage)) this.start(chunk, out);
    for (const ch of choices) this.choice(ch, out);
    const usage = chunk.usage ?? chunk.x_groq?.usage;
    if (usage) out.push({ type: 'usage', usage: decodeUsage(usage) });
    return out;
  }

  finish(): StreamEvent[] {
    if (this.failed) return [];
    const out: StreamEvent[] = [];
    for (const [idx, st] of this.choices) this.closeAll(idx, st, out);
    if (!this.done && !this.allFinished()) {
      this.failed = true;
      out.push({ type: 'error', error: incompleteStream('no finish_reason and no [DONE]') });
    }
    return out;
  }

  private allFinished(): boolean {
    if (this.choices.size === 0) return false;
    for (const st of this.choices.values()) if (!st.finished) return false;
    return true;
  }

  /** `upstreamFrame`: the upstream's own error chunk. */
  private fail(error: ProxyError, upstreamFrame = false): StreamEvent[] {
    this.failed = true;
    return [upstreamFrame ? { type: 'error', error, upstreamFrame } : { type: 'error', error }];
  }

  private start(chunk: OpenAIChatChunk, out: StreamEvent[]): void {
    this.started = true;
    out.push({
      type: 'message-start',
      id: chunk.id || this.ctx.newId('chatcmpl-'),
      model: chunk.model || this.req.model,
      created: chunk.created || Math.floor(this.ctx.now() / 1000),
    });
  }

  private state(idx: number): ChoiceState {
    let st = this.choices.get(idx);
    if (!st) {
      st = { tools: new Map(), sawText: false, sawRefusal: false, finished: false };
      this.choices.set(idx, st);
    }
    return st;
  }

  private closeBlock(choice: number, st: ChoiceState, out: StreamEvent[]): void {
    switch (st.open) {
      case 'text':
        out.push({ type: 'text-end', choice });
        break;
      case 'refusal':
        out.push({ type: 'refusal-end', choice });
        break;
      case 'reasoning':
        out.push({
          type: 'reasoning-end',
          choice,
          ...(st.reasoningSignature ? { signature: st.reasoningSignature } : {}),
        });
        st.reasoningSignature = undefined;
        break;
    }
    st.open = undefined;
  }

  private closeTool(choice: number, st: ChoiceState, out: StreamEvent[]): void {
    if (st.openTool === undefined) return;
    out.push({ type: 'tool-call-end', choice, index: st.tools.get(st.openTool)! });
    st.openTool = undefined;
  }

  private closeAll(choice: number, st: ChoiceState, out: StreamEvent[]): void {
    this.flushPending(choice, st, out);
    this.closeBlock(choice, st, out);
    this.closeTool(choice, st, out);
  }

  /** A call that never got its name still reaches the caller (nameless), with its arguments. */
  private flushPending(choice: number, st: ChoiceState, out: StreamEvent[]): void {
    const p = st.pending;
    if (!p) return;
    st.pending = undefined;
    this.startTool(choice, st, p.wire, p.identity ?? { id: this.ctx.newId('call_') }, '', p.args, out);
    this.closeTool(choice, st, out);
  }

  private startTool(
    choice: number,
    st: ChoiceState,
    wireIndex: number,
    { id, signature }: { id: string; signature?: Signature },
    name: string,
    args: string,
    out: StreamEvent[],
  ): void {
    const index = st.tools.size;
    st.tools.set(wireIndex, index);
    st.openTool = wireIndex;
    out.push({ type: 'tool-call-start', choice, index, id, name, ...(signature ? { signature } : {}) });
    if (args) out.push({ type: 'tool-call-delta', choice, index, argumentsDelta: args });
  }

  private open(kind: BlockKind, choice: number, st: ChoiceState, out: StreamEvent[]): void {
    if (st.open === kind) return;
    this.closeAll(choice, st, out);
    if (kind === 'text') this.said.open(choice);
    out.push({ type: `${kind}-start`, choice } as StreamEvent);
    st.open = kind;
  }

  private reasoning(choice: number, st: ChoiceState, text: string | undefined, details: NonNullable<WireChoice['delta']>['reasoning_details'], out: StreamEvent[]): void {
    if (text) {
      this.open('reasoning', choice, st, out);
      out.push({ type: 'reasoning-delta', choice, text });
    }
    // Most chunks carry no reasoning details: no decoding pass for them.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: decodeReasoning of null/undefined is [] anyway; this only skips the call
    if (details === undefined || details === null) return;
    for (const part of decodeReasoning(details, undefined)) {
      if (part.redacted) {
        this.closeAll(choice, st, out);
        out.push({ type: 'reasoning-start', choice, redacted: part.redacted });
        out.push({ type: 'reasoning-end', choice });
        continue;
      }
      // A signed detail closing an open block is its end marker: its text was already streamed.
      const endMarker = part.signature !== undefined && st.open === 'reasoning';
      if (!text && !endMarker && part.text) {
        this.open('reasoning', choice, st, out);
        out.push({ type: 'reasoning-delta', choice, text: part.text });
      }
      if (part.signature) {
        this.open('reasoning', choice, st, out);
        st.reasoningSignature = part.signature;
      }
    }
  }

  /**
   * One fragment of a streamed call. `identity` is undefined when the fragment carries no id.
   * The call starts once its name is known: fragments before it wait (a canonical call starts
   * with its name, and a caller such as Anthropic's gets no second chance to learn it).
   */
  private toolCall(
    choice: number,
    st: ChoiceState,
    wireIndex: number,
    identity: (() => { id: string; signature?: Signature }) | undefined,
    name: string | null | undefined,
    args: string | null | undefined,
    out: StreamEvent[],
  ): void {
    const index = st.tools.get(wireIndex);
    if (index !== undefined) {
      // A late fragment of a call already ended is dropped: OpenAI never interleaves calls.
      if (st.openTool === wireIndex && args) out.push({ type: 'tool-call-delta', choice, index, argumentsDelta: args });
      return;
    }
    let pending = st.pending?.wire === wireIndex ? st.pending : undefined;
    if (!pending) {
      this.closeAll(choice, st, out);
      pending = { wire: wireIndex, args: '' };
    }
    pending.identity ??= identity?.();
    pending.args += args ?? '';
    if (!name) {
      st.pending = pending;
      return;
    }
    st.pending = undefined;
    this.startTool(choice, st, wireIndex, pending.identity ?? { id: this.ctx.newId('call_') }, name, pending.args, out);
  }

  private choice(ch: WireChoice, out: StreamEvent[]): void {
    const idx = ch.index ?? 0;
    const st = this.state(idx);
    if (st.finished) return; // some servers repeat the finish chunk (e.g. with the usage)
    const delta = ch.delta ?? {};
    const content = splitContent(delta.content);
    this.reasoning(idx, st, delta.reasoning_content ?? delta.reasoning ?? content.reasoning, delta.reasoning_details, out);
    if (content.text) {
      this.open('text', idx, st, out);
      st.sawText = true;
      out.push({ type: 'text-delta', choice: idx, text: content.text });
      this.said.text(idx, content.text);
    }
    if (delta.annotations?.length && st.open === 'text') {
      for (const citation of this.said.cite(idx, delta.annotations)) out.push({ type: 'citation', choice: idx, citation });
    }
    if (delta.refusal) {
      this.open('refusal', idx, st, out);
      st.sawRefusal = true;
      out.push({ type: 'refusal-delta', choice: idx, text: delta.refusal });
    }
    (delta.tool_calls ?? []).forEach((tc, k) => {
      this.toolCall(idx, st, tc.index ?? k, tc.id ? () => toolCallIdentity(tc, this.ctx) : undefined, tc.function?.name, tc.function?.arguments, out);
    });
    const fc = delta.function_call;
    if (fc && (fc.name || st.tools.has(FUNCTION_CALL_INDEX))) {
      this.toolCall(idx, st, FUNCTION_CALL_INDEX, undefined, fc.name, fc.arguments, out);
    }
    const logprobs = ch.logprobs ? decodeLogprobs(ch.logprobs) : undefined;
    if (logprobs) out.push({ type: 'logprobs', choice: idx, logprobs });
    if (ch.finish_reason) {
      this.closeAll(idx, st, out);
      const search = this.searching ? this.said.search(idx, this.ctx.newId('ws_')) : undefined;
      if (search) out.push({ type: 'web-search', choice: idx, part: search });
      st.finished = true;
      out.push({
        type: 'finish',
        choice: idx,
        reason: decodeFinishReason(ch.finish_reason, st.sawRefusal && !st.sawText),
      });
    }
  }
}
