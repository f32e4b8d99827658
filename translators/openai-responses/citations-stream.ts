/**
 * Citations in a Responses stream: each is a `response.output_text.annotation.added` event on the
 * open `output_text` part (its `annotation_index` counting within the part), and the part's
 * annotations are in its done events and the final response. A citation whose span is not known
 * yet (the whole text block, as Anthropic cites) or that comes before the part's first text waits
 * for the part's end, where the block's length is known; one of the part that just ended (Gemini's
 * grounding comes after its last text) is added to it while its message is still open.
 * https://platform.openai.com/docs/api-reference/responses-streaming/response/output_text/annotation/added
 */
import type { Citation } from '../../src/canonical/index.ts';
import { encodeAnnotations } from './citations.ts';

export class StreamAnnotations {
  private waiting: Citation[] = [];
  private written: unknown[] = [];
  /** A text block has started and not ended: a citation is its own, not the last part's. */
  inBlock = false;

  /** A text block starts. */
  start(): void {
    this.inBlock = true;
  }

  /** A citation of the open text block: its annotations to add now, as [annotation_index, annotation]. */
  cite(c: Citation, textLength: number | undefined): Array<[number, unknown]> {
    if (textLength === undefined || !c.span) {
      this.waiting.push(c);
      return [];
    }
    return this.write(encodeAnnotations([c], textLength));
  }

  /** The text part ends: the waiting citations' annotations, and all of the part's (for its done events). */
  end(textLength: number | undefined): { added: Array<[number, unknown]>; all: unknown[] } {
    const added = textLength === undefined ? [] : this.write(this.waiting.flatMap((c) => encodeAnnotations([c], textLength)));
    const all = this.written;
    this.inBlock = false;
    // Stryker disable next-line ArrayDeclaration: an element left waiting is no citation with a url, so it writes no annotation, like none
    this.waiting = [];
    this.written = [];
    return { added, all };
  }

  /** A citation of the part that just ended (`part`, already in its message): its annotations, added to it. */
  late(c: Citation, part: Record<string, unknown>): Array<[number, unknown]> {
    const list = Array.isArray(part['annotations']) ? (part['annotations'] as unknown[]) : [];
    const text = typeof part['text'] === 'string' ? part['text'] : '';
    return encodeAnnotations([c], text.length).map((a) => [list.push(a) - 1, a]);
  }

  private write(annotations: unknown[]): Array<[number, unknown]> {
    return annotations.map((a) => [this.written.push(a) - 1, a]);
  }
}
