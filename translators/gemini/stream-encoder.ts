/**
 * Caller side: canonical stream events → Gemini stream chunks (whole GenerateContentResponse
 * objects, no event names; the framing — SSE `data:` lines or a JSON array — is applied later).
 *
 * - Each text / thought delta is one chunk with one part; a block's signature arrives as a
 *   chunk with an empty-text part carrying `thoughtSignature` (what Gemini 3 sends).
 * - Tool calls are held until `tool-call-end` and sent whole (`args` as an object; `{}` when
 *   no arguments streamed; unparsable arguments end the stream with an error chunk).
 * - Finish reasons and usage are held and sent on the last chunk, which every stream gets from
 *   `finish()` (finishReason `OTHER` when the upstream stopped without one). Every chunk has a
 *   non-empty `content.parts` with `role: model`: @google/genai's chat history drops a streamed
 *   turn containing a chunk without them.
 * - `error` → `{"error":{code,message,status}}` chunk, then nothing more.
 */
import type { ChatRequest, FinishReason, StreamEvent, StreamFrame, StreamStep, Usage, Signature } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { encodeErrorBody } from './errors.ts';
import { encodeFinishReason } from './finish-reason.ts';
import { encodeLogprobs } from './logprobs.ts';
import { redactedToWire, signatureToWire } from './signatures.ts';
import { encodeUsage } from './usage.ts';
import type { GeminiOutPart } from './wire.ts';
import { assertNever, ProxyError } from '../../src/canonical/index.ts';
import { StreamGrounding } from './citations-stream.ts';

interface HeldCall {
  choice: number;
  id: string;
  name: string;
  args: string;
  signature?: Signature;
}

export class GeminiStreamEncoder implements StreamStep<StreamEvent, StreamFrame> {
  private id: string | undefined;
  private model: string;
  private usage: Usage | undefined;
  private readonly reasons = new Map<number, FinishReason>();
  /** The web searches and citations of each choice, for its final chunk (citations-stream.ts). */
  private readonly grounding = new StreamGrounding();
  private readonly seen = new Set<number>();
  private readonly calls = new Map<string, HeldCall>();
  private done = false;

  constructor(
    req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.model = req.model;
  }

  private responseId(): string {
    this.id ??= this.ctx.newId('gemini-');
    return this.id;
  }

  private frame(body: Record<string, unknown>): StreamFrame {
    return { data: JSON.stringify(body) };
  }

  private chunk(choice: number, part: GeminiOutPart): StreamFrame {
    this.seen.add(choice);
    return this.frame({
      candidates: [{ content: { parts: [part], role: 'model' }, index: choice }],
      ...(this.usage ? { usageMetadata: encodeUsage(this.usage) } : {}),
      modelVersion: this.model,
      responseId: this.responseId(),
    });
  }

  private fail(error: ProxyError): StreamFrame[] {
    this.done = true;
    return [this.frame(encodeErrorBody(error) as unknown as Record<string, unknown>)];
  }

  push(event: StreamEvent): StreamFrame[] {
    if (this.done) return [];
    const choice = 'choice' in event && typeof event.choice === 'number' ? event.choice : 0;
    switch (event.type) {
      case 'message-start':
        this.id = event.id || this.id;
        if (event.model) this.model = event.model;
        return [];
      case 'text-start':
        this.grounding.textStart(choice);
        return [];
      case 'refusal-start':
      case 'refusal-end':
        return [];
      case 'web-search':
        // On the final chunk, as Gemini sends its own (grounding.ts); citations need the whole text.
        this.grounding.search(choice, event.part);
        return [];
      case 'citation':
        this.grounding.cite(choice, event.citation);
        return [];
      case 'logprobs':
        return this.logprobs(choice, event.logprobs);
      case 'reasoning-start':
        return event.redacted ? [this.chunk(choice, { text: '', thought: true, thoughtSignature: redactedToWire(event.redacted) })] : [];
      case 'text-delta':
      case 'refusal-delta':
        this.grounding.text(choice, event.text);
        return event.text ? [this.chunk(choice, { text: event.text })] : [];
      case 'reasoning-delta':
        return event.text ? [this.chunk(choice, { text: event.text, thought: true })] : [];
      case 'text-end':
        this.grounding.textEnd(choice);
        return event.signature ? [this.chunk(choice, { text: '', thoughtSignature: signatureToWire(event.signature) })] : [];
      case 'reasoning-end':
        return event.signature
          ? [this.chunk(choice, { text: '', thought: true, thoughtSignature: signatureToWire(event.signature) })]
          : [];
      case 'tool-call-start':
        this.calls.set(`${choice}:${event.index}`, {
          choice,
          id: event.id,
          name: event.name,
          args: '',
          ...(event.signature ? { signature: event.signature } : {}),
        });
        return [];
      case 'tool-call-delta': {
        const call = this.calls.get(`${choice}:${event.index}`);
        if (call) call.args += event.argumentsDelta;
        return [];
      }
      case 'tool-call-end':
        return this.toolCallEnd(choice, event.index);
      case 'usage':
        this.usage = event.usage;
        return [];
      case 'finish':
        this.seen.add(choice);
        this.reasons.set(choice, event.reason);
        return [];
      case 'prompt-blocked':
        return this.promptBlocked(event.reason);
      case 'error':
        return this.fail(event.error);
      default:
        return assertNever(event, 'stream event');
    }
  }

  /** Logprobs, on a chunk of their own (Gemini sends logprobsResult beside the content). */
  private logprobs(choice: number, logprobs: Extract<StreamEvent, { type: 'logprobs' }>['logprobs']): StreamFrame[] {
    const result = encodeLogprobs(logprobs);
    if (!result) return [];
    this.seen.add(choice);
    return [
      this.frame({
        candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, logprobsResult: result, index: choice }],
        modelVersion: this.model,
        responseId: this.responseId(),
      }),
    ];
  }

  /** A tool call, once its arguments are whole: one `functionCall` part (Gemini's stream carries arguments whole, as an object). */
  private toolCallEnd(choice: number, index: number): StreamFrame[] {
    const key = `${choice}:${index}`;
    const call = this.calls.get(key);
    if (!call) return [];
    this.calls.delete(key);
    let args: unknown = {};
    if (call.args.trim() !== '') {
      try {
        args = JSON.parse(call.args);
      } catch {
        return this.fail(new ProxyError('upstream', `the upstream produced invalid JSON arguments for tool '${call.name}'`));
      }
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return this.fail(new ProxyError('upstream', `the upstream produced non-object arguments for tool '${call.name}'`));
    }
    return [
      this.chunk(choice, {
        functionCall: { id: call.id, name: call.name, args: args as Record<string, unknown> },
        ...(call.signature ? { thoughtSignature: signatureToWire(call.signature) } : {}),
      }),
    ];
  }

  /** The prompt refused: the last frame, its `promptFeedback`. */
  private promptBlocked(reason: string): StreamFrame[] {
    this.done = true;
    return [
      this.frame({
        promptFeedback: { blockReason: reason },
        ...(this.usage ? { usageMetadata: encodeUsage(this.usage) } : {}),
        modelVersion: this.model,
        responseId: this.responseId(),
      }),
    ];
  }

  finish(): StreamFrame[] {
    if (this.done) return [];
    this.done = true;
    const choices = this.seen.size > 0 ? [...this.seen].sort((a, b) => a - b) : [0];
    const candidates = choices.map((index) => ({
      content: { parts: [{ text: '' }], role: 'model' },
      finishReason: encodeFinishReason(this.reasons.get(index) ?? { unified: 'other' }),
      index,
      ...this.grounding.metadata(index),
    }));
    return [
      this.frame({
        candidates,
        ...(this.usage ? { usageMetadata: encodeUsage(this.usage) } : {}),
        modelVersion: this.model,
        responseId: this.responseId(),
      }),
    ];
  }
}

export function createStreamEncoder(req: ChatRequest, ctx: TranslateContext): StreamStep<StreamEvent, StreamFrame> {
  return new GeminiStreamEncoder(req, ctx);
}
