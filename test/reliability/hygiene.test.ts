/**
 * Key hygiene: across every caller × upstream pair, success, streams and upstream errors that
 * echo the credential back, no response (body or headers) and no log line carries an upstream key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureReply, startMockUpstream, type MockReply, type MockUpstream, type ReceivedRequest } from '../support/mock-upstream.ts';
import { UPSTREAM_KEYS, e2eConfig, startProxy, type RunningProxy } from '../support/proxy.ts';
import { CALLERS, requestFor } from './callers.ts';

let mock: MockUpstream;
let proxy: RunningProxy;
const seen: string[] = [];

beforeAll(async () => {
  mock = await startMockUpstream();
  proxy = await startProxy(e2eConfig(mock.url));
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

function sentKey(req: ReceivedRequest): string {
  const h = req.headers;
  return String(h['x-api-key'] ?? h['x-goog-api-key'] ?? String(h.authorization ?? '').replace(/^Bearer /, ''));
}

const upstreams = [
  ['to-openai', 'openai-chat', 'text-basic.json', 'stream-text-basic.sse'],
  ['to-anthropic', 'anthropic', 'text-basic.json', 'stream-text-basic.sse'],
  ['to-gemini', 'gemini', 'system-instruction.json', 'stream-text-basic.sse'],
] as const;

/** An upstream error whose message repeats the key it was given, as real services do. */
function echoingError(dialect: string): (req: ReceivedRequest) => MockReply {
  return (req) => {
    const msg = `Incorrect API key provided: ${sentKey(req)}. You can find your API key at https://example.`;
    const body =
      dialect === 'anthropic'
        ? { type: 'error', error: { type: 'authentication_error', message: msg } }
        : dialect === 'gemini'
          ? { error: { code: 400, message: msg, status: 'INVALID_ARGUMENT' } }
          : { error: { message: msg, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
    return { status: dialect === 'gemini' ? 400 : 401, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  };
}

describe.each(CALLERS)('key hygiene, %s caller', (caller) => {
  it.each(upstreams)('via %s: success, stream and echoed-key errors leak nothing', async (model, dialect, json, sse) => {
    for (const [reply, stream] of [
      [fixtureReply(dialect, json), false],
      [fixtureReply(dialect, sse), true],
      [echoingError(dialect), false],
      [echoingError(dialect), true],
    ] as const) {
      mock.reply(reply);
      const [url, init] = requestFor(caller, proxy.url, model, stream);
      const res = await fetch(url, init);
      const text = await res.text();
      seen.push(text, JSON.stringify([...res.headers]));
    }
    expect(mock.requests.some((r) => Object.values(UPSTREAM_KEYS).includes(sentKey(r) as never))).toBe(true);
  });
});

describe('everything seen', () => {
  it('holds no upstream key, in responses or log lines', () => {
    expect(seen.length).toBeGreaterThan(30);
    expect(seen.some((s) => s.includes('Incorrect API key provided'))).toBe(true);
    for (const s of [...seen, ...proxy.logs]) {
      for (const key of Object.values(UPSTREAM_KEYS)) expect(s).not.toContain(key);
    }
  });
});
