/**
 * Upstream side: Gemini `streamGenerateContent?alt=sse` chunks → canonical stream events.
 *
 * Every chunk is a whole GenerateContentResponse (no `[DONE]`; the stream ends at EOF), with
 * cumulative `usageMetadata` and `finishReason` on the last chunk. We emit:
 * - text / thought parts as text / reasoning blocks (a switch between them closes the open block);
 * - a signature-only empty-text part closes the open block with that signature (or stands alone
 *   as an empty reasoning block), matching the non-stream shape where the signature sits on the
 *   text part itself;
 * - whole `functionCall` parts as tool-call-start + one arguments delta + tool-call-end, with a
 *   fresh index per call and the same ids `decodeResponse` synthesises;
 * - Vertex streamed arguments (`willContinue` + `partialArgs[{jsonPath, …Value, willContinue}]`,
 *   closed by an empty `functionCall: {}`) assembled into one arguments delta;
 * - one `usage` event (before the finish events, and again at the end only if it changed);
 * - `prompt-blocked` for a prompt block, `error` for an `{"error":…}` chunk, broken JSON or a
 *   chunk that is not a GenerateContentResponse (no `candidates` list, `promptFeedback` or
 *   `usageMetadata`), and `error` instead of `finish` for a model failure
 *   (MALFORMED_FUNCTION_CALL, see finish-reason.ts). Nothing is decoded after an `error`.
 * - A stream that ends before every candidate had its `finishReason` (and without a
 *   `promptFeedback.blockReason`) is incomplete: `finish()` reports an `error`.
 */
import { incompleteStream, ProxyError, type ChatRequest, type SseEvent, type StreamEvent, type StreamStep, type Usage, type Signature, type WebSearchPart } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { proxyErrorOf, parseGeminiError } from './errors.ts';
import { codeFence, outputFence } from './decode-contents.ts';
import { decodeFinishReason } from './finish-reason.ts';
import { decodeLogprobs } from './logprobs.ts';
import { syntheticCallId } from './ids.ts';
import { isRecord, type Json } from './json.ts';
import { applyPartials, type StreamingCall } from './partial-args.ts';
import { decodeUsage, hasUsage } from './usage.ts';
import type { GeminiCandidate, GeminiPart, GeminiUsageMetadata } from './wire.ts';
import { citationsIn, decodeGrounding, groundedStretches } from './grounding.ts';
import { utf8Length } from '../../src/kit/index.ts';

interface ChoiceState {
  open: 'text' | 'reasoning' | undefined;
  /** The open block's last text delta, and whether it was a fenced code-execution block. */
  last: { text: string; fenced: boolean } | undefined;
  calls: number;
  streaming: StreamingCall | undefined;
  finished: boolean;
  /** The last candidate that carried grounding (Gemini sends it with the last chunks). */
  grounding?: Record<string, unknown>;
  /** The bytes of answer text said before the latest text block, and that block's text (for the supports' segments). */
  said: number;
  block: string;
}

function unexpected(raw: string): ProxyError {
  return new ProxyError('upstream', 'Gemini sent a stream chunk that is not a GenerateContentResponse', { raw });
}

/** A chunk a GenerateContentResponse can be: a candidates list of objects, feedback or usage. */
function isResponseChunk(chunk: Json): boolean {
  const candidates = chunk.candidates;
  if (candidates !== undefined) return Array.isArray(candidates) && candidates.every(isRecord);
  return isRecord(chunk.promptFeedback) || isRecord(chunk.usageMetadata);
}

export class GeminiStreamDecoder implements StreamStep<SseEvent, StreamEvent> {
  private started = false;
  private readonly choices = new Map<number, ChoiceState>();
  private usage: Usage | undefined;
  private usageSent: string | undefined;
  private blocked = false;
  private failed = false;
  private readonly turn: number;

  constructor(
    private readonly req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.turn = req.messages.length;
  }

  push(input: SseEvent): StreamEvent[] {
    if (this.failed) return [];
    const data = input.data.trim();
    if (data === '' || data === '[DONE]') return [];
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return this.fail(new ProxyError('upstream', 'Gemini sent a stream chunk that is not JSON', { raw: input.data }));
    }
    const chunks = Array.isArray(json) ? json : [json];
    if (chunks.length === 0) return this.fail(unexpected(input.data));
    const out: StreamEvent[] = [];
    for (const chunk of chunks) {
      this.chunk(chunk, input.data, out);
      if (this.failed) break;
    }
    return out;
  }

  finish(): StreamEvent[] {
    if (this.failed) return [];
    const out: StreamEvent[] = [];
    for (const [index, state] of this.choices) this.closeAll(index, state, out);
    this.emitUsage(out);
    if (!this.blocked && !this.allFinished()) {
      this.failed = true;
      out.push({ type: 'error', error: incompleteStream('no finishReason') });
    }
    return out;
  }

  private allFinished(): boolean {
    if (this.choices.size === 0) return false;
    for (const state of this.choices.values()) if (!state.finished) return false;
    return true;
  }

  /** `upstreamFrame`: the upstream said so in a well-formed chunk (an error object, a failing finish). */
  private fail(error: ProxyError, out: StreamEvent[] = [], upstreamFrame = false): StreamEvent[] {
    this.failed = true;
    out.push(upstreamFrame ? { type: 'error', error, upstreamFrame } : { type: 'error', error });
    return out;
  }

  private state(index: number): ChoiceState {
    let s = this.choices.get(index);
    if (!s) {
      s = { open: undefined, last: undefined, calls: 0, streaming: undefined, finished: false, said: 0, block: '' };
      this.choices.set(index, s);
    }
    return s;
  }

  private chunk(chunk: unknown, raw: string, out: StreamEvent[]): void {
    if (!isRecord(chunk)) {
      this.fail(unexpected(raw), out);
      return;
    }
    if (chunk.error !== undefined) {
      const err = parseGeminiError(chunk);
      const status = err?.code ?? 500;
      this.fail(err ? proxyErrorOf(err, status, raw) : new ProxyError('upstream', 'Gemini stream error', { raw }), out, true);
      return;
    }
    if (!isResponseChunk(chunk)) {
      this.fail(unexpected(raw), out);
      return;
    }
    if (!this.started) {
      this.started = true;
      out.push({
        type: 'message-start',
        id: typeof chunk.responseId === 'string' ? chunk.responseId : this.ctx.newId('gemini-'),
        model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : this.req.model,
        created: Math.floor(this.ctx.now() / 1000),
      });
    }
    const usage = chunk.usageMetadata as GeminiUsageMetadata | undefined;
    if (isRecord(usage) && hasUsage(usage)) this.usage = decodeUsage(usage);

    const candidates = Array.isArray(chunk.candidates) ? (chunk.candidates as GeminiCandidate[]) : [];
    const feedback = chunk.promptFeedback;
    if (candidates.length === 0 && isRecord(feedback) && typeof feedback.blockReason === 'string' && !this.blocked) {
      this.blocked = true;
      this.emitUsage(out);
      out.push({ type: 'prompt-blocked', reason: feedback.blockReason });
      return;
    }

    const finishing: Array<{ index: number; raw: string; message?: string }> = [];
    candidates.forEach((c, position) => {
      const index = typeof c.index === 'number' ? c.index : position;
      const state = this.state(index);
      // Stryker disable next-line ArrayDeclaration: an element there is no object, and parts that are no object are skipped
      const parts = isRecord(c.content) && Array.isArray(c.content.parts) ? (c.content.parts as GeminiPart[]) : [];
      for (const part of parts) if (isRecord(part)) this.part(index, state, part, out);
      const logprobs = decodeLogprobs(c.logprobsResult);
      if (logprobs && logprobs.content.length > 0) out.push({ type: 'logprobs', ...(index ? { choice: index } : {}), logprobs });
      if (isRecord(c.groundingMetadata) || isRecord(c.urlContextMetadata)) state.grounding = c as Record<string, unknown>;
      if (typeof c.finishReason === 'string') {
        finishing.push({ index, raw: c.finishReason, ...(typeof c.finishMessage === 'string' ? { message: c.finishMessage } : {}) });
      }
    });
    if (finishing.length === 0) return;
    for (const f of finishing) this.cite(f.index, this.state(f.index), out);
    for (const f of finishing) this.closeAll(f.index, this.state(f.index), out);
    for (const f of finishing) this.ground(f.index, this.state(f.index), out);
    this.emitUsage(out);
    for (const f of finishing) {
      const state = this.state(f.index);
      if (state.finished) continue;
      state.finished = true;
      const reason = decodeFinishReason(f.raw, state.calls > 0);
      if (reason.unified === 'error') {
        // MALFORMED_FUNCTION_CALL and kin: the model failed, so the stream fails (never a clean stop).
        const detail = f.message ?? 'the model produced an invalid response.';
        this.fail(new ProxyError('upstream', `Upstream stopped with ${f.raw}: ${detail}`, { code: f.raw }), out, true);
        return;
      }
      out.push({ type: 'finish', ...(f.index ? { choice: f.index } : {}), reason });
    }
  }

  /** The supports of a finishing candidate that fall in its latest text block, as its citations (before it ends). */
  private cite(index: number, state: ChoiceState, out: StreamEvent[]): void {
    const meta = state.grounding?.groundingMetadata;
    if (!isRecord(meta) || state.open === 'reasoning' || state.finished) return;
    const end = state.said + utf8Length(state.block);
    for (const stretch of groundedStretches(meta)) {
      if (stretch.start < state.said || stretch.start >= end) continue; // an earlier block's: it has ended
      for (const citation of citationsIn(stretch, state.block, state.said)) out.push({ type: 'citation', ...(index ? { choice: index } : {}), citation });
    }
  }

  /** A finishing candidate's searches and pages read, once (grounding.ts); its citations need the whole text. */
  private ground(index: number, state: ChoiceState, out: StreamEvent[]): void {
    if (!state.grounding || state.finished) return;
    const found: WebSearchPart[] = [];
    decodeGrounding(state.grounding, found, `gemini_${this.turn}_${index}`);
    state.grounding = undefined;
    for (const part of found) out.push({ type: 'web-search', ...(index ? { choice: index } : {}), part });
  }

  private emitUsage(out: StreamEvent[]): void {
    // Stryker disable next-line ConditionalExpression: with no usage the key is undefined, as usageSent is until a usage is sent
    if (!this.usage) return;
    const key = JSON.stringify(this.usage);
    if (key === this.usageSent) return;
    this.usageSent = key;
    out.push({ type: 'usage', usage: this.usage });
  }

  private closeBlock(index: number, state: ChoiceState, out: StreamEvent[], signature?: Signature): void {
    const choice = index ? { choice: index } : {};
    const sig = signature ? { signature } : {};
    if (state.open === 'text') out.push({ type: 'text-end', ...choice, ...sig });
    else if (state.open === 'reasoning') out.push({ type: 'reasoning-end', ...choice, ...sig });
    state.open = undefined;
    state.last = undefined;
  }

  private closeAll(index: number, state: ChoiceState, out: StreamEvent[]): void {
    this.closeBlock(index, state, out);
    this.endStreamingCall(index, state, out);
  }

  private openBlock(index: number, state: ChoiceState, kind: 'text' | 'reasoning', out: StreamEvent[]): void {
    if (state.open === kind) return;
    this.closeBlock(index, state, out); // (a streamed call was ended by the part itself)
    out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', ...(index ? { choice: index } : {}) });
    state.open = kind;
  }

  private endStreamingCall(index: number, state: ChoiceState, out: StreamEvent[]): void {
    const call = state.streaming;
    if (!call) return;
    state.streaming = undefined;
    const choice = index ? { choice: index } : {};
    out.push({ type: 'tool-call-delta', ...choice, index: call.index, argumentsDelta: JSON.stringify(call.args) });
    out.push({ type: 'tool-call-end', ...choice, index: call.index });
  }

  private part(index: number, state: ChoiceState, part: GeminiPart, out: StreamEvent[]): void {
    const choice = index ? { choice: index } : {};
    const signature: Signature | undefined =
      typeof part.thoughtSignature === 'string' && part.thoughtSignature ? { origin: 'gemini', value: part.thoughtSignature } : undefined;

    if (isRecord(part.functionCall)) {
      this.functionCall(index, state, part, signature, out);
      return;
    }
    // Any other part ends a streamed call that lacked its terminator.
    this.endStreamingCall(index, state, out);

    let text: string | undefined;
    const fenced = isRecord(part.executableCode) || isRecord(part.codeExecutionResult);
    if (isRecord(part.executableCode)) {
      text = codeFence(part.executableCode);
    } else if (isRecord(part.codeExecutionResult)) {
      text = outputFence(part.codeExecutionResult);
    } else if (typeof part.text === 'string') {
      text = part.text;
    }
    if (text === undefined) {
      // inlineData / fileData have no stream event; a bare signature still gets a home.
      if (signature) this.signatureOnly(index, state, signature, out);
      return;
    }
    if (text === '') {
      if (signature) this.signatureOnly(index, state, signature, out);
      return;
    }
    const kind = part.thought === true ? 'reasoning' : 'text';
    // A part that opens a block ends the latest text block (a thought's text is no answer text:
    // the block it leaves empty adds no bytes).
    if (state.open !== 'text') {
      state.said += utf8Length(state.block);
      state.block = '';
    }
    this.openBlock(index, state, kind, out);
    // A fence starts and ends its own line: a code part and the text around it in one block get
    // a line break between them (the non-stream answer keeps them as separate parts).
    const last = state.last;
    if (last && (fenced || last.fenced) && !last.text.endsWith('\n')) text = `\n${text}`;
    state.last = { text, fenced };
    if (kind === 'text') state.block += text;
    out.push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', ...choice, text });
    if (signature) this.closeBlock(index, state, out, signature);
  }

  private signatureOnly(index: number, state: ChoiceState, signature: Signature, out: StreamEvent[]): void {
    if (state.open) {
      this.closeBlock(index, state, out, signature);
      return;
    }
    out.push({ type: 'reasoning-start', ...(index ? { choice: index } : {}) });
    state.open = 'reasoning';
    this.closeBlock(index, state, out, signature);
  }

  private functionCall(index: number, state: ChoiceState, part: GeminiPart, signature: Signature | undefined, out: StreamEvent[]): void {
    const fc = part.functionCall as Json;
    const choice = index ? { choice: index } : {};
    this.closeBlock(index, state, out);
    const name = typeof fc.name === 'string' ? fc.name : undefined;
    // Stryker disable next-line ArrayDeclaration: an element there has no jsonPath, which applyPartials skips
    const partial = Array.isArray(fc.partialArgs) ? (fc.partialArgs as Json[]) : [];

    if (name) {
      this.endStreamingCall(index, state, out);
      const callIndex = state.calls++;
      const id = typeof fc.id === 'string' && fc.id ? fc.id : syntheticCallId(this.turn, callIndex, index);
      out.push({ type: 'tool-call-start', ...choice, index: callIndex, id, name, ...(signature ? { signature } : {}) });
      if (fc.willContinue === true) {
        state.streaming = { index: callIndex, args: isRecord(fc.args) ? { ...fc.args } : {}, continuing: new Set() };
        applyPartials(state.streaming, partial);
        return;
      }
      const args = isRecord(fc.args) ? fc.args : {};
      out.push({ type: 'tool-call-delta', ...choice, index: callIndex, argumentsDelta: JSON.stringify(args) });
      out.push({ type: 'tool-call-end', ...choice, index: callIndex });
      return;
    }
    // A continuation (partialArgs) or the empty terminator of a streamed call.
    if (state.streaming) {
      applyPartials(state.streaming, partial);
      if (fc.willContinue !== true) this.endStreamingCall(index, state, out);
    }
  }


}

export function createStreamDecoder(req: ChatRequest, ctx: TranslateContext): StreamStep<SseEvent, StreamEvent> {
  return new GeminiStreamDecoder(req, ctx);
}
