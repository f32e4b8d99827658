import { describe, expect, it } from 'vitest';
import { decodeReasoning, type ChatRequest, type ChatResponse, type Part } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { encodeResponse, isoSeconds } from './encode-response.ts';

const req: ChatRequest = { model: 'gemini-3-flash-preview', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

const summaries: ChatRequest = { ...req, reasoning: { includeThoughts: true } };

function response(content: Part[], unified: ChatResponse['choices'][0]['finishReason']['unified'] = 'stop', extra: Partial<ChatResponse> = {}): ChatResponse {
  return { id: 'chatcmpl-1', model: 'claude-sonnet-4-5', created: 1, choices: [{ index: 0, content, finishReason: { unified } }], ...extra };
}

const encode = (res: ChatResponse, r = req) => encodeResponse(res, r, testContext()) as Record<string, any>;

describe('Interactions encodeResponse', () => {
  it('a text answer: id, object, model, status, one model_output step, usage, ISO times to the second', () => {
    const out = encode(response([{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there.' }], 'stop', { usage: { inputTokens: 3, outputTokens: 12, totalTokens: 15, reasoningTokens: 4 } }));
    expect(out).toEqual({
      id: 'v1_test0001',
      object: 'interaction',
      model: 'claude-sonnet-4-5',
      status: 'completed',
      steps: [{ type: 'model_output', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'there.' }] }],
      usage: { total_input_tokens: 3, total_output_tokens: 8, total_thought_tokens: 4, total_cached_tokens: 0, total_tokens: 15 },
      created: '2023-11-14T22:13:20Z',
      updated: '2023-11-14T22:13:20Z',
    });
    expect(isoSeconds(1_700_000_000_999)).toBe('2023-11-14T22:13:20Z');
  });

  it('an Interactions id is kept; previous_interaction_id echoed from the request extras', () => {
    const withPrev: ChatRequest = { ...req, extras: { dialect: 'gemini-interactions', fields: { previous_interaction_id: 'v1_prev' } } };
    const out = encode(response([{ type: 'text', text: 'x' }], 'stop', { id: 'v1_upstream' }), withPrev);
    expect(out.id).toBe('v1_upstream');
    expect(out.previous_interaction_id).toBe('v1_prev');
    expect(encode(response([{ type: 'text', text: 'x' }])).previous_interaction_id).toBeUndefined();
  });

  it('function calls: a function_call step with object arguments, status requires_action', () => {
    const out = encode(response([{ type: 'text', text: 'Let me look.' }, { type: 'tool-call', id: 'toolu_1', name: 'get_weather', arguments: '{"location":"Paris"}' }, { type: 'tool-call', id: 'toolu_2', name: 'now', arguments: '' }], 'tool-calls'));
    expect(out.status).toBe('requires_action');
    expect(out.steps).toEqual([
      { type: 'model_output', content: [{ type: 'text', text: 'Let me look.' }] },
      { type: 'function_call', id: 'toolu_1', name: 'get_weather', arguments: { location: 'Paris' } },
      { type: 'function_call', id: 'toolu_2', name: 'now', arguments: {} },
    ]);
  });

  it('a Gemini signature on a call goes in a thought step just before it; on text, just after its output', () => {
    const sig = { origin: 'gemini' as const, value: 'EqQBraw' };
    const out = encode(response([{ type: 'text', text: 'Hi', signature: sig }, { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}', signature: sig }], 'tool-calls'));
    expect(out.steps).toEqual([
      { type: 'model_output', content: [{ type: 'text', text: 'Hi' }] },
      { type: 'thought', signature: 'EqQBraw' },
      { type: 'thought', signature: 'EqQBraw' },
      { type: 'function_call', id: 'c1', name: 'f', arguments: {} },
    ]);
  });

  it('reasoning: Gemini signature raw; another vendor\'s block whole in the carrier; summary only when asked', () => {
    const gemini: Part = { type: 'reasoning', text: 'Thinking about it.', signature: { origin: 'gemini', value: 'EqYDraw' } };
    const anthropic: Part = { type: 'reasoning', text: 'Signed thinking.', signature: { origin: 'anthropic', value: 'ErUBsig' } };
    const redacted: Part = { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque' } };
    const plain: Part = { type: 'reasoning', text: 'No signature at all.' };
    const parts = [gemini, anthropic, redacted, plain, { type: 'text' as const, text: 'Answer.' }];

    const hidden = encode(response(parts)).steps;
    expect(hidden).toHaveLength(4); // the unsigned, unsummarised block has nothing to show
    expect(hidden[0]).toEqual({ type: 'thought', signature: 'EqYDraw' });
    expect(decodeReasoning(hidden[1].signature)).toEqual({ text: 'Signed thinking.', signature: { origin: 'anthropic', value: 'ErUBsig' } });
    expect(hidden[1].summary).toBeUndefined();
    expect(decodeReasoning(hidden[2].signature)).toEqual({ text: '', redacted: { origin: 'anthropic', value: 'opaque' } });
    expect(hidden[1].signature).toMatch(/^[A-Za-z0-9+/]+=*$/);

    const shown = encode(response(parts), summaries).steps;
    expect(shown[0]).toEqual({ type: 'thought', signature: 'EqYDraw', summary: [{ type: 'text', text: 'Thinking about it.' }] });
    expect(shown[2].summary).toEqual([]);
    expect(shown[3]).toEqual({ type: 'thought', summary: [{ type: 'text', text: 'No signature at all.' }] });
    expect(shown[4]).toEqual({ type: 'model_output', content: [{ type: 'text', text: 'Answer.' }] });
  });

  it('images inline and by URL; refusals as text', () => {
    const out = encode(response([
      { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
      { type: 'refusal', text: 'I cannot help with that.' },
    ]));
    expect(out.steps).toEqual([{ type: 'model_output', content: [
      { type: 'image', data: 'iVBORw0KGgo=', mime_type: 'image/png' },
      { type: 'image', uri: 'https://example.com/cat.png' },
      { type: 'text', text: 'I cannot help with that.' },
    ] }]);
  });

  it('statuses: incomplete for length, content filter and a blocked prompt; failed with errors', () => {
    expect(encode(response([{ type: 'text', text: 'Once' }], 'length')).status).toBe('incomplete');
    expect(encode(response([], 'content-filter')).status).toBe('incomplete');
    expect(encode({ id: 'x', model: 'm', created: 1, choices: [], promptBlocked: { reason: 'SAFETY' } }).status).toBe('incomplete');
    const failed = encode(response([], 'error'));
    expect(failed.status).toBe('failed');
    expect(failed.errors).toEqual([{ code: 'internal', message: expect.stringContaining('error') }]);
  });
});

describe('Interactions encodeResponse: the less common answers', () => {
  const req: ChatRequest = { model: 'gemini-3-flash-preview', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

  const response = (content: Part[], finishReason: ChatResponse['choices'][0]['finishReason'] = { unified: 'stop' }): ChatResponse => ({
    id: 'v1_up',
    model: 'm',
    created: 1,
    choices: [{ index: 0, content, finishReason }],
  });

  const encode = (res: ChatResponse, r = req) => encodeResponse(res, r, testContext()) as Record<string, any>;

  const steps = (content: Part[]) => encode(response(content)).steps as Array<Record<string, any>>;

  it.each([
    ['{"a":[1]}', { a: [1] }],
    ['', {}],
    ['[1,2]', {}],
    ['null', {}],
    ['"text"', {}],
    ['{"a":', {}],
  ])('call arguments %j → %j', (text, args) => {
    expect(steps([{ type: 'tool-call', id: 'c', name: 'f', arguments: text }])).toEqual([{ type: 'function_call', id: 'c', name: 'f', arguments: args }]);
  });

  it('media by URL and by file handle, with and without a type; audio; files are documents', () => {
    expect(
      steps([
        { type: 'image', source: { type: 'url', url: 'https://x/a.png', mediaType: 'image/png' } },
        { type: 'image', source: { type: 'file-id', id: 'files/i' } },
        { type: 'audio', source: { type: 'file-id', id: 'files/s', mediaType: 'audio/wav' } },
        { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
        { type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'never in an answer' }] },
      ]),
    ).toEqual([
      {
        type: 'model_output',
        content: [
          { type: 'image', uri: 'https://x/a.png', mime_type: 'image/png' },
          { type: 'image', uri: 'files/i' },
          { type: 'audio', uri: 'files/s', mime_type: 'audio/wav' },
          { type: 'document', data: 'JVBE', mime_type: 'application/pdf' },
        ],
      },
    ]);
    expect(() => steps([{ type: 'bogus' } as unknown as Part])).toThrow('unhandled part');
  });

  it('another vendor’s signature on text or a call rides in a carrier with no text of its own; a refusal after signed text keeps it', () => {
    const sig = { origin: 'openai' as const, value: 'enc' };
    const out = steps([{ type: 'text', text: 'a', signature: sig }, { type: 'refusal', text: 'no' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}', signature: sig }]);
    expect(out.map((s) => s.type)).toEqual(['model_output', 'thought', 'thought', 'function_call']);
    expect(out[0]!.content).toEqual([{ type: 'text', text: 'a' }, { type: 'text', text: 'no' }]);
    expect(decodeReasoning(out[1]!.signature)).toEqual({ text: '', signature: sig });
    expect(decodeReasoning(out[2]!.signature)).toEqual({ text: '', signature: sig });
  });

  it('a call after text with a plain stop still waits for its result (requires_action); no choice at all is completed and empty', () => {
    expect(encode(response([{ type: 'text', text: 'a' }, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }])).status).toBe('requires_action');
    expect(encode(response([{ type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }, { type: 'text', text: 'a' }])).status).toBe('requires_action');
    expect(encode({ id: 'v1_x', model: 'm', created: 1, choices: [] })).toMatchObject({ status: 'completed', steps: [] });
    expect(encode({ ...response([{ type: 'text', text: 'a' }]), promptBlocked: { reason: 'SAFETY' } }).status).toBe('completed');
  });

  it('a failed answer names the upstream reason when it has one', () => {
    expect(encode(response([], { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' })).errors).toEqual([{ code: 'internal', message: "The model's output ended in an error (MALFORMED_FUNCTION_CALL)." }]);
    expect(encode(response([], { unified: 'error' })).errors).toEqual([{ code: 'internal', message: "The model's output ended in an error." }]);
  });

  it('previous_interaction_id from the hints too; not when it is not a string or the extras are another dialect’s', () => {
    const prev = (extras: ChatRequest['extras']) => encode(response([]), { ...req, extras }).previous_interaction_id;
    expect(prev({ dialect: 'gemini-interactions', fields: {}, hints: { previous_interaction_id: 'v1_h' } })).toBe('v1_h');
    expect(prev({ dialect: 'gemini-interactions', fields: {} })).toBeUndefined();
    expect(prev({ dialect: 'gemini-interactions', fields: { previous_interaction_id: 5 } })).toBeUndefined();
    expect(prev({ dialect: 'openai-responses', fields: { previous_interaction_id: 'v1_o' } } as ChatRequest['extras'])).toBeUndefined();
  });
});

describe('Interactions encodeResponse: searches and annotations', () => {
  const search: Part = { type: 'web-search', id: 'srvtoolu_1', kind: 'search', queries: ['q'], results: [], raw: { dialect: 'anthropic', value: [] } };

  it('a search between texts closes the output before it (and the text’s signature after it); text after it is another output', () => {
    const out = encode(response([{ type: 'text', text: 'a', signature: { origin: 'gemini', value: 'S' } }, search, { type: 'text', text: 'b' }]));
    expect(out.steps.map((s: { type: string }) => s.type)).toEqual(['model_output', 'thought', 'google_search_call', 'google_search_result', 'model_output']);
    expect(out.steps[1]).toEqual({ type: 'thought', signature: 'S' });
    expect(out.steps[4]).toEqual({ type: 'model_output', content: [{ type: 'text', text: 'b' }] });
  });

  it('this API’s own annotations go back as they were; text without citations and refusals carry none', () => {
    const own = { type: 'url_citation', url: 'https://a.org', title: 'A', start_index: 0, end_index: 1 };
    const out = encode(response([
      { type: 'text', text: 'x', citations: [{ url: 'https://a.org', raw: { dialect: 'gemini-interactions', value: own } }] },
      { type: 'text', text: 'y', citations: [] },
      { type: 'refusal', text: 'no' },
    ]));
    expect(out.steps).toEqual([{ type: 'model_output', content: [{ type: 'text', text: 'x', annotations: [own] }, { type: 'text', text: 'y' }, { type: 'text', text: 'no' }] }]);
  });

  it('a search alone is its steps, and a search answer with no call is completed', () => {
    const out = encode(response([search]));
    expect(out.status).toBe('completed');
    expect(out.steps.map((s: { type: string }) => s.type)).toEqual(['google_search_call', 'google_search_result']);
  });
});

describe('Interactions encodeResponse: what each step leaves out', () => {
  it('an unsigned thought shown as a summary has no signature field; one not shown is no step', () => {
    expect(encode(response([{ type: 'reasoning', text: 'why' }, { type: 'text', text: 'a' }]), summaries).steps).toStrictEqual([
      { type: 'thought', summary: [{ type: 'text', text: 'why' }] },
      { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
    ]);
    expect(encode(response([{ type: 'reasoning', text: 'why' }, { type: 'text', text: 'a' }])).steps).toStrictEqual([{ type: 'model_output', content: [{ type: 'text', text: 'a' }] }]);
  });

  it('unsigned text after signed text in the same output keeps the signature for the thought after it', () => {
    expect(encode(response([{ type: 'text', text: 'a', signature: { origin: 'gemini', value: 'S' } }, { type: 'text', text: 'b' }])).steps).toStrictEqual([
      { type: 'model_output', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { type: 'thought', signature: 'S' },
    ]);
  });

  it('a file as the first part opens the output as a document', () => {
    expect(encode(response([{ type: 'file', source: { type: 'url', url: 'https://a.org/x.pdf', mediaType: 'application/pdf' } }, { type: 'text', text: 't' }])).steps).toStrictEqual([
      { type: 'model_output', content: [{ type: 'document', uri: 'https://a.org/x.pdf', mime_type: 'application/pdf' }, { type: 'text', text: 't' }] },
    ]);
  });
});
