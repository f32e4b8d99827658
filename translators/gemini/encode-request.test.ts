import { describe, expect, it } from 'vitest';
import type { ChatRequest, Message, Part, ToolChoice } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { gemini } from './index.ts';

const target = (model = 'gemini-2.5-flash', over: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  name: 'google',
  model,
  apiKey: 'AIza-secret',
  options: {},
  ...over,
});

const base = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'caller-model',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream: false,
  ...over,
});

function encode(req: ChatRequest, model?: string) {
  const { value, warnings } = gemini.encodeRequest(req, target(model), testContext());
  return { http: value, body: JSON.parse(value.body as string), warnings };
}

describe('encodeRequest: the HTTP request', () => {
  it('non-stream: generateContent, key in header only', () => {
    const { http } = encode(base());
    expect(http.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(http.method).toBe('POST');
    expect(http.headers['x-goog-api-key']).toBe('AIza-secret');
    expect(http.path).not.toContain('AIza');
    expect(http.stream).toBe(false);
  });

  it('stream: always alt=sse', () => {
    const { http } = encode(base({ stream: true }), 'models/gemini-2.0-flash');
    expect(http.path).toBe('/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
    expect(http.stream).toBe(true);
  });
});

describe('encodeRequest: body', () => {
  it('system, sampling, stop, penalties, candidates, logprobs, modalities', () => {
    const { body, warnings } = encode(
      base({
        system: [{ type: 'text', text: 'Be brief.' }],
        maxOutputTokens: 100,
        temperature: 0.3,
        topP: 0.8,
        topK: 20,
        seed: 1,
        presencePenalty: 0.5,
        frequencyPenalty: 0.25,
        candidateCount: 3,
        stop: ['a', 'b', 'c', 'd', 'e', 'f'],
        logprobs: true,
        topLogprobs: 2,
        modalities: ['text', 'image'],
        user: 'u1',
      }),
    );
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 100,
      temperature: 0.3,
      topP: 0.8,
      topK: 20,
      seed: 1,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
      candidateCount: 3,
      stopSequences: ['a', 'b', 'c', 'd', 'e'],
      responseLogprobs: true,
      logprobs: 2,
      responseModalities: ['TEXT', 'IMAGE'],
    });
    expect(warnings).toEqual([
      { code: 'clamped', path: 'stop', detail: '5', lossy: true },
      { code: 'dropped', path: 'user' },
    ]);
  });

  it('tools compile their schemas; empty parameters omitted; tool choice table', () => {
    const { body, warnings } = encode(
      base({
        tools: [
          {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
          },
          { name: 'now', parameters: { type: 'object', properties: {} } },
        ],
        toolChoice: { type: 'allowed', names: ['now'], mode: 'auto' },
      }),
    );
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'] } },
          { name: 'now' },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['now'] } });
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools[0].parameters.additionalProperties' }]);
  });

  it.each([
    [{ type: 'auto' }, { mode: 'AUTO' }],
    [{ type: 'none' }, { mode: 'NONE' }],
    [{ type: 'required' }, { mode: 'ANY' }],
    [{ type: 'tool', name: 'f' }, { mode: 'ANY', allowedFunctionNames: ['f'] }],
    [{ type: 'allowed', names: ['f', 'g'], mode: 'required' }, { mode: 'ANY', allowedFunctionNames: ['f', 'g'] }],
  ] as Array<[ToolChoice, unknown]>)('toolChoice %j → %j', (choice, config) => {
    expect(encode(base({ toolChoice: choice })).body.toolConfig).toEqual({ functionCallingConfig: config });
  });

  it('response formats', () => {
    expect(encode(base({ responseFormat: { type: 'json' } })).body.generationConfig).toEqual({ responseMimeType: 'application/json' });
    const { body } = encode(
      base({ responseFormat: { type: 'json-schema', name: 'x', schema: { type: 'object', properties: { a: { type: 'integer' } } } } }),
    );
    expect(body.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'OBJECT', properties: { a: { type: 'INTEGER' } } },
    });
  });

  it.each([
    [{ budgetTokens: 2048, includeThoughts: true }, 'gemini-2.5-flash', { thinkingBudget: 2048, includeThoughts: true }],
    [{ enabled: false }, 'gemini-2.5-flash', { thinkingBudget: 0 }],
    [{ effort: 'medium' }, 'gemini-2.5-flash', { thinkingBudget: 8192 }],
    [{ effort: 'high' }, 'gemini-2.5-pro', { thinkingBudget: 24576 }],
    [{ effort: 'low' }, 'gemini-3-pro-preview', { thinkingLevel: 'LOW' }],
    [{ effort: 'low', budgetTokens: 100 }, 'gemini-3-pro-preview', { thinkingBudget: 100 }],
  ] as const)('reasoning %j on %s → thinkingConfig %j', (reasoning, model, thinking) => {
    expect(encode(base({ reasoning: { ...reasoning } }), model).body.generationConfig).toEqual({ thinkingConfig: thinking });
  });

  it('gemini extras are replayed (dotted keys into their object); native tools too', () => {
    const { body, warnings } = encode(
      base({
        extras: {
          dialect: 'gemini',
          fields: {
            safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
            cachedContent: 'cachedContents/c1',
            'generationConfig.mediaResolution': 'MEDIA_RESOLUTION_LOW',
            'toolConfig.retrievalConfig': { languageCode: 'en' },
          },
        },
        nativeTools: [
          { dialect: 'gemini', definition: { googleSearch: {} } },
          { dialect: 'anthropic', definition: { type: 'bash_20241022', name: 'bash' } },
        ],
      }),
    );
    expect(body.safetySettings).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
    expect(body.cachedContent).toBe('cachedContents/c1');
    expect(body.generationConfig).toEqual({ mediaResolution: 'MEDIA_RESOLUTION_LOW' });
    expect(body.toolConfig).toEqual({ retrievalConfig: { languageCode: 'en' } });
    expect(body.tools).toEqual([{ googleSearch: {} }]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools.bash', lossy: true }]);
  });

  it('other dialects’ extras are dropped with one warning each', () => {
    const { body, warnings } = encode(base({ extras: { dialect: 'openai-chat', fields: { logit_bias: { 1: 2 }, service_tier: 'flex' } } }));
    expect(body.logit_bias).toBeUndefined();
    expect(warnings).toEqual([
      { code: 'dropped', path: 'logit_bias', lossy: true },
      { code: 'dropped', path: 'service_tier', lossy: true },
    ]);
  });

  it('media: base64 inline, data: URLs inlined, http URLs and file ids as fileData', () => {
    const { body } = encode(
      base({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBO' } },
              { type: 'image', source: { type: 'url', url: 'data:image/jpeg;base64,/9j/' } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/a.webp' } },
              { type: 'file', source: { type: 'file-id', id: '/v1beta/files/f1', mediaType: 'application/pdf' } },
              { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' },
            ],
          },
        ],
      }),
    );
    expect(body.contents[0].parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } },
      { fileData: { fileUri: 'https://example.com/a.webp', mimeType: 'image/webp' } },
      { fileData: { fileUri: '/v1beta/files/f1', mimeType: 'application/pdf' } },
      { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
    ]);
  });
});

describe('encodeRequest: tool loops', () => {
  const call = (id: string, name: string, args: string, signature?: { origin: 'gemini' | 'anthropic'; value: string }): Part => ({
    type: 'tool-call',
    id,
    name,
    arguments: args,
    ...(signature ? { signature } : {}),
  });
  const result = (callId: string, text: string, isError?: boolean): Part => ({
    type: 'tool-result',
    callId,
    content: [{ type: 'text', text }],
    ...(isError ? { isError } : {}),
  });

  it('parallel same-name calls: results paired by id, put in call order, names restored', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'read A and B' }] },
      {
        role: 'assistant',
        content: [call('call_1_0', 'read_screen', '{"id":"A"}', { origin: 'gemini', value: 'SIG' }), call('call_1_1', 'read_screen', '{"id":"B"}')],
      },
      // Results arrive out of order, each in its own message (OpenAI tool messages).
      { role: 'user', content: [result('call_1_1', 'screen B')] },
      { role: 'user', content: [result('call_1_0', '{"title":"A"}')] },
    ];
    const { body, warnings } = encode(base({ messages }));
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'read A and B' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'read_screen', args: { id: 'A' } }, thoughtSignature: 'SIG' },
          { functionCall: { name: 'read_screen', args: { id: 'B' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'read_screen', response: { title: 'A' } } },
          { functionResponse: { name: 'read_screen', response: { output: 'screen B' } } },
        ],
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('carrier ids pair with their plain ids; errors kept; a missing result is filled in', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [call('toolu_1', 'a', '{}'), call('toolu_2', 'b', ''), call('toolu_3', 'c', '{}')] },
      { role: 'user', content: [result('toolu_2__il1aYWJj', 'boom', true), result('toolu_1', '42'), { type: 'text', text: 'and now?' }] },
    ];
    const { body, warnings } = encode(base({ messages }));
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'a', response: { output: 42 } } },
        { functionResponse: { name: 'b', response: { error: 'boom' } } },
        { functionResponse: { name: 'c', response: { error: 'No result was provided for this call.' } } },
        { text: 'and now?' },
      ],
    });
    expect(warnings).toEqual([{ code: 'approximated', path: 'tool_result.toolu_3', detail: 'missing-result' }]);
  });

  it('a result that answers no call is refused', () => {
    expect(() => encode(base({ messages: [{ role: 'user', content: [result('nope', 'x')] }] }))).toThrow(/does not answer any tool call/);
  });

  it('signatures: gemini replayed on the part, foreign dropped with a warning, unsigned reasoning dropped', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'claude thinking', signature: { origin: 'anthropic', value: 'EuYB' } },
          { type: 'reasoning', text: 'plain thoughts' },
          { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque' } },
          { type: 'reasoning', text: 'gemini thoughts', signature: { origin: 'gemini', value: 'G1' } },
          { type: 'text', text: 'answer', signature: { origin: 'gemini', value: 'G2' } },
          { type: 'reasoning', text: '', signature: { origin: 'gemini', value: 'G3' } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ];
    const { body, warnings } = encode(base({ messages }));
    expect(body.contents[1].parts).toEqual([
      { text: 'gemini thoughts', thought: true, thoughtSignature: 'G1' },
      { text: 'answer', thoughtSignature: 'G2' },
      { text: '', thoughtSignature: 'G3' },
    ]);
    expect(warnings).toEqual([
      { code: 'signature-not-replayed', path: 'messages[1].content[0]' },
      { code: 'dropped', path: 'messages[1].content[1]', detail: 'reasoning' },
      { code: 'signature-not-replayed', path: 'messages[1].content[2]' },
    ]);
  });

  it('gemini 3: the first call of a model turn without a signature gets the validator-skip value', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [call('toolu_1', 'f', '{}', { origin: 'anthropic', value: 'x' }), call('toolu_2', 'f', '{}')] },
      { role: 'user', content: [result('toolu_1', 'a'), result('toolu_2', 'b')] },
    ];
    const g3 = encode(base({ messages }), 'gemini-3-pro-preview');
    expect(g3.body.contents[1].parts).toEqual([
      { functionCall: { name: 'f', args: {} }, thoughtSignature: 'skip_thought_signature_validator' },
      { functionCall: { name: 'f', args: {} } },
    ]);
    expect(g3.warnings).toEqual([{ code: 'signature-not-replayed', path: 'messages[1].content[0]' }]);
    expect(encode(base({ messages }), 'gemini-2.5-flash').body.contents[1].parts[0]).toEqual({ functionCall: { name: 'f', args: {} } });
  });
});

describe('countTokens', () => {
  it('encodes a generateContentRequest with system and tools; decodes totalTokens', () => {
    const req = gemini.encodeCountTokens!(
      base({ system: [{ type: 'text', text: 's' }], tools: [{ name: 'f', parameters: { type: 'object', properties: { a: { type: 'string' } } } }] }),
      target('models/gemini-2.5-flash'),
      testContext(),
    );
    expect(req.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(req.headers['x-goog-api-key']).toBe('AIza-secret');
    expect(JSON.parse(req.body as string)).toEqual({
      generateContentRequest: {
        model: 'models/gemini-2.5-flash',
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        systemInstruction: { parts: [{ text: 's' }] },
        tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING' } } } }] }],
      },
    });
    expect(gemini.decodeCountTokens!({ totalTokens: 31 })).toBe(31);
  });

  it('counts {} (proto3 leaves a zero out) as 0, and refuses any other shape as the upstream\'s error', () => {
    expect(gemini.decodeCountTokens!({})).toBe(0);
    expect(gemini.decodeCountTokens!({ totalTokens: 12, cachedContentTokenCount: 3, promptTokensDetails: [] })).toBe(12);
    expect(gemini.decodeCountTokens!({ cachedContentTokenCount: 0 })).toBe(0);
    for (const bad of [null, [], 'x', 7, { hello: 'world' }, { totalTokens: '31' }, { totalTokens: null }]) {
      expect(() => gemini.decodeCountTokens!(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ kind: 'upstream', status: 502 }));
    }
  });
});

describe('prompt-caching markers', () => {
  it('reports cache_control on messages as dropped, once', () => {
    const marked = base({
      system: [{ type: 'text', text: 'long system prompt', cache: {} }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache: {} }] }],
    });
    const { warnings } = gemini.encodeRequest(marked, target(), testContext());
    expect(warnings.filter((w) => w.path === 'cache_control')).toEqual([{ code: 'dropped', path: 'cache_control' }]);
    expect(gemini.encodeRequest(base(), target(), testContext()).warnings.some((w) => w.path === 'cache_control')).toBe(false);
  });
});

describe('countTokens body for Vertex AI', () => {
  it("'direct' sends the fields themselves, not the generateContentRequest wrapper", () => {
    const req = base({ system: [{ type: 'text', text: 'S' }], temperature: 0.2 });
    const wrapped = JSON.parse(gemini.encodeCountTokens!(req, target(), testContext()).body as string);
    expect(Object.keys(wrapped)).toEqual(['generateContentRequest']);
    const direct = JSON.parse(gemini.encodeCountTokens!(req, target('gemini-2.5-flash', { options: { countTokensBody: 'direct' } }), testContext()).body as string);
    expect(direct.generateContentRequest).toBeUndefined();
    expect(direct.contents).toEqual(wrapped.generateContentRequest.contents);
    expect(direct.systemInstruction).toEqual(wrapped.generateContentRequest.systemInstruction);
    expect(direct.model).toBeUndefined();
  });
});

describe('tool results with several text parts', () => {
  it('keep their separation in the functionResponse', () => {
    const req = base({
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'run', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'tool-result', callId: 'c1', name: 'run', content: [{ type: 'text', text: 'line one' }, { type: 'text', text: '```py\nprint(1)\n```' }] }] },
      ],
    });
    const body = JSON.parse(gemini.encodeRequest(req, target(), testContext()).value.body as string);
    const fr = body.contents.flatMap((c: { parts: Array<{ functionResponse?: { response: { output: string } } }> }) => c.parts).find((p: { functionResponse?: unknown }) => p.functionResponse);
    expect(fr.functionResponse.response.output).toBe('line one\n```py\nprint(1)\n```');
  });
});

describe('encodeRequest: contents details', () => {
  const text = (t: string): Part => ({ type: 'text', text: t });
  const named = (callId: string, name: string, t: string): Part => ({ type: 'tool-result', callId, name, content: [text(t)] });

  it('results whose ids match no call pair by name, each call answered once, in call order', () => {
    const messages: Message[] = [
      { role: 'user', content: [text('go')] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'c1', name: 'weather', arguments: '{}' },
          { type: 'tool-call', id: 'c2', name: 'time', arguments: '{}' },
          { type: 'tool-call', id: 'c3', name: 'weather', arguments: '{"b":1}' },
        ],
      },
      { role: 'user', content: [named('x9', 'time', 'noon'), named('x7', 'weather', 'rain'), named('x8', 'weather', 'sun')] },
      { role: 'user', content: [text('then?')] },
    ];
    const { body, warnings } = encode(base({ messages }));
    expect(body.contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'weather', response: { output: 'rain' } } },
        { functionResponse: { name: 'time', response: { output: 'noon' } } },
        { functionResponse: { name: 'weather', response: { output: 'sun' } } },
        { text: 'then?' },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it("a late result for an earlier turn's call goes after this turn's results", () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' }] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: [text('a')] }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c2', name: 'g', arguments: '{}' }] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: [text('late')] }, { type: 'tool-result', callId: 'c2', content: [text('b')] }] },
    ];
    expect(encode(base({ messages })).body.contents[3]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'g', response: { output: 'b' } } }, { functionResponse: { name: 'f', response: { output: 'late' } } }],
    });
  });

  it('call arguments: a non-object wrapped as value, invalid JSON dropped (lossy), blank as {}', () => {
    const messages: Message[] = [
      { role: 'user', content: [text('go')] },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'c1', name: 'f', arguments: '[1,2]' },
          { type: 'tool-call', id: 'c2', name: 'f', arguments: '{oops' },
          { type: 'tool-call', id: 'c3', name: 'f', arguments: '  ' },
        ],
      },
    ];
    const { body, warnings } = encode(base({ messages }));
    expect(body.contents[1].parts.map((p: any) => p.functionCall.args)).toEqual([{ value: [1, 2] }, {}, {}]);
    expect(warnings).toEqual([
      { code: 'approximated', path: 'messages[1].content[0].arguments', detail: 'non-object-arguments' },
      { code: 'approximated', path: 'messages[1].content[1].arguments', detail: 'invalid-json-arguments', lossy: true },
    ]);
  });

  it('media types: from the audio format, the URL extension, else a default per kind; empty texts left out', () => {
    const file = (id: string) => ({ type: 'file-id' as const, id });
    const url = (u: string) => ({ type: 'url' as const, url: u });
    const { body } = encode(
      base({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'audio', source: file('files/a'), format: 'mp3' },
              { type: 'audio', source: file('files/b'), format: 'flac' },
              { type: 'audio', source: file('files/c') },
              { type: 'image', source: url('https://x/y.PNG?sig=1#f') },
              { type: 'image', source: url('https://x/y') },
              { type: 'image', source: url('https://x/y.xyz') },
              { type: 'file', source: url('https://x/doc') },
              { type: 'file', source: file('files/d') },
              { type: 'image', source: file('files/e') },
              text(''),
              { type: 'refusal', text: '' },
              { type: 'refusal', text: 'no' },
            ],
          },
        ],
      }),
    );
    expect(body.contents[0].parts).toEqual([
      { fileData: { fileUri: 'files/a', mimeType: 'audio/mp3' } },
      { fileData: { fileUri: 'files/b', mimeType: 'audio/flac' } },
      { fileData: { fileUri: 'files/c', mimeType: 'audio/wav' } },
      { fileData: { fileUri: 'https://x/y.PNG?sig=1#f', mimeType: 'image/png' } },
      { fileData: { fileUri: 'https://x/y', mimeType: 'image/jpeg' } },
      { fileData: { fileUri: 'https://x/y.xyz', mimeType: 'image/jpeg' } },
      { fileData: { fileUri: 'https://x/doc', mimeType: 'application/pdf' } },
      { fileData: { fileUri: 'files/d', mimeType: 'application/pdf' } },
      { fileData: { fileUri: 'files/e', mimeType: 'image/jpeg' } },
      { text: 'no' },
    ]);
  });

  it("a tool result's media follows its response, typed by kind when the source names none", () => {
    const messages: Message[] = [
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool-result',
            callId: 'c1',
            content: [
              { type: 'image', source: { type: 'file-id', id: 'files/i' } },
              { type: 'audio', source: { type: 'file-id', id: 'files/a' } },
              { type: 'file', source: { type: 'file-id', id: 'files/f' } },
              text('[1]'),
            ],
          },
        ],
      },
    ];
    expect(encode(base({ messages })).body.contents[2].parts).toEqual([
      { functionResponse: { name: 'f', response: { output: [1] } } },
      { fileData: { fileUri: 'files/i', mimeType: 'image/jpeg' } },
      { fileData: { fileUri: 'files/a', mimeType: 'audio/wav' } },
      { fileData: { fileUri: 'files/f', mimeType: 'application/pdf' } },
    ]);
  });

  it('consecutive model turns merge into one; unsigned reasoning is dropped and reported', () => {
    const messages: Message[] = [
      { role: 'user', content: [text('go')] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'hmm' }, { type: 'reasoning', text: '' }, text('a')] },
      { role: 'assistant', content: [text('b')] },
      { role: 'assistant', content: [] },
    ];
    const { body, warnings } = encode(base({ messages }));
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ text: 'a' }, { text: 'b' }] },
    ]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'messages[1].content[0]', detail: 'reasoning' }]);
  });
});

describe('encodeRequest: what is left out, and what is reported', () => {
  function encodeWith(req: ChatRequest, model = 'gemini-2.5-flash', over: Partial<UpstreamTarget> = {}) {
    const { value, warnings } = gemini.encodeRequest(req, target(model, over), testContext());
    return { http: value, body: JSON.parse(value.body as string), warnings };
  }

  it('empty system text, tools, stop and modalities send no field at all', () => {
    const { body, warnings } = encodeWith(base({ system: [{ type: 'text', text: '' }], tools: [], stop: [], modalities: [], reasoning: {} }));
    expect(body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(warnings).toEqual([]);
  });

  it('system media, strict and cached tools, foreign native tools, parallel_tool_calls:false, a sixth stop are reported', () => {
    const { body, warnings } = encodeWith(
      base({
        system: [{ type: 'text', text: 'S' }, { type: 'image', source: { type: 'url', url: 'https://x/a.png' } } as never],
        tools: [{ name: 'a', strict: true, cache: { ttl: '5m' } }],
        nativeTools: [
          { dialect: 'anthropic', definition: { type: 'web_search_20250305', name: 'web_search' }, path: 'tools[1]' },
          { dialect: 'openai-responses', definition: { type: 'web_search' } },
        ],
        parallelToolCalls: false,
        stop: ['1', '2', '3', '4', '5', '6'],
      }),
    );
    expect(body).toMatchObject({ systemInstruction: { parts: [{ text: 'S' }] }, tools: [{ functionDeclarations: [{ name: 'a' }] }], generationConfig: { stopSequences: ['1', '2', '3', '4', '5'] } });
    expect(warnings).toEqual([
      { code: 'dropped', path: 'system[1]', detail: 'image', lossy: true },
      { code: 'dropped', path: 'tools[0].strict' },
      { code: 'dropped', path: 'tools[0].cache_control' },
      { code: 'dropped', path: 'tools[1]', detail: 'web_search', lossy: true },
      { code: 'dropped', path: 'tools.web_search', lossy: true },
      { code: 'dropped', path: 'parallelToolCalls' },
      { code: 'clamped', path: 'stop', detail: '5', lossy: true },
    ]);
    expect(encodeWith(base({ parallelToolCalls: true, stop: ['1', '2', '3', '4', '5'] })).warnings).toEqual([]);
  });

  it('thinking: disabled sends a zero budget and never includeThoughts; includeThoughts alone is sent alone', () => {
    expect(encodeWith(base({ reasoning: { enabled: false, includeThoughts: true } })).body.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    expect(encodeWith(base({ reasoning: { includeThoughts: false } }), 'gemini-3-pro-preview').body.generationConfig).toEqual({ thinkingConfig: { includeThoughts: false } });
  });

  it('headers: JSON, the upstream options headers, the key only when there is one', () => {
    expect(encodeWith(base()).http.headers).toEqual({ 'content-type': 'application/json', 'x-goog-api-key': 'AIza-secret' });
    expect(encodeWith(base(), 'gemini-2.5-flash', { apiKey: '', options: { headers: { 'x-goog-user-project': 'p1' } } }).http.headers).toEqual({
      'content-type': 'application/json',
      'x-goog-user-project': 'p1',
    });
  });
});
