/**
 * Key pools through the official SDKs, on Node and in workerd: every caller dialect (openai Chat
 * and Responses, @anthropic-ai/sdk, @google/genai generateContent and Interactions) against a pool
 * of every upstream dialect whose first key the mock answers with that upstream's own 429. The
 * next key serves the request (unary and streamed), the refused key is skipped while it cools;
 * when every key is cooling the caller gets a 429 in its own shape with the retry-after of the
 * soonest key, and the next request makes no upstream call at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { byKey, CALLERS, keyOf, poolKeys, poolUpstream, rejection, UPSTREAMS, type CallerCase, type UpstreamCase } from './key-pools-helpers.ts';

const MATRIX = CALLERS.flatMap((c) => UPSTREAMS.map((u) => ({ caller: c, upstream: u, label: `${c.name} → ${u.name}` })));
const limited = new Set<string>();

function config(mockUrl: string) {
  const upstreams: Record<string, unknown> = {};
  const models: Record<string, unknown> = {};
  const add = (name: string, u: UpstreamCase, limitedKeys: number) => {
    const p = poolUpstream(mockUrl, u, name, { apiKeyStrategy: 'fill-first' });
    upstreams[name] = p.upstream;
    models[name] = p.route;
    for (const k of poolKeys(name).slice(0, limitedKeys)) limited.add(k);
  };
  for (const { caller, upstream } of MATRIX) {
    add(`next-${caller.name}-${upstream.name}`, upstream, 1);
    add(`stream-${caller.name}-${upstream.name}`, upstream, 1);
    add(`cool-${caller.name}-${upstream.name}`, upstream, 3);
  }
  return { keys: [INBOUND_KEY], upstreams, models };
}

describe.each(TARGETS)('%s: key pools through every caller’s SDK', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, config);
  beforeAll(() => h.mock.reply(byKey(limited)));

  const sentKeys = () => h.mock.requests.map(keyOf);

  describe.each(MATRIX)('$label', ({ caller, upstream }: { caller: CallerCase; upstream: UpstreamCase }) => {
    it('a rate-limited key: the next key answers, and the first is skipped while it cools', async () => {
      const name = `next-${caller.name}-${upstream.name}`;
      const [k0, k1] = poolKeys(name);
      expect(await caller.send(h.proxy.url, name)).toBe('Pooled answer');
      expect(sentKeys()).toEqual([k0, k1]);
      h.mock.requests.length = 0;
      expect(await caller.send(h.proxy.url, name)).toBe('Pooled answer');
      expect(sentKeys()).toEqual([k1]);
    });

    it('streamed: the next key answers before anything reaches the caller', async () => {
      const name = `stream-${caller.name}-${upstream.name}`;
      const [k0, k1] = poolKeys(name);
      expect(await caller.send(h.proxy.url, name, { stream: true })).toBe('Pooled answer');
      expect(sentKeys()).toEqual([k0, k1]);
    });

    it('every key cooling: a 429 in the caller’s shape with the soonest key’s retry-after, then no upstream call', async () => {
      const name = `cool-${caller.name}-${upstream.name}`;
      const first = caller.error(await rejection(caller.send(h.proxy.url, name)));
      expect(sentKeys()).toEqual(poolKeys(name));
      expect(first.status).toBe(429);
      expect(first.retryAfter).toBe(7);
      expect(first.message).toContain(`Every key of upstream '${name}' is cooling down`);
      h.mock.requests.length = 0;
      const again = caller.error(await rejection(caller.send(h.proxy.url, name, { stream: true })));
      expect(h.mock.requests).toHaveLength(0);
      expect(again.status).toBe(429);
      expect(again.retryAfter).toBeGreaterThanOrEqual(1);
      expect(again.retryAfter).toBeLessThanOrEqual(7);
    });
  });
});
