import { describe, expect, it } from 'vitest';
import { heapFlag } from './node.ts';
import { isDirectRoute } from './node-server.ts';

describe('heapFlag: the heap growth npm start sets, unless the command line chose one', () => {
  it('sets 50 % by default, whatever other flags there are', () => {
    expect(heapFlag([])).toBe('--heap-growing-percent=50');
    expect(heapFlag(['--max-semi-space-size=8', '--enable-source-maps'])).toBe('--heap-growing-percent=50');
    expect(heapFlag(['--heap-growing-percentile=3'])).toBe('--heap-growing-percent=50');
  });

  it("leaves the command line's own growth alone, in any spelling V8 takes", () => {
    for (const argv of [['--heap-growing-percent=200'], ['--heap_growing_percent=100'], ['--inspect', '--heap-growing-percent', '300']]) {
      expect(heapFlag(argv), argv.join(' ')).toBeUndefined();
    }
  });
});

describe('the Node entry: which routes take the direct path', () => {
  it('the chat routes (POST) and the health probes do; token counts, stored answers, lists and images go through the Hono app', () => {
    for (const url of ['/v1/chat/completions', '/v1/messages', '/v1/responses', '/v1beta/interactions', '/v1/interactions', '/v1beta/models/gemini-2.5-flash:generateContent', '/v1/models/m:streamGenerateContent?alt=sse', '/v1/chat/completions?x=1']) {
      expect([url, isDirectRoute('POST', url)]).toEqual([url, true]);
    }
    for (const [method, url] of [['GET', '/health'], ['HEAD', '/health'], ['HEAD', '/']] as const) expect([method, url, isDirectRoute(method, url)]).toEqual([method, url, true]);
    for (const [method, url] of [
      ['GET', '/v1/chat/completions'],
      ['POST', '/v1/messages/count_tokens'],
      ['POST', '/v1/responses/input_tokens'],
      ['GET', '/v1/responses/resp_1'],
      ['POST', '/v1/responses/resp_1/cancel'],
      ['POST', '/v1beta/models/m:countTokens'],
      ['GET', '/v1/models'],
      ['POST', '/v1/images/generations'],
      ['GET', '/'],
      ['POST', '/health'],
      ['POST', '/v1/chat/completionsX'],
    ] as const) {
      expect([method, url, isDirectRoute(method, url)]).toEqual([method, url, false]);
    }
  });
});
