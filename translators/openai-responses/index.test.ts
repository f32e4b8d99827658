import { describe, expect, it } from 'vitest';
import { fixtureJson, fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { openaiResponses as d } from './index.ts';

type Data = Record<string, any>;

const target = { name: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-5.1', apiKey: 'sk-up', options: {} };
const input = (body: unknown, params: Record<string, string> = {}) => ({ body, headers: {}, params, query: {} });

describe('the Responses dialect object', () => {
  it('speaks OpenAI, takes freeform tools and media by URL, and answers with one output list', () => {
    expect(d).toMatchObject({ id: 'openai-responses', vendor: 'openai', inlineMediaOnly: false, multipleChoices: false, customTools: true });
  });

  it('a Codex turn through a Responses upstream: the request decoded and re-encoded, the stream decoded and re-encoded', () => {
    const ctx = testContext();
    const req = d.decodeRequest(input(fixtureJson('openai-responses', 'codex-reasoning-summaries-apply-patch.request.json')), ctx).value;
    const http = d.encodeRequest(req, target, ctx).value;
    expect(http).toMatchObject({ method: 'POST', path: '/responses', stream: true });
    expect(JSON.parse(http.body as string)).toMatchObject({ model: 'gpt-5.1', store: false, include: ['reasoning.encrypted_content'] });
    const dec = d.createStreamDecoder(req, ctx);
    const enc = d.createStreamEncoder(req, ctx);
    const frames = fixtureSse('openai-responses', 'stream-codex-reasoning-summaries-apply-patch.sse')
      .flatMap((e) => dec.push(e))
      .concat(dec.finish())
      .flatMap((e) => enc.push(e))
      .concat(enc.finish());
    expect(frames.at(-1)).toMatchObject({ event: 'response.completed' });
    const items = frames.filter((f) => f.event === 'response.output_item.done').map((f) => (JSON.parse(f.data) as Data)['item']['type']);
    expect(items).toEqual(['reasoning', 'message', 'custom_tool_call']);
    const count = d.encodeCountTokens!(req, target, ctx);
    expect(count.path).toBe('/responses/input_tokens');
    expect(d.decodeCountTokens!({ input_tokens: 7 })).toBe(7);
  });
});
