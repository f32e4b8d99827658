/**
 * Citations in a Chat Completions stream: `delta.annotations` (`url_citation`s at offsets of the
 * choice's whole message text, as OpenAI's search models and OpenRouter stream them), to and from
 * canonical citations of the open text block. Both sides keep, per choice, how much text the
 * message has said and where the open text block began in it.
 * https://platform.openai.com/docs/guides/tools-web-search?api-mode=chat
 */
import type { Citation } from '../../src/canonical/index.ts';
import { citedSearch, decodeAnnotation, encodeAnnotations } from './citations.ts';

interface Said {
  length: number;
  /** Where the open text block began in the message, once it said something. */
  block?: number;
  /** The text block that ended last, until another says something. */
  ended?: { start: number; length: number };
  waiting: Citation[];
}

/** Per choice: the message text said so far, in UTF-16 units, and the open text block. */
class MessageText {
  private readonly choices = new Map<number, Said>();

  protected said(choice: number): Said {
    let s = this.choices.get(choice);
    // Stryker disable next-line ArrayDeclaration: a string among the waiting citations has no url and no raw, so it makes no annotation
    if (!s) this.choices.set(choice, (s = { length: 0, waiting: [] }));
    return s;
  }

  /** Text of the choice's open text block written: `lead` units of it are not the block's own (a paragraph break). */
  text(choice: number, text: string, lead = 0): void {
    const s = this.said(choice);
    if (s.block === undefined) {
      s.block = s.length + lead;
      s.ended = undefined;
    }
    s.length += text.length;
  }
}

/** Caller side: canonical citations → `delta.annotations`. */
export class ChatStreamAnnotations extends MessageText {
  /** A text block starts: citations from now on are its own. */
  start(choice: number): void {
    this.said(choice).ended = undefined;
  }

  /** A citation of the latest text block: the annotations to send now (none while its span waits for the open block's end). */
  cite(choice: number, c: Citation): unknown[] {
    const s = this.said(choice);
    // A block that ended means none is open (`text` clears `ended` when it opens one).
    if (s.ended) return encodeAnnotations([c], s.ended.start, s.ended.length);
    if (s.block === undefined || !c.span) {
      s.waiting.push(c);
      return [];
    }
    return encodeAnnotations([c], s.block);
  }

  /** The open text block ends: the annotations of the citations that waited for its length. */
  end(choice: number): unknown[] {
    const s = this.said(choice);
    const { block, waiting } = s;
    s.block = undefined;
    // Stryker disable next-line ArrayDeclaration: a string among the waiting citations has no url and no raw, so it makes no annotation
    s.waiting = [];
    if (block === undefined) return [];
    s.ended = { start: block, length: s.length - block };
    return waiting.flatMap((c) => encodeAnnotations([c], block, s.length - block));
  }
}

/** Upstream side: `delta.annotations` → citations of the open text block, their spans moved to it. */
export class ChatStreamCitations extends MessageText {
  private readonly cited = new Map<number, Citation[]>();

  /** The search behind a finished choice's citations (decode-response.ts does the same). */
  search(choice: number, id: string): ReturnType<typeof citedSearch> {
    // Stryker disable next-line ArrayDeclaration: a string among the cited has no url, so it is no result
    return citedSearch(this.cited.get(choice) ?? [], id);
  }

  /** Begin a text block (its first text has not been said yet). */
  open(choice: number): void {
    this.said(choice).block = undefined;
  }

  cite(choice: number, annotations: readonly unknown[]): Citation[] {
    const block = this.said(choice).block ?? this.said(choice).length;
    const out = annotations.map((a) => {
      const c = decodeAnnotation(a);
      return c.span ? { ...c, span: { start: Math.max(0, c.span.start - block), end: Math.max(0, c.span.end - block) } } : c;
    });
    this.cited.set(choice, [...(this.cited.get(choice) ?? []), ...out]);
    return out;
  }
}
