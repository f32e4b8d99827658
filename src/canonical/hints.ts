/**
 * Provider hints on parts and tools that only their own vendor understands (Anthropic's
 * `cache_control`): found here once, so every other upstream reports the drop the same way.
 */
import type { ChatRequest } from './chat.ts';
import type { Part } from './parts.ts';
import type { Warning } from './chat.ts';

function partsHaveCacheControl(parts: readonly Part[]): boolean {
  return parts.some((p) => {
    if ('cache' in p && p.cache) return true;
    return p.type === 'tool-result' && partsHaveCacheControl(p.content);
  });
}

/** One `dropped:cache_control` warning when the request carries any cache marker. */
export function cacheControlWarnings(req: ChatRequest): Warning[] {
  const found =
    partsHaveCacheControl(req.system) ||
    req.messages.some((m) => partsHaveCacheControl(m.content)) ||
    (req.tools ?? []).some((t) => t.cache);
  return found ? [{ code: 'dropped', path: 'cache_control' }] : [];
}
