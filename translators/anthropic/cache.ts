/**
 * `cache_control` ⇄ the canonical cache hint: `{type: "ephemeral", ttl?: "5m" | "1h"}` is the only
 * kind Anthropic has (https://docs.claude.com/en/docs/build-with-claude/prompt-caching).
 */
import type { CacheHint } from '../../src/canonical/index.ts';

export function decodeCache(cc: { type?: string; ttl?: unknown } | null | undefined): { cache?: CacheHint } {
  if (!cc) return {};
  return { cache: cc.ttl === '5m' || cc.ttl === '1h' ? { ttl: cc.ttl } : {} };
}

export function encodeCache(cache: CacheHint | undefined): { type: 'ephemeral'; ttl?: '5m' | '1h' } | undefined {
  return cache ? { type: 'ephemeral', ...(cache.ttl ? { ttl: cache.ttl } : {}) } : undefined;
}
