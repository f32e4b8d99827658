import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeResponse } from './encode-response.ts';

const req: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

const decode = (body: unknown) => decodeResponse(body, req, testContext());

const fixture = (name: string) => decode(fixtureJson('gemini-interactions', name));

const content = (steps: unknown[]) => decode({ id: 'v1_x', status: 'completed', steps }).choices[0]!.content;

describe('Interactions decodeResponse', () => {
  it('text: id, model, created from the ISO time, finish stop, usage', () => {
    const res = fixture('interaction-text.json');
    expect(res).toMatchObject({ id: 'v1_ChdDeEF4YVlfTUdZZnRqTWNQc2JfRHFBYxIXQ3hBeGFZX01HWWZ0ak1jUHNiX0RxQWM', model: 'gemini-3-flash-preview', created: Date.parse('2026-06-20T10:00:00Z') / 1000 });
    expect(res.choices[0]).toEqual({ index: 0, content: [{ type: 'text', text: expect.stringContaining('outstanding in his field') }], finishReason: { unified: 'stop', raw: 'completed' } });
    expect(res.usage).toEqual({ inputTokens: 9, outputTokens: 17, totalTokens: 26, reasoningTokens: 0 });
  });

  it('a thought with summary and signature, then the answer; thought tokens inside the output', () => {
    const res = fixture('interaction-thinking-summary.json');
    expect(res.choices[0]!.content).toEqual([
      { type: 'reasoning', text: expect.stringContaining('**Weighing the two options**'), signature: { origin: 'gemini', value: expect.stringMatching(/^EqYD/) } },
      { type: 'text', text: expect.stringContaining('heat pump') },
    ]);
    expect(res.usage).toEqual({ inputTokens: 11, outputTokens: 335, totalTokens: 346, reasoningTokens: 245 });
  });

  it('a function call: the signature of the thought before it on the call, arguments as JSON text, finish tool-calls', () => {
    const res = fixture('interaction-function-call.json');
    expect(res.choices[0]!.content).toEqual([
      { type: 'tool-call', id: 'fc_9d2c41e7', name: 'get_weather', arguments: '{"location":"Paris, France","unit":"celsius"}', signature: { origin: 'gemini', value: expect.stringMatching(/^CtQB/) } },
    ]);
    expect(res.choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'requires_action' });
  });

  it('leading user_input steps are skipped; incomplete is length', () => {
    expect(fixture('interaction-get-with-input.json').choices[0]!.content).toEqual([{ type: 'text', text: 'Bonjour !' }]);
    expect(fixture('interaction-incomplete-max-output-tokens.json').choices[0]!.finishReason).toEqual({ unified: 'length', raw: 'incomplete' });
  });

  it('media contents and hosted-tool steps', () => {
    const res = decode({
      id: 'v1_m',
      status: 'completed',
      steps: [
        { type: 'code_execution_call', id: 'ce1', arguments: { code: 'print(1)' }, signature: 'Eq' },
        { type: 'model_output', content: [{ type: 'image', data: 'iVBO', mime_type: 'image/png' }, { type: 'audio', uri: 'https://a/b.wav', mime_type: 'audio/wav' }, { type: 'document', data: 'JVBE', mime_type: 'application/pdf' }] },
      ],
    });
    expect(res.choices[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', data: 'iVBO', mediaType: 'image/png' } },
      { type: 'audio', source: { type: 'url', url: 'https://a/b.wav', mediaType: 'audio/wav' } },
      { type: 'file', source: { type: 'base64', data: 'JVBE', mediaType: 'application/pdf' } },
    ]);
    expect(res.model).toBe('caller-model');
  });

  it('a failed Interaction is its error; a body that is not an Interaction is a 502', () => {
    expect(() => decode({ id: 'v1_f', status: 'failed', errors: [{ code: 'resource_exhausted', message: 'Quota.' }] })).toThrow(expect.objectContaining({ kind: 'rate-limit', message: 'Quota.' }));
    for (const bad of [{}, [], 'text', null, { id: 5 }, { id: 'v1_x', steps: 'no' }]) {
      let err: unknown;
      try {
        decode(bad);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(bad)).toBeInstanceOf(ProxyError);
      expect(err).toMatchObject({ kind: 'upstream', status: 502 });
    }
  });

  it('round trip: what encodeResponse writes decodes back to the same parts (a call\'s signature back on the call)', () => {
    const sig = { origin: 'gemini' as const, value: 'EqYDraw' };
    const res = { id: 'v1_r', model: 'gemini-3-flash-preview', created: 1_700_000_000, choices: [{ index: 0, content: [
      { type: 'reasoning' as const, text: 'Hmm.', signature: sig },
      { type: 'text' as const, text: 'Calling.' },
      { type: 'tool-call' as const, id: 'c1', name: 'f', arguments: '{"a":1}' },
      { type: 'tool-call' as const, id: 'c2', name: 'g', arguments: '{}', signature: { origin: 'gemini' as const, value: 'CtQBcall' } },
    ], finishReason: { unified: 'tool-calls' as const } }], usage: { inputTokens: 5, outputTokens: 9, totalTokens: 14, reasoningTokens: 3 } };
    const wire = encodeResponse(res, { ...req, reasoning: { includeThoughts: true } }, testContext());
    const back = decode(JSON.parse(JSON.stringify(wire)));
    expect(back.choices[0]!.content).toEqual(res.choices[0]!.content);
    expect(back.choices[0]!.finishReason.unified).toBe('tool-calls');
    expect(back.usage).toEqual(res.usage);
    expect(back.id).toBe('v1_r');
  });
});

describe('Interactions decodeResponse: the less common bodies', () => {
  it('an Interaction with a status but no id, model or time gets a fresh id, the caller’s model and now', () => {
    expect(decode({ status: 'completed', steps: [] })).toEqual({
      id: 'v1_test0001',
      model: 'caller-model',
      created: 1_700_000_000,
      choices: [{ index: 0, content: [], finishReason: { unified: 'stop', raw: 'completed' } }],
    });
  });

  it('media: inline without a type is octet-stream, videos are files, a media content with neither data nor uri is left out', () => {
    expect(
      content([
        {
          type: 'model_output',
          content: [
            { type: 'image', data: 'AA==' },
            { type: 'video', uri: 'files/v', mime_type: 'video/mp4' },
            { type: 'audio' },
            { type: 'document', uri: 'files/d' },
          ],
        },
      ]),
    ).toEqual([
      { type: 'image', source: { type: 'base64', data: 'AA==', mediaType: 'application/octet-stream' } },
      { type: 'file', source: { type: 'url', url: 'files/v', mediaType: 'video/mp4' } },
      { type: 'file', source: { type: 'url', url: 'files/d' } },
    ]);
  });

  it('summary contents join with a blank line; a thought with neither summary nor signature is nothing', () => {
    expect(content([{ type: 'thought', summary: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AA==' }, { type: 'text', text: 'b' }] }, { type: 'thought', summary: [] }])).toEqual([
      { type: 'reasoning', text: 'a\n\nb' },
    ]);
  });

  it('a summarised, signed thought before a call: its text stays reasoning, its signature goes on the call', () => {
    expect(content([{ type: 'thought', signature: 'EqS', summary: [{ type: 'text', text: 'plan' }] }, { type: 'function_call', id: 'c', name: 'f', arguments: { a: 1 } }])).toEqual([
      { type: 'reasoning', text: 'plan' },
      { type: 'tool-call', id: 'c', name: 'f', arguments: '{"a":1}', signature: { origin: 'gemini', value: 'EqS' } },
    ]);
  });

  it('a body that is not an Interaction is reported with the body (cut), or nothing when there was none', () => {
    const raw = (body: unknown) => {
      try {
        decode(body);
      } catch (e) {
        expect(e).toBeInstanceOf(ProxyError);
        expect((e as ProxyError).message).toBe('The upstream returned a body that is not an Interaction.');
        return (e as ProxyError & { raw?: unknown }).raw;
      }
      throw new Error('expected an error');
    };
    expect(raw([1, 2])).toBe('[1,2]');
    expect(raw({ note: 'x'.repeat(3000) })).toHaveLength(2000);
    expect(raw(undefined)).toBe('');
  });
});

describe('Interactions decodeResponse: search steps among the others', () => {
  const call = (id: string, type = 'google_search_call') => ({ type, id, arguments: type === 'google_search_call' ? { queries: ['q'] } : { urls: ['https://r.org'] } });
  const text = (t: string, url?: string) => ({ type: 'model_output', content: [{ type: 'text', text: t, ...(url ? { annotations: [{ type: 'url_citation', url }] } : {}) }] });

  it('a search stands where its result step is; a step that is not an object gives nothing', () => {
    const parts = content([null, call('g'), text('a'), { type: 'google_search_result', call_id: 'g', result: [] }, text('b')]);
    expect(parts.map((p) => p.type)).toEqual(['text', 'web-search', 'text']);
  });

  it('every search without pages of its own gets the pages all text parts cite; a page read keeps its own', () => {
    const parts = content([
      { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
      call('g1'),
      { type: 'google_search_result', call_id: 'g1', result: [] },
      call('u1', 'url_context_call'),
      { type: 'url_context_result', call_id: 'u1', result: [{ url: 'https://r.org', status: 'success' }] },
      text('a', 'https://a.org'),
      call('g2'),
      text('b', 'https://b.org'),
    ]);
    expect(parts.map((p) => p.type)).toEqual(['web-search', 'web-search', 'text', 'text', 'web-search']);
    expect(parts.flatMap((p) => (p.type === 'web-search' ? [[p.id, p.results.map((r) => r.url)]] : []))).toEqual([
      ['g1', ['https://a.org', 'https://b.org']],
      ['u1', ['https://r.org']],
      ['g2', ['https://a.org', 'https://b.org']],
    ]);
  });

  it('a text content without annotations has no citations', () => {
    expect(content([text('plain')])).toEqual([{ type: 'text', text: 'plain' }]);
    expect(content([{ type: 'model_output', content: [{ type: 'text', text: 'x', annotations: [] }] }])).toEqual([{ type: 'text', text: 'x' }]);
  });
});

describe('Interactions decodeResponse: steps and contents of the wrong shape are left out', () => {
  it('contents that are not contents give no part, the others theirs', () => {
    expect(content([{ type: 'model_output', content: [{ type: 'text' }, 'junk', { type: 'sticker', data: 'AA==' }, { type: 'text', text: 'ok' }] }])).toStrictEqual([{ type: 'text', text: 'ok' }]);
  });

  it('summary entries that are not contents add no text', () => {
    expect(content([{ type: 'thought', summary: [{ type: 'text', text: 'a' }, { type: 'bogus' }, 7, { type: 'text', text: 'b' }] }])).toStrictEqual([{ type: 'reasoning', text: 'a\n\nb' }]);
  });

  it('a thought, an output or a call whose fields have the wrong types gives nothing', () => {
    expect(content([
      { type: 'thought', signature: 5, summary: [{ type: 'text', text: 'x' }] },
      { type: 'model_output', content: 'not a list' },
      { type: 'function_call', name: 'f', arguments: {} },
      { type: 'function_call', id: 'c', name: 'f', arguments: [1] },
      { type: 'model_output', content: [{ type: 'text', text: 'kept' }] },
    ])).toStrictEqual([{ type: 'text', text: 'kept' }]);
  });

  it('a signed thought as the last step keeps its signature; a call after no thought has none', () => {
    expect(content([{ type: 'function_call', id: 'c', name: 'f' }, { type: 'thought', signature: 'EqLast' }])).toStrictEqual([
      { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' },
      { type: 'reasoning', text: '', signature: { origin: 'gemini', value: 'EqLast' } },
    ]);
  });

  it('a signed thought before a text, then a call: the signature stays on the thought, not on the call', () => {
    expect(content([{ type: 'thought', signature: 'EqT' }, { type: 'model_output', content: [{ type: 'text', text: 't' }] }, { type: 'function_call', id: 'c', name: 'f' }])).toStrictEqual([
      { type: 'reasoning', text: '', signature: { origin: 'gemini', value: 'EqT' } },
      { type: 'text', text: 't' },
      { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' },
    ]);
  });

  it('an Interaction with an id but no status is one; completed with a call finishes for tool calls, without one it stops', () => {
    expect(decode({ id: 'v1_only', steps: [] })).toMatchObject({ id: 'v1_only', choices: [{ finishReason: { unified: 'stop', raw: 'completed' } }] });
    expect(decode({ id: 'v1_c', status: 'completed', steps: [{ type: 'function_call', id: 'c', name: 'f' }] }).choices[0]!.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
    expect(decode({ id: 'v1_c', status: 'completed', steps: [{ type: 'thought', signature: 'S' }, { type: 'model_output', content: [{ type: 'text', text: 'x' }] }] }).choices[0]!.finishReason).toEqual({ unified: 'stop', raw: 'completed' });
  });

  it('a search given the pages the answer cites', () => {
    const parts = content([
      { type: 'google_search_call', id: 'g', arguments: { queries: ['q'] } },
      { type: 'google_search_result', call_id: 'g', result: [{ search_suggestions: '<div/>' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'Yes.', annotations: [{ type: 'url_citation', url: 'https://a.org', title: 'A', start_index: 0, end_index: 3 }] }] },
    ]);
    expect(parts[0]).toMatchObject({ type: 'web-search', id: 'g', results: [{ url: 'https://a.org', title: 'A' }] });
    expect(parts[1]).toMatchObject({ type: 'text', text: 'Yes.', citations: [{ url: 'https://a.org', title: 'A', span: { start: 0, end: 3 } }] });
  });
});
