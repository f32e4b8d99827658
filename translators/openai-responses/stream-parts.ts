/**
 * The Responses stream's numbered frames, and what goes on inside one open output item: a
 * message's content parts, a reasoning item's summary parts, a tool call's argument deltas.
 * The encoder (stream-encoder.ts) decides which item is open; these write its inner events.
 */
import type { Signature, StreamFrame, TokenLogprob } from '../../src/canonical/index.ts';
import { outputText } from './encode-output.ts';
import type { Wire } from './encode-settings.ts';
import { encodeLogprobs } from './logprobs.ts';

export interface Part {
  kind: 'text' | 'refusal';
  text: string;
  logprobs: TokenLogprob[];
}

export interface ToolCall {
  index: number;
  id: string;
  name: string;
  custom?: true;
  signature?: Signature;
}

export type OpenMessage = { kind: 'message'; id: string; at: number; content: Wire[]; part?: Part; signature?: Signature };
export type OpenReasoning = { kind: 'reasoning'; id: string; at: number; summaries: string[]; part?: string; text: string };
export type OpenTool = { kind: 'tool'; id: string; at: number; call: ToolCall; args: string };
export type Open = OpenMessage | OpenReasoning | OpenTool;

/** Frames with `type` and a `sequence_number` counting from 0. */
export class ResponseFrames {
  seq = 0;

  frame(type: string, payload: Wire): StreamFrame {
    return { event: type, data: JSON.stringify({ type, sequence_number: this.seq++, ...payload }) };
  }

  /** Most of a stream's events, written by hand: `fields` are the JSON members after `type` and `sequence_number`. */
  byHand(type: string, fields: string): StreamFrame {
    return { event: type, data: `{"type":"${type}","sequence_number":${this.seq++},${fields}}` };
  }
}

/** The open text part's citations, told when it closes (citations-stream.ts's StreamAnnotations). */
export interface PartCitations {
  end(textLength: number): { added: Array<[number, unknown]>; all: unknown[] };
}

/** Text or refusal into the open message, opening a content part of that kind first. */
export function partDelta(m: OpenMessage, kind: Part['kind'], text: string, f: ResponseFrames, out: StreamFrame[], cites?: PartCitations): void {
  if (m.part?.kind !== kind) {
    closePart(m, f, out, cites);
    m.part = { kind, text: '', logprobs: [] };
    const part = kind === 'text' ? outputText('', [], []) : { type: 'refusal', refusal: '' };
    out.push(f.frame('response.content_part.added', { item_id: m.id, output_index: m.at, content_index: m.content.length, part }));
  }
  m.part!.text += text;
  if (kind === 'text') {
    // The bytes JSON.stringify writes for { type, sequence_number, item_id, output_index, content_index, delta, logprobs: [] }.
    out.push(f.byHand('response.output_text.delta', `"item_id":${JSON.stringify(m.id)},"output_index":${m.at},"content_index":${m.content.length},"delta":${JSON.stringify(text)},"logprobs":[]`));
    return;
  }
  out.push(f.frame('response.refusal.delta', { item_id: m.id, output_index: m.at, content_index: m.content.length, delta: text }));
}

/** The open content part's done events; a text part's citations are announced first and written in it. */
export function closePart(m: OpenMessage, f: ResponseFrames, out: StreamFrame[], cites?: PartCitations): void {
  const p = m.part;
  if (!p) return;
  const where = { item_id: m.id, output_index: m.at, content_index: m.content.length };
  const cited = p.kind === 'text' ? cites?.end(p.text.length) : undefined;
  if (cited) annotationFrames(m, cited.added, f, out);
  const part = p.kind === 'text' ? outputText(p.text, cited?.all ?? [], p.logprobs) : { type: 'refusal', refusal: p.text };
  out.push(
    p.kind === 'text'
      ? f.frame('response.output_text.done', { ...where, text: p.text, logprobs: encodeLogprobs(p.logprobs) })
      : f.frame('response.refusal.done', { ...where, refusal: p.text }),
  );
  out.push(f.frame('response.content_part.done', { ...where, part }));
  m.content.push(part);
  m.part = undefined;
}

/** `response.output_text.annotation.added` for each `[index, annotation]` of the message's current part (`shift` -1: the part just closed). */
export function annotationFrames(m: OpenMessage, added: ReadonlyArray<[number, unknown]>, f: ResponseFrames, out: StreamFrame[], shift = 0): void {
  for (const [annotation_index, annotation] of added) {
    out.push(f.frame('response.output_text.annotation.added', { item_id: m.id, output_index: m.at, content_index: m.content.length + shift, annotation_index, annotation }));
  }
}

/** Reasoning text into the open reasoning item; with `summaries`, as summary events. */
export function summaryDelta(r: OpenReasoning, text: string, summaries: boolean, f: ResponseFrames, out: StreamFrame[]): void {
  r.text += text; // for the carrier: a vendor may have signed it
  if (!summaries) return; // no summary was asked for: the item carries none
  const where = { item_id: r.id, output_index: r.at, summary_index: r.summaries.length };
  if (r.part === undefined) {
    r.part = '';
    out.push(f.frame('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } }));
  }
  r.part += text;
  out.push(f.frame('response.reasoning_summary_text.delta', { ...where, delta: text }));
}

export function closeSummary(r: OpenReasoning, f: ResponseFrames, out: StreamFrame[]): void {
  if (r.part === undefined) return;
  const where = { item_id: r.id, output_index: r.at, summary_index: r.summaries.length };
  out.push(f.frame('response.reasoning_summary_text.done', { ...where, text: r.part }));
  out.push(f.frame('response.reasoning_summary_part.done', { ...where, part: { type: 'summary_text', text: r.part } }));
  r.summaries.push(r.part);
  r.part = undefined;
}

export function argumentsDelta(t: OpenTool, delta: string, f: ResponseFrames, out: StreamFrame[]): void {
  t.args += delta;
  const type = t.call.custom ? 'response.custom_tool_call_input.delta' : 'response.function_call_arguments.delta';
  // By hand, as a text delta: the bytes JSON.stringify writes for { type, sequence_number, item_id, output_index, delta }.
  out.push(f.byHand(type, `"item_id":${JSON.stringify(t.id)},"output_index":${t.at},"delta":${JSON.stringify(delta)}`));
}

export function argumentsDone(t: OpenTool, f: ResponseFrames, out: StreamFrame[]): void {
  const where = { item_id: t.id, output_index: t.at };
  out.push(
    t.call.custom
      ? f.frame('response.custom_tool_call_input.done', { ...where, input: t.args })
      : f.frame('response.function_call_arguments.done', { ...where, name: t.call.name, arguments: t.args }),
  );
}

/** A web search item's own events between its `added` and `done`, as the API streams them. */
export function searchPhases(id: unknown, at: number, f: ResponseFrames, out: StreamFrame[]): void {
  const where = { item_id: id, output_index: at };
  for (const phase of ['in_progress', 'searching', 'completed']) out.push(f.frame(`response.web_search_call.${phase}`, where));
}
