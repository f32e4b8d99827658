/**
 * Citations in an Anthropic caller's stream. Claude writes a cited sentence as a text block of its
 * own, its `citations_delta`s before its `text_delta`s; another vendor says which stretch of its
 * text a page supports once the text is out (Responses annotations, Gemini's grounding on its
 * last chunk). So when the request offers a hosted web tool, each text block is held until its
 * citations are known (its end, or the citations right after it), then written as the JSON answer
 * is: one block per cited stretch (web-search.ts `citedTextBlocks`). Without a hosted web tool
 * text streams as it comes, and only citations Anthropic wrote itself (whole-block, before the
 * text) are passed on.
 * https://docs.claude.com/en/docs/build-with-claude/citations#streaming-support
 */
import type { Citation, StreamEvent } from '../../src/canonical/index.ts';
import { citedTextBlocks } from './web-search.ts';

/** Events that may come while a held block waits: its own text and citations, and what neither starts a block nor ends the answer. */
const WAITING: ReadonlySet<StreamEvent['type']> = new Set(['text-delta', 'citation', 'usage', 'logprobs', 'message-start', 'text-end']);

export class HeldText {
  private text: string | undefined;
  // Stryker disable next-line ArrayDeclaration: what is not a Citation names no page, and is left out by citedTextBlocks
  private citations: Citation[] = [];

  constructor(readonly holds: boolean) {}

  /** Whether `e` writes the held block out first (another block starts, or the answer ends). */
  releasedBy(e: StreamEvent): boolean {
    return this.text !== undefined && !WAITING.has(e.type);
  }

  add(text: string): void {
    this.text = (this.text ?? '') + text;
  }

  /** Keep a citation of the held block: false when nothing is held. */
  cite(c: Citation): boolean {
    if (this.text === undefined) return false;
    this.citations.push(c);
    return true;
  }

  /** The held block as text blocks, one per cited stretch; nothing once taken. */
  take(): Array<{ text: string; citations: unknown[] | null }> {
    if (this.text === undefined) return [];
    // Stryker disable next-line StringLiteral: citedTextBlocks reads the part's text and citations, not its type
    const blocks = citedTextBlocks({ type: 'text', text: this.text, citations: this.citations });
    this.text = undefined;
    this.citations = [];
    return blocks.filter((b) => b.text !== '');
  }
}
