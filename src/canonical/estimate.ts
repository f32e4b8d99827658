/** A token count estimated from a request's text, for where no upstream counts (pure). */
import type { ChatRequest } from './chat.ts';
import { textOf, type Part } from './parts.ts';

/** Roughly four characters a token (media a fixed allowance), for a list of parts. */
export function estimatePartTokens(parts: readonly Part[]): number {
  return Math.ceil(partChars(parts) / 4);
}

function partChars(parts: readonly Part[]): number {
  return parts.reduce((n, p) => {
    if (p.type === 'text' || p.type === 'reasoning' || p.type === 'refusal') return n + p.text.length;
    if (p.type === 'tool-call') return n + p.name.length + p.arguments.length;
    if (p.type === 'tool-result') return n + partChars(p.content);
    return n + 1000; // media: a fixed allowance
  }, 0);
}

/** Roughly four characters a token, plus a small per-message overhead. */
export function estimateTokens(req: ChatRequest): number {
  let chars = textOf(req.system).length;
  for (const m of req.messages) chars += partChars(m.content) + 16;
  for (const t of req.tools ?? []) chars += t.name.length + (t.description?.length ?? 0) + JSON.stringify(t.parameters ?? {}).length;
  return Math.max(1, Math.ceil(chars / 4));
}
