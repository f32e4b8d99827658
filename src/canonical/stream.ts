/**
 * Canonical stream events: start/delta/end framing.
 *
 * Stream decoders guarantee the framing: every `*-delta` of a block comes after its `*-start`
 * and before its `*-end`; a block is ended before the next one of the same choice starts
 * (tool calls may overlap by `index` when the wire interleaves them). `choice` defaults to 0.
 * `usage` may come several times; each carries the full cumulative usage so far.
 */
import type { FinishReason, Usage } from './chat.ts';
import type { ProxyError } from './errors.ts';
import type { Logprobs } from './logprobs.ts';
import type { Citation } from './citation.ts';
import type { Signature, WebSearchPart } from './parts.ts';

export type StreamEvent =
  | { type: 'message-start'; id: string; model: string; created: number }
  | { type: 'text-start'; choice?: number }
  | { type: 'text-delta'; choice?: number; text: string }
  | { type: 'text-end'; choice?: number; signature?: Signature }
  | { type: 'reasoning-start'; choice?: number; redacted?: Signature }
  | { type: 'reasoning-delta'; choice?: number; text: string }
  | { type: 'reasoning-end'; choice?: number; signature?: Signature }
  | { type: 'refusal-start'; choice?: number }
  | { type: 'refusal-delta'; choice?: number; text: string }
  | { type: 'refusal-end'; choice?: number }
  | {
      type: 'tool-call-start';
      choice?: number;
      /** Position of this call among the choice's tool calls, from 0. */
      index: number;
      id: string;
      name: string;
      /** A freeform tool's call: its deltas are raw input text, not JSON. */
      custom?: true;
      signature?: Signature;
    }
  | { type: 'tool-call-delta'; choice?: number; index: number; argumentsDelta: string }
  | { type: 'tool-call-end'; choice?: number; index: number }
  /**
   * A source the choice's latest text block cites: the open one, or the one that just ended when
   * no other block has started since (Gemini's grounding comes with the last chunk, after a signed
   * text part closed its block). `citation.span` is in UTF-16 units of that block's text streamed
   * so far, within it; without a span, the whole block (Anthropic's `citations_delta` comes before
   * the text it cites).
   */
  | { type: 'citation'; choice?: number; citation: Citation }
  /** A hosted web search or fetch the upstream ran, whole, once it has its results. */
  | { type: 'web-search'; choice?: number; part: WebSearchPart }
  /** Log probabilities for the tokens just emitted, replayed where supported. */
  | { type: 'logprobs'; choice?: number; logprobs: Logprobs }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; choice?: number; reason: FinishReason }
  /** Whole-prompt block (Gemini blockReason): no content follows. */
  | { type: 'prompt-blocked'; reason: string }
  /**
   * The stream failed; encoders emit their dialect's error form, then close properly.
   * `upstreamFrame`: the upstream said so itself, in a well-formed frame of its stream (an error
   * event, a failed response): a caller of the same dialect gets that frame as it was sent.
   */
  | { type: 'error'; error: ProxyError; upstreamFrame?: true };

export type StreamEventType = StreamEvent['type'];

/** One outgoing SSE frame; `data` is already serialized. Framing (SSE or JSON array) is applied later. */
export interface StreamFrame {
  event?: string;
  data: string;
}

/** One incoming SSE event, as eventsource-parser yields it. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

/**
 * A stateful stream step: `push` one input, get the outputs it completes; `finish` flushes.
 * Maps one-to-one onto a TransformStream's transform/flush. Built fresh per request.
 */
export interface StreamStep<In, Out> {
  push(input: In): Out[];
  finish(): Out[];
}

/** Two steps as one: every output of `first` goes through `second`, and both are flushed in order. */
export function chainSteps<A, B, C>(first: StreamStep<A, B>, second: StreamStep<B, C>): StreamStep<A, C> {
  return {
    push: (input) => first.push(input).flatMap((b) => second.push(b)),
    finish: () => [...first.finish().flatMap((b) => second.push(b)), ...second.finish()],
  };
}
