/**
 * An in-process proxy over a given state store with two inbound keys and an injected Anthropic
 * upstream (every call counted, with the credential it carried), for the stored-state suites:
 * test/conformance/stored-state.test.ts and test/state-isolation.test.ts.
 */
import { expect } from 'vitest';
import { createProxy, type StateStore } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { UPSTREAMS } from '../e2e/responses-helpers.ts';
import type { MockReply } from './mock-upstream.ts';
import { e2eConfig } from './proxy.ts';

export const anthropic = UPSTREAMS.find((u) => u.name === 'anthropic')!;
export const KEY_A = 'il-key-A-0123456789abcdef';
export const KEY_B = 'il-key-B-fedcba9876543210';

/** A store that counts its calls and shows every key and value written. */
export function watched(inner: StateStore): StateStore & { calls: string[]; written: string[] } {
  const calls: string[] = [];
  const written: string[] = [];
  return {
    kind: inner.kind,
    calls,
    written,
    get: (k) => (calls.push('get'), inner.get(k)),
    put: (k, v, t) => (calls.push('put'), written.push(k, v), inner.put(k, v, t)),
    delete: (k) => (calls.push('delete'), inner.delete(k)),
  };
}

/** An injected upstream: Anthropic answers, every call counted with the credential it carried. */
function upstream() {
  const calls: Array<{ url: string; body: any; headers: Headers }> = [];
  let next: MockReply = anthropic.text('Answer.', false);
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)), headers: new Headers(init.headers) });
    return new Response((next.body ?? next.chunks!.join('')) as string, { status: next.status ?? 200, headers: next.headers });
  };
  return { calls, fetch, reply: (r: MockReply) => (next = r) };
}

export type Call = { status: number; body: string };

export function proxyOver(store: StateStore, configOver: Record<string, unknown> = {}) {
  const up = upstream();
  const config = parseConfig(e2eConfig('http://upstream.test', { keys: [KEY_A, KEY_B], ...configOver }));
  const proxy = createProxy({ config, fetch: up.fetch as never, stateStore: store });
  const send = async (key: string | undefined, method: string, path: string, body?: unknown, place: 'bearer' | 'goog' = 'bearer'): Promise<Call> => {
    const auth: Record<string, string> = key ? (place === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-goog-api-key': key }) : {};
    const res = await proxy.app.request(path, {
      method,
      // The same request id everywhere: bodies that name it compare equal.
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_same', ...auth },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.text() };
  };
  return { up, send };
}

/** `call`'s answer with the id it names written as ID: what an unknown id answers must equal it. */
export const naming = (c: Call, id: string) => ({ status: c.status, body: c.body.split(id).join('ID') });

/** A fresh id of the same shape that nobody kept. */
export const unknownLike = (id: string) => id.slice(0, -6) + 'zzzzzz';

/**
 * B's attempt on A's id must answer as on an unknown id: same status and body, same store
 * traffic, no upstream call. Returns B's answer.
 */
export async function sameAsUnknown(p: ReturnType<typeof proxyOver>, store: ReturnType<typeof watched>, id: string, attempt: (id: string) => Promise<Call>): Promise<Call> {
  const calls = p.up.calls.length;
  store.calls.length = 0;
  const theirs = await attempt(id);
  const trafficTheirs = [...store.calls];
  store.calls.length = 0;
  const nobodys = await attempt(unknownLike(id));
  expect(naming(theirs, id)).toEqual(naming(nobodys, unknownLike(id)));
  expect(trafficTheirs).toEqual(store.calls);
  expect(theirs.status).toBeGreaterThanOrEqual(400);
  expect(p.up.calls.length).toBe(calls);
  return theirs;
}
