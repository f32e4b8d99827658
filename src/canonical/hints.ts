/**
 * Provider hints on parts and tools that only their own vendor understands (Anthropic's
 * `cache_control`): found here once, so every other upstream reports the drop the same way.
 */
import type { ChatRequest } from './chat.ts';
import type { Part } from './parts.ts';
import type { Warning } from './chat.ts';
import type { CacheHint } from './logprobs.ts';

type CacheHintTest = (hint: CacheHint) => boolean;

function partsHaveCacheControl(parts: readonly Part[], test: CacheHintTest): boolean {
  return parts.some((p) => {
    if ('cache' in p && p.cache) return test(p.cache);
    return p.type === 'tool-result' && partsHaveCacheControl(p.content, test);
  });
}

function hasCacheHint(req: ChatRequest, test: CacheHintTest): boolean {
  return (
    partsHaveCacheControl(req.system, test) ||
    req.messages.some((m) => partsHaveCacheControl(m.content, test)) ||
    (req.tools ?? []).some((t) => t.cache && test(t.cache))
  );
}

/** One `dropped:cache_control` warning when the request carries any cache marker. */
export function cacheControlWarnings(req: ChatRequest): Warning[] {
  return hasCacheHint(req, () => true) ? [{ code: 'dropped', path: 'cache_control' }] : [];
}

/** The request asks for a cache breakpoint with the 1-hour TTL (Anthropic prices those writes higher). */
export function asksLongCacheTtl(req: ChatRequest): boolean {
  return hasCacheHint(req, (h) => h.ttl === '1h');
}
