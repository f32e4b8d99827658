/** A search the proxy ran, in the inspector's request view: a note with what was asked, the backend's key scrubbed. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load.ts';
import type { CallerRequest } from '../../http/inbound.ts';
import { createInspector } from '../../runtime/inspector.ts';
import { RequestScope } from '../scope.ts';

const KEY = 'brave-SECRET-inspector-8888';
const config = parseConfig({
  keys: ['k'],
  upstreams: { o: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } },
  models: { '*': { upstream: 'o' } },
  search: { provider: 'brave', apiKey: KEY },
});
const req: CallerRequest = { method: 'POST', path: '/v1/messages', origin: 'http://127.0.0.1', headers: {}, query: {}, bytes: async () => new Uint8Array(), text: async () => '', onGone: () => {} };

describe('inspector: searches the proxy ran', () => {
  it('each a note of the exchange: the query, the result count, the time; never the key', () => {
    const inspector = createInspector({ ...config, inspector: { maxExchanges: 5, allowRemote: false } });
    inspector.close();
    const scope = new RequestScope('messages', 'req_1', () => 10);
    const tap = inspector.recorder.begin(scope, req, 'k');
    scope.dump = tap.dump;
    scope.ranWeb({ kind: 'search', backend: 'brave', what: `euro 2024 ${KEY}`, results: 3, ms: 12, startMs: 0 });
    scope.ranWeb({ kind: 'fetch', backend: 'fetch', what: 'http://169.254.169.254/', results: 0, ms: 1, startMs: 0, error: 'url_not_accessible' });
    tap.end(scope.finishLog(200), {});
    const ex = inspector.recorder.get(inspector.recorder.list()[0]!.id)!;
    expect(ex.notes.map((n) => [n.stage, n.data])).toEqual([
      ['web search (brave)', { query: 'euro 2024 ***', results: 3, ms: 12 }],
      ['web fetch (fetch)', { url: 'http://169.254.169.254/', results: 0, ms: 1, error: 'url_not_accessible' }],
    ]);
    expect(scope.log.webRuns).toEqual([
      { kind: 'search', backend: 'brave', results: 3, ms: 12 },
      { kind: 'fetch', backend: 'fetch', results: 0, ms: 1, error: 'url_not_accessible' },
    ]);
  });
});
