import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { encodeSignature, encodeToolCallId, ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';

const dir = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const requestFixtures = readdirSync(dir).filter((f) => f.endsWith('.request.json'));

function decode(body: unknown) {
  return decodeRequest({ body, headers: {}, params: {}, query: {} }, testContext());
}

function base(extra: Record<string, unknown> = {}) {
  return { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...extra };
}

/** The ProxyError a body is rejected with. */
function rejection(body: unknown): ProxyError {
  try {
    decode(body);
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    return e as ProxyError;
  }
  throw new Error('expected a rejection');
}

describe('decodeRequest: fixtures', () => {
  test.each(requestFixtures)('%s decodes', (name) => {
    const wire = fixtureJson('openai-chat', name);
    const { value } = decode(wire);
    expect(value.model).toBe(wire.model);
    expect(value.stream).toBe(wire.stream === true);
    expect(value.messages.length).toBeGreaterThan(0);
  });

  test('text-basic', () => {
    expect(decode(fixtureJson('openai-chat', 'text-basic.request.json')).value).toEqual({
      model: 'gpt-4o-2024-08-06',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: "What's the weather like in SF?" }] }],
      stream: false,
    } satisfies ChatRequest);
  });

  test('json_schema response format, max_tokens, n', () => {
    const v = decode(fixtureJson('openai-chat', 'finish-length.request.json')).value;
    expect(v.maxOutputTokens).toBe(1);
    expect(v.responseFormat).toMatchObject({ type: 'json-schema', name: 'Location', strict: true });
    expect((v.responseFormat as unknown as { schema: { required: string[] } }).schema.required).toEqual(['city', 'temperature', 'units']);
    expect(decode(fixtureJson('openai-chat', 'n3-multiple-choices.request.json')).value.candidateCount).toBe(3);
  });

  test('image data URL → base64 image part', () => {
    const v = decode(fixtureJson('openai-chat', 'image-input.request.json')).value;
    expect(v.maxOutputTokens).toBe(50);
    const [text, image] = v.messages[0]!.content;
    expect(text).toEqual({ type: 'text', text: 'What is in this image?' });
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', mediaType: 'image/jpeg' } });
    expect((image as { source: { data: string } }).source.data.startsWith('/9j/4AAQ')).toBe(true);
  });

  test('multi-turn tool results: consecutive tool messages share one user message', () => {
    const v = decode(fixtureJson('openai-chat', 'multi-turn-tool-results.request.json')).value;
    expect(v.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'user']);
    expect(v.messages[2]!.content).toEqual([
      {
        type: 'tool-call',
        id: 'call_fdNz3vOBKYgOIpMdWotB9MjY',
        name: 'GetWeatherArgs',
        arguments: '{"city": "Edinburgh", "country": "GB", "units": "c"}',
      },
      {
        type: 'tool-call',
        id: 'call_h1DWI1POMJLb0KwIyQHWXD4p',
        name: 'get_stock_price',
        arguments: '{"ticker": "AAPL", "exchange": "NASDAQ"}',
      },
    ]);
    expect(v.messages[3]!.content).toEqual([
      {
        type: 'tool-result',
        callId: 'call_fdNz3vOBKYgOIpMdWotB9MjY',
        content: [{ type: 'text', text: '{"city": "Edinburgh", "temperature": 11, "units": "c"}' }],
      },
      {
        type: 'tool-result',
        callId: 'call_h1DWI1POMJLb0KwIyQHWXD4p',
        content: [{ type: 'text', text: '{"ticker": "AAPL", "price": 227.52}' }],
      },
    ]);
    expect(v.tools).toHaveLength(2);
    expect(v.tools![0]).toMatchObject({ name: 'GetWeatherArgs', strict: true });
  });

  test('stream without stream_options has no streamUsage', () => {
    const v = decode(fixtureJson('openai-chat', 'stream-text-no-usage.request.json')).value;
    expect(v.stream).toBe(true);
    expect(v.streamUsage).toBeUndefined();
  });
});

describe('decodeRequest: roles and parts', () => {
  test('system and developer lead; a later one is moved with a warning', () => {
    const { value, warnings } = decode({
      model: 'm',
      messages: [
        { role: 'developer', content: 'dev' },
        { role: 'system', content: [{ type: 'text', text: 'sys' }] },
        { role: 'user', content: 'u' },
        { role: 'system', content: 'late' },
      ],
    });
    expect(value.system).toEqual([
      { type: 'text', text: 'dev' },
      { type: 'text', text: 'sys' },
      { type: 'text', text: 'late' },
    ]);
    expect(value.messages).toHaveLength(1);
    expect(warnings).toEqual([expect.objectContaining({ code: 'approximated', path: 'messages[3]' })]);
  });

  test('user parts: image url with detail, audio, files', () => {
    const { value } = decode(
      base({
        messages: [
          {
            role: 'user',
            name: 'alice',
            content: [
              { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'low' } },
              { type: 'input_audio', input_audio: { data: 'UklGR', format: 'wav' } },
              { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER', filename: 'a.pdf' } },
              { type: 'file', file: { file_data: 'JVBER', filename: 'b.pdf' } },
              { type: 'file', file: { file_id: 'file-abc' } },
            ],
          },
        ],
      }),
    );
    expect(value.messages[0]).toEqual({
      role: 'user',
      name: 'alice',
      content: [
        { type: 'image', source: { type: 'url', url: 'https://x/y.png' }, detail: 'low' },
        { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklGR' }, format: 'wav' },
        { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'a.pdf' },
        { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'b.pdf' },
        { type: 'file', source: { type: 'file-id', id: 'file-abc' } },
      ],
    });
  });

  test('assistant: content array, refusal, audio id, reasoning_details carrier, tool-call carriers', () => {
    const sig = { origin: 'anthropic' as const, value: 'EqQBCkYIBxgCKkD' };
    const redacted = { origin: 'anthropic' as const, value: 'opaque' };
    const { value } = decode(
      base({
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [{ type: 'text', text: 'a' }, { type: 'refusal', refusal: 'r1' }],
            refusal: 'r2',
            audio: { id: 'audio_1' },
            reasoning_content: 'ignored when details exist',
            reasoning_details: [
              { type: 'reasoning.text', text: 'think', signature: encodeSignature(sig) },
              { type: 'reasoning.encrypted', data: encodeSignature(redacted) },
            ],
            tool_calls: [
              { id: encodeToolCallId('call_1', { origin: 'gemini', value: 'g1' }), type: 'function', function: { name: 'f', arguments: '{}' } },
              {
                id: 'call_2',
                type: 'function',
                function: { name: 'g', arguments: '{}' },
                extra_content: { google: { thought_signature: 'g2' } },
              },
            ],
          },
          { role: 'tool', tool_call_id: encodeToolCallId('call_1', { origin: 'gemini', value: 'g1' }), content: [{ type: 'text', text: 'ok' }] },
        ],
      }),
    );
    expect(value.messages[1]!.content).toEqual([
      { type: 'reasoning', text: 'think', signature: sig },
      { type: 'reasoning', text: '', redacted },
      { type: 'text', text: 'a' },
      { type: 'refusal', text: 'r1' },
      { type: 'refusal', text: 'r2' },
      { type: 'audio', source: { type: 'file-id', id: 'audio_1' } },
      { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'g1' } },
      { type: 'tool-call', id: 'call_2', name: 'g', arguments: '{}', signature: { origin: 'gemini', value: 'g2' } },
    ]);
    expect(value.messages[2]!.content[0]).toMatchObject({ type: 'tool-result', callId: 'call_1' });
  });

  test('assistant reasoning_content without details → unsigned reasoning part', () => {
    const { value } = decode(
      base({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a', reasoning_content: 'hmm' }] }),
    );
    expect(value.messages[1]!.content).toEqual([
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: 'a' },
    ]);
  });

  test('deprecated functions, function_call and function role share a synthesized id', () => {
    const { value } = decode({
      model: 'm',
      functions: [{ name: 'get_time', parameters: { type: 'object', properties: {} } }],
      function_call: { name: 'get_time' },
      messages: [
        { role: 'user', content: 'time?' },
        { role: 'assistant', content: null, function_call: { name: 'get_time', arguments: '{}' } },
        { role: 'function', name: 'get_time', content: '12:00' },
      ],
    });
    const call = value.messages[1]!.content[0] as { id: string };
    expect(value.messages[1]!.content[0]).toMatchObject({ type: 'tool-call', name: 'get_time', arguments: '{}' });
    expect(value.messages[2]!.content).toEqual([
      { type: 'tool-result', callId: call.id, name: 'get_time', content: [{ type: 'text', text: '12:00' }] },
    ]);
    expect(value.tools).toEqual([{ name: 'get_time', parameters: { type: 'object', properties: {} } }]);
    expect(value.toolChoice).toEqual({ type: 'tool', name: 'get_time' });
    expect(value.extras).toMatchObject({ dialect: 'openai-chat', legacyFunctions: true });
  });
});

describe('decodeRequest: parameters', () => {
  test('every knob', () => {
    const { value } = decode(
      base({
        temperature: 0.5,
        top_p: 0.9,
        presence_penalty: -1,
        frequency_penalty: 1.5,
        n: 2,
        logprobs: true,
        top_logprobs: 3,
        stop: 'END',
        max_tokens: 10,
        max_completion_tokens: 20,
        seed: 7,
        user: 'u1',
        stream: true,
        stream_options: { include_usage: true, include_obfuscation: false },
        parallel_tool_calls: false,
        reasoning_effort: 'minimal',
        modalities: ['text', 'audio'],
        metadata: { k: 'v' },
        logit_bias: { '50256': -100 },
        service_tier: 'flex',
        store: true,
        prediction: { type: 'content', content: 'x' },
        audio: { format: 'wav', voice: 'alloy' },
        web_search_options: { search_context_size: 'low' },
        some_future_field: 1,
        tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' }, strict: false } }],
        tool_choice: 'required',
        response_format: { type: 'json_object' },
      }),
    );
    expect(value).toMatchObject({
      temperature: 0.5,
      topP: 0.9,
      presencePenalty: -1,
      frequencyPenalty: 1.5,
      candidateCount: 2,
      logprobs: true,
      topLogprobs: 3,
      stop: ['END'],
      maxOutputTokens: 20,
      seed: 7,
      user: 'u1',
      stream: true,
      streamUsage: true,
      parallelToolCalls: false,
      reasoning: { effort: 'minimal' },
      modalities: ['text', 'audio'],
      metadata: { k: 'v' },
      tools: [{ name: 'f', description: 'd', parameters: { type: 'object' }, strict: false }],
      toolChoice: { type: 'required' },
      responseFormat: { type: 'json' },
      nativeTools: [
        {
          dialect: 'openai-chat',
          definition: { web_search_options: { search_context_size: 'low' } },
          path: 'web_search_options',
          web: { kind: 'search', contextSize: 'low' },
        },
      ],
    });
    expect(value.extras).toEqual({
      dialect: 'openai-chat',
      fields: {
        logit_bias: { '50256': -100 },
        service_tier: 'flex',
        store: true,
        prediction: { type: 'content', content: 'x' },
        audio: { format: 'wav', voice: 'alloy' },
        some_future_field: 1,
        stream_options: { include_obfuscation: false },
      },
    });
  });

  test('tool_choice forms', () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    expect(decode(base({ tools, tool_choice: 'none' })).value.toolChoice).toEqual({ type: 'none' });
    expect(decode(base({ tools, tool_choice: { type: 'function', function: { name: 'f' } } })).value.toolChoice).toEqual({
      type: 'tool',
      name: 'f',
    });
    expect(
      decode(
        base({
          tools,
          tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'f' } }] } },
        }),
      ).value.toolChoice,
    ).toEqual({ type: 'allowed', mode: 'required', names: ['f'] });
  });

  test('reasoning_effort none and xhigh', () => {
    expect(decode(base({ reasoning_effort: 'none' })).value.reasoning).toEqual({ enabled: false });
    const x = decode(base({ reasoning_effort: 'xhigh' }));
    expect(x.value.reasoning).toEqual({ effort: 'high' });
    expect(x.warnings[0]).toMatchObject({ code: 'approximated', path: 'reasoning_effort' });
  });

  test('stop array and json_schema without schema', () => {
    const v = decode(base({ stop: ['a', 'b'], response_format: { type: 'json_schema', json_schema: { name: 'n' } } })).value;
    expect(v.stop).toEqual(['a', 'b']);
    expect(v.responseFormat).toEqual({ type: 'json-schema', name: 'n', schema: {} });
  });
});

describe('decodeRequest: validation like OpenAI', () => {
  const cases: Array<[string, unknown, string, string | RegExp]> = [
    ['temperature above', base({ temperature: 3 }), 'temperature', "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead."],
    ['temperature below', base({ temperature: -0.5 }), 'temperature', "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -0.5 instead."],
    ['temperature type', base({ temperature: 'hot' }), 'temperature', "Invalid type for 'temperature': expected a decimal, but got a string instead."],
    // Integers say so from the first check (OpenAI's words), not "a decimal".
    ['n type', base({ n: 'two' }), 'n', "Invalid type for 'n': expected an integer, but got a string instead."],
    ['seed type', base({ seed: 'x' }), 'seed', "Invalid type for 'seed': expected an integer, but got a string instead."],
    ['max_completion_tokens type', base({ max_completion_tokens: null, max_tokens: 'x' }), 'max_tokens', "Invalid type for 'max_tokens': expected an integer, but got a string instead."],
    ['top_p', base({ top_p: 1.5 }), 'top_p', /Expected a value <= 1, but got 1.5/],
    ['presence_penalty', base({ presence_penalty: -3 }), 'presence_penalty', /Expected a value >= -2, but got -3/],
    ['frequency_penalty', base({ frequency_penalty: 2.5 }), 'frequency_penalty', /Expected a value <= 2, but got 2.5/],
    ['top_logprobs range', base({ logprobs: true, top_logprobs: 21 }), 'top_logprobs', /integer above maximum value. Expected a value <= 20, but got 21/],
    ['top_logprobs needs logprobs', base({ top_logprobs: 2 }), 'top_logprobs', "The 'top_logprobs' parameter is only allowed when 'logprobs' is enabled."],
    ['stop count', base({ stop: ['a', 'b', 'c', 'd', 'e'] }), 'stop', "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length 5 instead."],
    ['stop type', base({ stop: 5 }), 'stop', /Invalid type for 'stop'/],
    [
      'tools count',
      base({ tools: Array.from({ length: 129 }, (_, i) => ({ type: 'function', function: { name: `f${i}` } })) }),
      'tools',
      /array too long. Expected an array with maximum length 128, but got an array with length 129/,
    ],
    ['tool name pattern', base({ tools: [{ type: 'function', function: { name: 'bad name' } }] }), 'tools[0].function.name', /does not match pattern/],
    ['tool name length', base({ tools: [{ type: 'function', function: { name: 'x'.repeat(65) } }] }), 'tools[0].function.name', /maximum length 64, but got a string with length 65/],
    ['tool name missing', base({ tools: [{ type: 'function', function: {} }] }), 'tools[0].function.name', "Missing required parameter: 'tools[0].function.name'."],
    ['function name', base({ functions: [{ name: 'a.b' }] }), 'functions[0].name', /does not match pattern/],
    [
      'schema name',
      base({ response_format: { type: 'json_schema', json_schema: { name: 'has space', schema: {} } } }),
      'response_format.json_schema.name',
      /does not match pattern/,
    ],
    ['response_format type', base({ response_format: { type: 'xml' } }), 'response_format.type', /Invalid value: 'xml'/],
    [
      'metadata pairs',
      base({ metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }),
      'metadata',
      /at most 16 properties, but got an object with 17 properties/,
    ],
    ['metadata key', base({ metadata: { ['k'.repeat(65)]: 'v' } }), 'metadata', /maximum length 64/],
    ['metadata value length', base({ metadata: { k: 'v'.repeat(513) } }), 'metadata.k', /maximum length 512/],
    ['metadata value type', base({ metadata: { k: 1 } }), 'metadata.k', /expected a string, but got an integer/],
    ['logit_bias', base({ logit_bias: { '1': 101 } }), 'logit_bias.1', /Expected a value <= 100, but got 101/],
    ['n min', base({ n: 0 }), 'n', "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead."],
    ['n max', base({ n: 129 }), 'n', /Expected a value <= 128/],
    ['n integer', base({ n: 1.5 }), 'n', /expected an integer, but got a decimal/],
    ['messages missing', { model: 'm' }, 'messages', "Missing required parameter: 'messages'."],
    ['messages empty', { model: 'm', messages: [] }, 'messages', /empty array/],
    ['messages type', { model: 'm', messages: 'hi' }, 'messages', /expected an array, but got a string/],
    ['model missing', { messages: [{ role: 'user', content: 'x' }] }, 'model', "Missing required parameter: 'model'."],
    ['model type', { model: 4, messages: [{ role: 'user', content: 'x' }] }, 'model', /expected a string, but got an integer/],
    [
      'unknown role',
      { model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }, { role: 'robot', content: 'x' }] },
      'messages[2].role',
      "Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
    ],
    ['message not an object', { model: 'm', messages: [null] }, 'messages[0]', /expected an object, but got null/],
    ['content missing', { model: 'm', messages: [{ role: 'user' }] }, 'messages[0].content', /Missing required parameter/],
    ['part type', { model: 'm', messages: [{ role: 'user', content: [{ type: 'video' }] }] }, 'messages[0].content[0].type', /Invalid value: 'video'/],
    ['image url', { model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url', /Missing/],
    [
      'audio format',
      { model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'ogg' } }] }] },
      'messages[0].content[0].input_audio.format',
      /Supported values are: 'wav', and 'mp3'/,
    ],
    ['empty file', { model: 'm', messages: [{ role: 'user', content: [{ type: 'file', file: {} }] }] }, 'messages[0].content[0].file', /file_data/],
    ['system image', { model: 'm', messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }, 'messages[0].content[0].type', /Invalid value/],
    ['tool_call_id', { model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id', /Missing/],
    ['assistant empty', { model: 'm', messages: [{ role: 'assistant' }] }, 'messages[0].content', /tool_calls/],
    [
      'tool call arguments',
      { model: 'm', messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] }] },
      'messages[0].tool_calls[0].function.arguments',
      /expected a string, but got an object/,
    ],
    ['tool_choice without tools', base({ tool_choice: 'auto' }), 'tool_choice', /only allowed when 'tools'/],
    ['tool_choice value', base({ tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: 'always' }), 'tool_choice', /Invalid value for 'tool_choice'/],
    ['reasoning_effort', base({ reasoning_effort: 'max' }), 'reasoning_effort', /Invalid value: 'max'/],
    ['stream_options without stream', base({ stream_options: { include_usage: true } }), 'stream_options', /only allowed when 'stream'/],
    ['stream type', base({ stream: 'yes' }), 'stream', /expected a boolean/],
  ];
  test.each(cases)('%s', (_, body, param, message) => {
    const err = rejection(body);
    expect(err.kind).toBe('invalid-request');
    expect(err.status).toBe(400);
    expect(err.param).toBe(param);
    if (typeof message === 'string') expect(err.message).toBe(message);
    else expect(err.message).toMatch(message);
  });

  test.each([
    [base({ temperature: 3 }), 'decimal_above_max_value'],
    [base({ n: 0 }), 'integer_below_min_value'],
    [base({ temperature: 'x' }), 'invalid_type'],
    [{ model: 'm' }, 'missing_required_parameter'],
    [{ model: 'm', messages: [] }, 'empty_array'],
    [base({ stop: ['1', '2', '3', '4', '5'] }), 'array_above_max_length'],
    [base({ reasoning_effort: 'max' }), 'invalid_value'],
  ])('OpenAI code for %j is %s', (body, code) => {
    expect(rejection(body).code).toBe(code);
  });

  test.each([null, 42, 'text', [], [1, 2], true])('non-object body %j is a 400, never a TypeError', (body) => {
    expect(rejection(body).kind).toBe('invalid-request');
  });

  test('junk in every nested position never throws a TypeError', () => {
    const junk = [null, 1, 'x', [], {}, [null], true];
    const shapes = (j: unknown) => [
      base({ messages: [j] }),
      base({ messages: [{ role: 'user', content: [j] }] }),
      base({ messages: [{ role: 'assistant', content: j, tool_calls: [j] }] }),
      base({ messages: [{ role: 'assistant', content: null, tool_calls: j }] }),
      base({ messages: [{ role: 'assistant', content: 'x', reasoning_details: [j] }] }),
      base({ tools: [j] }),
      base({ tools: j }),
      base({ tool_choice: j, tools: [{ type: 'function', function: { name: 'f' } }] }),
      base({ response_format: j }),
      base({ metadata: j }),
      base({ stop: j }),
      base({ functions: [j] }),
    ];
    for (const j of junk) {
      for (const body of shapes(j)) {
        try {
          decode(body);
        } catch (e) {
          expect(e).toBeInstanceOf(ProxyError);
        }
      }
    }
  });
});

describe('turns the fixtures do not show', () => {
  const calls = { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'g', arguments: '{}' } }] };
  const result = (callId: string, text: string, name?: string) => ({ type: 'tool-result', callId, ...(name ? { name } : {}), content: [{ type: 'text', text }] });
  const text = (t: string) => ({ type: 'text', text: t });

  test('consecutive tool messages are one turn of results; a user message in between starts a new one', () => {
    const together = decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, calls, { role: 'tool', tool_call_id: 'a', content: 'ra' }, { role: 'tool', tool_call_id: 'b', content: 'rb' }, { role: 'user', content: 'next' }] });
    expect(together.value.messages.slice(2)).toEqual([{ role: 'user', content: [result('a', 'ra'), result('b', 'rb')] }, { role: 'user', content: [text('next')] }]);
    const apart = decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, calls, { role: 'tool', tool_call_id: 'a', content: 'ra' }, { role: 'user', content: 'mid' }, { role: 'tool', tool_call_id: 'b', content: 'rb' }] });
    expect(apart.value.messages.slice(2)).toEqual([{ role: 'user', content: [result('a', 'ra')] }, { role: 'user', content: [text('mid')] }, { role: 'user', content: [result('b', 'rb')] }]);
  });

  test('a legacy function result answers the call it names, in the same turn as tool results after it', () => {
    const { value } = decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' } }, { role: 'function', name: 'f', content: 'r' }, { role: 'tool', tool_call_id: 'x', content: 'ry' }] });
    expect(value.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_test0001', name: 'f', arguments: '{}' }] },
      { role: 'user', content: [result('call_test0001', 'r', 'f'), result('x', 'ry')] },
    ]);
  });

  test('empty assistant text beside tool calls is left out, alone it is kept; names stay on user and assistant, not system', () => {
    const { value } = decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'assistant', content: '' }] });
    expect(value.messages.slice(1).map((m) => m.content)).toEqual([[{ type: 'tool-call', id: 'a', name: 'f', arguments: '{}' }], [text('')]]);
    const named = decode({ model: 'm', messages: [{ role: 'system', content: 'S', name: 'sys' }, { role: 'user', content: 'q', name: 'u' }, { role: 'assistant', content: 'a', name: 'bot' }] });
    expect(named.value.messages).toEqual([{ role: 'user', content: [text('q')], name: 'u' }, { role: 'assistant', content: [text('a')], name: 'bot' }]);
    expect(named.warnings).toEqual([{ code: 'dropped', path: 'messages[0].name' }]);
  });

  test('an assistant turn without content needs a refusal, audio or calls; a late developer message moves to the system prompt', () => {
    expect(decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: null, refusal: 'No.' }] }).value.messages[1]!.content).toEqual([{ type: 'refusal', text: 'No.' }]);
    expect(decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: null, audio: { id: 'audio_1' } }] }).value.messages[1]!.content).toEqual([{ type: 'audio', source: { type: 'file-id', id: 'audio_1' } }]);
    try {
      decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: null }] });
      expect.unreachable();
    } catch (e) {
      expect([(e as ProxyError).param, (e as ProxyError).message]).toEqual(['messages[1].content', "Invalid value for 'messages[1].content': expected a string or an array of parts unless 'tool_calls' or 'function_call' is given."]);
    }
    const late = decode({ model: 'm', messages: [{ role: 'user', content: 'q' }, { role: 'developer', content: 'be brief' }] });
    expect(late.value.system).toEqual([text('be brief')]);
    expect(late.warnings).toEqual([{ code: 'approximated', path: 'messages[1]', detail: 'developer message moved into the system prompt' }]);
  });
});
