/**
 * A Gemini caller's stream gets what the upstream searched and the stretches it cited once, with
 * the last chunk, as Gemini sends its own: `groundingMetadata` with `groundingSupports` whose
 * segments count UTF-8 bytes of the candidate's whole text (grounding.ts). Per choice, this keeps
 * the text said, the searches, and the citations moved from their text block to the whole text.
 */
import type { Citation, Part, WebSearchPart } from '../../src/canonical/index.ts';
import { encodeGrounding } from './grounding.ts';
import type { Json } from './json.ts';

interface Choice {
  text: string;
  /** Where the open text block began in `text`. */
  block: number;
  waiting: Citation[];
  cited: Citation[];
  searches: WebSearchPart[];
}

export class StreamGrounding {
  private readonly choices = new Map<number, Choice>();

  private of(choice: number): Choice {
    let c = this.choices.get(choice);
    // Stryker disable next-line ArrayDeclaration: an element put in these lists is no citation with a url and no part, which encodeGrounding skips
    if (!c) this.choices.set(choice, (c = { text: '', block: 0, waiting: [], cited: [], searches: [] }));
    return c;
  }

  search(choice: number, part: WebSearchPart): void {
    this.of(choice).searches.push(part);
  }

  textStart(choice: number): void {
    const c = this.of(choice);
    c.block = c.text.length;
  }

  /** Text the candidate said (answer or refusal): segments count it all. */
  text(choice: number, text: string): void {
    this.of(choice).text += text;
  }

  cite(choice: number, citation: Citation): void {
    const c = this.of(choice);
    if (!citation.span) c.waiting.push(citation);
    else c.cited.push({ ...citation, span: { start: c.block + citation.span.start, end: c.block + citation.span.end } });
  }

  /** The open text block ends: a citation without a span covers all of it. */
  textEnd(choice: number): void {
    const c = this.of(choice);
    for (const citation of c.waiting.splice(0)) c.cited.push({ ...citation, span: { start: c.block, end: c.text.length } });
  }

  /** The candidate's `groundingMetadata` / `urlContextMetadata` for its last chunk, or nothing. */
  metadata(choice: number): Json {
    const c = this.choices.get(choice);
    if (!c) return {};
    // (The text without citations adds no support.)
    const content: Part[] = [...c.searches, { type: 'text', text: c.text, citations: c.cited }];
    return encodeGrounding(content);
  }
}
