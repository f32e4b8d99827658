/**
 * Caller side: canonical stream events → `chat.completion.chunk` frames exactly as OpenAI sends
 * them, then `data: [DONE]`.
 *
 * - First chunk per choice carries `delta.role`: `{role, content:"", refusal:null}` for text,
 *   `{role, content:null, refusal:""}` for a refusal, and the first tool call merged into the
 *   role chunk (`content:null`) for tool streams.
 * - Tool calls: id/type/name and `arguments:""` on the first fragment, then `arguments` only.
 * - Finish chunk per choice: `delta:{}` + `finish_reason`.
 * - With `stream_options.include_usage` every chunk has `usage:null` and a final chunk with
 *   `choices:[]` carries the usage; without it no chunk has a `usage` key.
 * - Reasoning text goes in `delta.reasoning_content`; a signed block ends with one
 *   `delta.reasoning_details` entry holding the whole text and the carrier-wrapped signature.
 * - When the caller asked for logprobs, each content/refusal delta is held until the next event
 *   so the `logprobs` event that follows it lands in the same chunk, as on the real wire.
 */
import {
  assertNever,
  encodeSignature,
  encodeToolCallId,
  type ChatRequest,
  type FinishReason,
  type StreamEvent,
  type StreamFrame,
  type StreamStep,
  type Usage,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { completionId } from './encode-response.ts';
import { encodeError } from './errors.ts';
import { encodeFinishReason } from './finish-reason.ts';
import { usesLegacyFunctions } from './legacy.ts';
import { encodeLogprobs } from './logprobs.ts';
import { encodeUsage } from './usage.ts';
import { ChatStreamAnnotations } from './citations-stream.ts';

type Delta = Record<string, unknown>;

interface ChunkChoice {
  index: number;
  delta: Delta;
  logprobs: unknown;
  finish_reason: string | null;
}

interface ChoiceState {
  started: boolean;
  finished: boolean;
  reasoningText: string;
  sawToolCall: boolean;
}

type RoleKind = 'text' | 'refusal' | 'tool';

export class OpenAIChatStreamEncoder implements StreamStep<StreamEvent, StreamFrame> {
  private head?: { id: string; created: number; model: string };
  private readonly includeUsage: boolean;
  private readonly legacy: boolean;
  private readonly wantsLogprobs: boolean;
  private readonly choices = new Map<number, ChoiceState>();
  private held?: ChunkChoice;
  private usage?: Usage;
  private closed = false;

  constructor(
    private readonly req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.includeUsage = req.streamUsage === true;
    this.legacy = usesLegacyFunctions(req);
    this.wantsLogprobs = req.logprobs === true;
  }

  /** Choices that have said text, and those whose next text comes after a search. */
  private readonly spoke = new Set<number>();
  /** The open text blocks' citations, as `delta.annotations` (citations-stream.ts). */
  private readonly annotations = new ChatStreamAnnotations();
  private readonly apart = new Set<number>();

  push(e: StreamEvent): StreamFrame[] {
    if (this.closed) return [];
    const out: StreamFrame[] = [];
    if (this.held && this.releaseHeld(e, out)) return out;
    const idx = 'choice' in e ? (e.choice ?? 0) : 0;
    switch (e.type) {
      case 'message-start':
        this.head ??= { id: completionId(e.id, this.ctx), created: e.created, model: e.model };
        break;
      case 'text-start':
        this.role(idx, 'text', out);
        this.annotations.start(idx);
        break;
      case 'text-delta':
        if (e.text) this.textDelta(idx, e.text, out);
        break;
      case 'citation':
        this.annotate(idx, this.annotations.cite(idx, e.citation), out);
        break;
      case 'text-end':
        this.annotate(idx, this.annotations.end(idx), out);
        // A Gemini signature on the answer text (see reasoning.ts textSignature).
        if (e.signature) this.delta(idx, { reasoning_details: [{ type: 'reasoning.text', text: '', signature: encodeSignature(e.signature) }] }, out);
        break;
      case 'refusal-start':
        this.role(idx, 'refusal', out);
        break;
      case 'refusal-delta':
        if (e.text) this.delta(idx, { refusal: e.text }, out, true);
        break;
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        this.reasoning(idx, e, out);
        break;
      case 'tool-call-start':
        this.toolCallStart(idx, e, out);
        break;
      case 'tool-call-delta':
        if (e.argumentsDelta) this.toolCallDelta(idx, e.index, e.argumentsDelta, out);
        break;
      case 'web-search':
        this.apart.add(idx); // Chat shows a search only by its text's annotations
        break;
      case 'logprobs':
        if (this.wantsLogprobs) out.push(this.chunk([{ index: idx, delta: {}, logprobs: encodeLogprobs(e.logprobs), finish_reason: null }]));
        break;
      case 'usage':
        this.usage = e.usage;
        break;
      case 'finish':
        this.finishChoice(idx, e.reason, out);
        break;
      case 'prompt-blocked':
        this.finishChoice(0, { unified: 'content-filter', raw: e.reason }, out);
        break;
      case 'error':
        out.push({ data: JSON.stringify(encodeError(e.error).body) });
        out.push({ data: '[DONE]' });
        this.closed = true;
        break;
      case 'refusal-end':
      case 'tool-call-end':
        break;
      default:
        assertNever(e, 'stream event');
    }
    return out;
  }

  /**
   * The held content chunk out (`out`), with the logprobs of its delta when `e` is they: true
   * when `e` was that, nothing more to do with it.
   */
  private releaseHeld(e: StreamEvent, out: StreamFrame[]): boolean {
    const held = this.held!;
    this.held = undefined;
    const own = e.type === 'logprobs' && (e.choice ?? 0) === held.index;
    if (own) held.logprobs = encodeLogprobs(e.logprobs);
    out.push(this.chunk([held]));
    return own;
  }

  /**
   * Reasoning text as `reasoning_content`; a redacted block at its start, or a signed one at its end
   * (with the whole text), as one `reasoning_details` entry.
   */
  private reasoning(idx: number, e: Extract<StreamEvent, { type: 'reasoning-start' | 'reasoning-delta' | 'reasoning-end' }>, out: StreamFrame[]): void {
    if (e.type === 'reasoning-start') {
      this.role(idx, 'text', out);
      this.state(idx).reasoningText = '';
      if (e.redacted) this.delta(idx, { reasoning_details: [{ type: 'reasoning.encrypted', data: encodeSignature(e.redacted) }] }, out);
    } else if (e.type === 'reasoning-delta') {
      if (!e.text) return;
      this.state(idx).reasoningText += e.text;
      this.delta(idx, { reasoning_content: e.text }, out);
    } else if (e.signature) {
      const text = this.state(idx).reasoningText;
      this.delta(idx, { reasoning_details: [{ type: 'reasoning.text', text, signature: encodeSignature(e.signature) }] }, out);
    }
  }

  private textDelta(idx: number, text: string, out: StreamFrame[]): void {
    // The text before a search and the text after it are two paragraphs (encode-response.ts).
    const content = this.apart.delete(idx) && this.spoke.has(idx) ? `\n\n${text}` : text;
    this.delta(idx, { content }, out, true);
    this.annotations.text(idx, content, content.length - text.length);
    this.spoke.add(idx);
  }

  /** A tool call's first fragment: id, type, name and empty arguments, in the role chunk when it is the choice's first (a legacy `function_call`: the first call only). */
  private toolCallStart(idx: number, e: Extract<StreamEvent, { type: 'tool-call-start' }>, out: StreamFrame[]): void {
    this.state(idx).sawToolCall = true;
    if (this.legacy) {
      if (e.index === 0) this.role(idx, 'tool', out, { function_call: { name: e.name, arguments: '' } });
      return;
    }
    const call = { index: e.index, id: encodeToolCallId(e.id, e.signature), type: 'function', function: { name: e.name, arguments: '' } };
    // Stryker disable next-line StringLiteral: role() tells only text and refusal apart; any other kind is a tool call's
    this.role(idx, 'tool', out, { tool_calls: [call] });
  }

  private toolCallDelta(idx: number, index: number, args: string, out: StreamFrame[]): void {
    if (!this.legacy) this.delta(idx, { tool_calls: [{ index, function: { arguments: args } }] }, out);
    else if (index === 0) this.delta(idx, { function_call: { arguments: args } }, out);
  }

  finish(): StreamFrame[] {
    if (this.closed) return [];
    const out: StreamFrame[] = [];
    if (this.held) {
      out.push(this.chunk([this.held]));
      this.held = undefined;
    }
    if (this.choices.size === 0) this.finishChoice(0, { unified: 'stop' }, out);
    for (const [idx, st] of this.choices) this.finishChoice(idx, { unified: st.sawToolCall ? 'tool-calls' : 'stop' }, out);
    if (this.includeUsage && this.usage) {
      out.push({ data: JSON.stringify({ ...this.base(), choices: [], usage: encodeUsage(this.usage) }) });
    }
    out.push({ data: '[DONE]' });
    this.closed = true;
    return out;
  }

  private base(): Record<string, unknown> {
    this.head ??= {
      id: this.ctx.newId('chatcmpl-'),
      created: Math.floor(this.ctx.now() / 1000),
      model: this.req.model,
    };
    return { id: this.head.id, object: 'chat.completion.chunk', created: this.head.created, model: this.head.model };
  }

  /** `{"id":…,"object":"chat.completion.chunk","created":…,"model":…`: the same in every chunk. */
  private prefix?: string;

  private chunk(choices: ChunkChoice[]): StreamFrame {
    // The fixed head is serialised once per stream, not once per token.
    this.prefix ??= JSON.stringify(this.base()).slice(0, -1);
    return { data: `${this.prefix},"choices":${JSON.stringify(choices)}${this.includeUsage ? ',"usage":null' : ''}}` };
  }

  private state(idx: number): ChoiceState {
    let st = this.choices.get(idx);
    if (!st) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: false/'' read the same as absent, and every reasoning block's reasoning-start resets its text
      st = { started: false, finished: false, reasoningText: '', sawToolCall: false };
      this.choices.set(idx, st);
    }
    return st;
  }

  /** The role chunk, once per choice; `extra` (a first tool call) rides in it, or goes alone once the role was sent. */
  private role(idx: number, kind: RoleKind, out: StreamFrame[], extra: Delta = {}): void {
    const st = this.state(idx);
    if (st.started) {
      if (Object.keys(extra).length > 0) this.delta(idx, extra, out);
      return;
    }
    st.started = true;
    const delta: Delta =
      kind === 'text'
        ? { role: 'assistant', content: '', refusal: null }
        : kind === 'refusal'
          ? { role: 'assistant', content: null, refusal: '' }
          : { role: 'assistant', content: null, ...extra, refusal: null };
    const logprobs = !this.wantsLogprobs
      ? null
      : kind === 'refusal'
        ? { content: null, refusal: [] }
        : { content: [], refusal: null };
    out.push(this.chunk([{ index: idx, delta, logprobs, finish_reason: null }]));
  }

  private delta(idx: number, delta: Delta, out: StreamFrame[], holdable = false): void {
    this.role(idx, 'text', out);
    const choice: ChunkChoice = { index: idx, delta, logprobs: null, finish_reason: null };
    if (holdable && this.wantsLogprobs) this.held = choice;
    else out.push(this.chunk([choice]));
  }

  private annotate(idx: number, annotations: unknown[], out: StreamFrame[]): void {
    if (annotations.length > 0) this.delta(idx, { annotations }, out);
  }

  private finishChoice(idx: number, reason: FinishReason, out: StreamFrame[]): void {
    const st = this.state(idx);
    if (st.finished) return;
    this.role(idx, 'text', out);
    st.finished = true;
    out.push(
      this.chunk([{ index: idx, delta: {}, logprobs: null, finish_reason: encodeFinishReason(reason, this.legacy) }]),
    );
  }
}
