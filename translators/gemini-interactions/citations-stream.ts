/**
 * Citations in an Interactions caller's stream: `text_annotation_delta`s on the open
 * `model_output` step, each `url_citation` at UTF-8 byte offsets of the step's text so far. The
 * step may hold several canonical text blocks: a citation's span is moved from its block to the
 * step's text; one without a span (the whole block) waits for the block's end.
 */
import type { Citation } from '../../src/canonical/index.ts';
import { encodeAnnotations } from './web-search.ts';

export class StepAnnotations {
  /** The open output step's text. */
  private said = '';
  /** Where the open text block began in it, once it said something; the block that ended last. */
  private block: number | undefined;
  private ended: { start: number; end: number } | undefined;
  // Stryker disable next-line ArrayDeclaration: what waits is only read through encodeAnnotations, which gives nothing for an entry without a url
  private waiting: Citation[] = [];

  /** A new output step. */
  step(): void {
    this.said = '';
    this.block = undefined;
    this.ended = undefined;
    // Stryker disable next-line ArrayDeclaration: what waits is only read through encodeAnnotations, which gives nothing for an entry without a url
    this.waiting = [];
  }

  /** A text block starts: its citations are its own from now on. */
  start(): void {
    this.block = undefined;
    this.ended = undefined;
    // Stryker disable next-line ArrayDeclaration: what waits is only read through encodeAnnotations, which gives nothing for an entry without a url
    this.waiting = [];
  }

  text(text: string): void {
    this.block ??= this.said.length;
    this.said += text;
  }

  /** A citation of the latest text block: the annotations to send now. */
  cite(c: Citation): unknown[] {
    const range = this.block !== undefined ? { start: this.block, end: this.said.length } : this.ended;
    if (!range || (this.block !== undefined && !c.span)) {
      // (Either the block is open or none has ended: it waits for the open or the next block's end.)
      this.waiting.push(c);
      return [];
    }
    return this.annotate([c], range);
  }

  /** The text block ends: the annotations of the citations that waited for its length. */
  end(): unknown[] {
    if (this.block === undefined) return [];
    this.ended = { start: this.block, end: this.said.length };
    this.block = undefined;
    return this.annotate(this.waiting.splice(0), this.ended);
  }

  private annotate(citations: Citation[], range: { start: number; end: number }): unknown[] {
    const moved = citations.map((c) => ({ ...c, span: c.span ? { start: range.start + c.span.start, end: range.start + c.span.end } : range }));
    return encodeAnnotations(moved, this.said);
  }
}
