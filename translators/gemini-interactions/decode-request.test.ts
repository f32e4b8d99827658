import { describe, expect, it } from 'vitest';
import { encodeReasoning, encodeSignature, ProxyError } from '../../src/canonical/index.ts';
import { fixtureJson } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const decode = (body: unknown) => decodeRequest({ body, headers: {}, params: {}, query: {} });
const base = { model: 'gemini-3-flash-preview' };

function fails(body: unknown): ProxyError {
  const e = proxyErrorOf(() => decode(body));
  expect(e.kind).toBe('invalid-request');
  expect(e.status).toBe(400);
  return e;
}

describe('decodeRequest: the stateless function-calling turn (docs streaming guide)', () => {
  const stateless = () => decode(fixtureJson('gemini-interactions', 'function-calling-stateless.request.json'));

  it('steps become messages: the user turn, the model turn (thought + call), the results', () => {
    const { value: req, warnings } = stateless();
    expect(req.model).toBe('gemini-3-flash-preview');
    expect(req.system).toEqual([{ type: 'text', text: 'You are a weather assistant. Answer in one sentence.' }]);
    expect(req.messages.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['reasoning', 'tool-call']],
      ['user', ['tool-result']],
    ]);
    expect(warnings).toEqual([]);
  });

  it('the raw Gemini signature of the thought before a call goes on the call (as generateContent has it); the summary stays thought text', () => {
    const { value: req } = stateless();
    const [thought, call] = req.messages[1]!.content;
    expect(thought).toEqual({ type: 'reasoning', text: '**Checking the weather**\nI should call get_weather for Paris.' });
    expect(call).toEqual({
      type: 'tool-call',
      id: 'fc_7k2m9q',
      name: 'get_weather',
      arguments: '{"location":"Paris, France"}',
      signature: { origin: 'gemini', value: 'EpwCCpkCAXLI2nyWeatherThoughtSignatureFromTurnOne==' },
    });
  });

  it('a Gemini thought before anything but a call stays a signed reasoning part; one without summary before a call adds no part', () => {
    const { value } = decode({
      ...base,
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
        { type: 'thought', signature: 'EqSig1', summary: [{ type: 'text', text: 'hmm' }] },
        { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
        { type: 'thought', signature: 'EqSig2' },
        { type: 'function_call', id: 'c', name: 'f', arguments: {} },
      ],
    });
    expect(value.messages[1]!.content).toEqual([
      { type: 'reasoning', text: 'hmm', signature: { origin: 'gemini', value: 'EqSig1' } },
      { type: 'text', text: 'a' },
      { type: 'tool-call', id: 'c', name: 'f', arguments: '{}', signature: { origin: 'gemini', value: 'EqSig2' } },
    ]);
  });

  it('an object result is its JSON text, paired by call_id, with the name', () => {
    const { value: req } = stateless();
    expect(req.messages[2]!.content[0]).toEqual({
      type: 'tool-result',
      callId: 'fc_7k2m9q',
      name: 'get_weather',
      content: [{ type: 'text', text: '{"temperature_c":18,"sky":"overcast"}' }],
    });
  });

  it('function tools with their JSON Schema; Google Search a Gemini built-in at tools[1]', () => {
    const { value: req } = stateless();
    expect(req.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Gets the weather for a given location.',
        parameters: expect.objectContaining({ type: 'object', required: ['location'] }),
      },
    ]);
    expect(req.nativeTools).toEqual([{ dialect: 'gemini', definition: { googleSearch: {} }, path: 'tools[1]', web: { kind: 'search' } }]);
  });

  it('generation_config: thinking level and summaries, tool choice, max tokens; store is a hint', () => {
    const { value: req } = stateless();
    expect(req.reasoning).toEqual({ effort: 'low', includeThoughts: true });
    expect(req.toolChoice).toEqual({ type: 'auto' });
    expect(req.maxOutputTokens).toBe(1024);
    expect(req.stream).toBe(false);
    expect(req.extras).toEqual({ dialect: 'gemini-interactions', fields: {}, hints: { store: false } });
  });
});

describe('decodeRequest: a content list with structured output (one user turn)', () => {
  const structured = () => decode(fixtureJson('gemini-interactions', 'structured-output-image.request.json'));

  it('is one user message: text, an inline image, a document by uri', () => {
    const { value: req } = structured();
    expect(req.messages).toHaveLength(1);
    const [text, image, doc] = req.messages[0]!.content;
    expect(text).toEqual({ type: 'text', text: 'List the fruits in this picture.' });
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: expect.stringMatching(/^iVBOR/) } });
    expect(doc).toEqual({ type: 'file', source: { type: 'url', url: 'https://generativelanguage.googleapis.com/v1beta/files/abc123', mediaType: 'application/pdf' } });
  });

  it('response_format with a schema is canonical structured output; sampling and stream read', () => {
    const { value: req } = structured();
    expect(req.responseFormat).toEqual({ type: 'json-schema', schema: expect.objectContaining({ required: ['fruits'] }) });
    expect(req).toMatchObject({ temperature: 0.2, seed: 7, stop: ['END'], stream: true, streamUsage: true });
    expect(req.extras).toBeUndefined();
  });
});

describe('decodeRequest: input forms', () => {
  it('a function_call whose arguments are a list is a 400 naming them (not an empty object)', () => {
    const step = (args: unknown) => ({ ...base, input: [{ type: 'user_input', content: [{ type: 'text', text: 'hi' }] }, { type: 'function_call', id: 'c1', name: 'f', arguments: args }] });
    for (const args of [[], [1, 2]]) {
      const e = fails(step(args));
      expect(e.param).toBe('input[1].arguments');
      expect(e.message).toContain('expected an object, got a list');
    }
    const call = decode(step({ a: 1 })).value.messages[1]!.content[0];
    expect(call).toMatchObject({ type: 'tool-call', arguments: '{"a":1}' });
  });

  it('a string is one user text', () => {
    expect(decode({ ...base, input: 'Hi' }).value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('one content is one user part; audio and video read by their media type', () => {
    expect(decode({ ...base, input: { type: 'audio', data: 'AAAA', mime_type: 'audio/mpeg' } }).value.messages[0]!.content).toEqual([
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'AAAA' }, format: 'mp3' },
    ]);
    expect(decode({ ...base, input: [{ type: 'video', uri: 'gs://b/v.mp4', mime_type: 'video/mp4' }] }).value.messages[0]!.content).toEqual([
      { type: 'file', source: { type: 'url', url: 'gs://b/v.mp4', mediaType: 'video/mp4' } },
    ]);
  });

  it('model_output steps make assistant text; consecutive model steps one message; consecutive results one', () => {
    const { value } = decode({
      ...base,
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'a' }] },
        { type: 'model_output', content: [{ type: 'text', text: 'b' }] },
        { type: 'function_call', id: 'c1', name: 'f', arguments: {} },
        { type: 'function_call', id: 'c2', name: 'g', arguments: { x: 1 } },
        { type: 'function_result', call_id: 'c1', result: 'ok' },
        { type: 'function_result', call_id: 'c2', result: [{ type: 'text', text: 'bad' }, { type: 'image', data: 'AA==', mime_type: 'image/png' }], is_error: true },
        { type: 'user_input', content: [{ type: 'text', text: 'next' }] },
      ],
    });
    expect(value.messages.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['text', 'tool-call', 'tool-call']],
      ['user', ['tool-result', 'tool-result']],
      ['user', ['text']],
    ]);
    expect(value.messages[2]!.content[1]).toEqual({
      type: 'tool-result',
      callId: 'c2',
      isError: true,
      content: [{ type: 'text', text: 'bad' }, { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AA==' } }],
    });
  });

  it('a thought signature that is the reasoning carrier gives back the other vendor’s block whole', () => {
    const sig = encodeReasoning({ text: 'Anthropic signed this.', signature: { origin: 'anthropic', value: 'ErUBsig' } });
    const redacted = encodeReasoning({ text: '', redacted: { origin: 'anthropic', value: 'opaque' } });
    const v1 = encodeSignature({ origin: 'anthropic', value: 'old' });
    const { value } = decode({
      ...base,
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
        { type: 'thought', signature: sig, summary: [] },
        { type: 'thought', signature: redacted },
        { type: 'thought', signature: v1, summary: [{ type: 'text', text: 'summary' }] },
        { type: 'thought', summary: [{ type: 'text', text: 'unsigned' }] },
        { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
      ],
    });
    expect(value.messages[1]!.content.slice(0, 4)).toEqual([
      { type: 'reasoning', text: 'Anthropic signed this.', signature: { origin: 'anthropic', value: 'ErUBsig' } },
      { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'opaque' } },
      { type: 'reasoning', text: 'summary', signature: { origin: 'anthropic', value: 'old' } },
      { type: 'reasoning', text: 'unsigned' },
    ]);
  });

  it('hosted-tool steps are dropped with a lossy warning naming the step', () => {
    const { value, warnings } = decode({
      ...base,
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'q' }] },
        { type: 'code_execution_call', id: 's1', arguments: { code: 'x' }, signature: 'Eq' },
        { type: 'model_output', content: [{ type: 'text', text: 'a' }] },
      ],
    });
    expect(warnings).toEqual([{ code: 'dropped', path: 'input[1]', detail: 'code_execution_call', lossy: true }]);
    expect(value.messages).toHaveLength(2);
  });
});

describe('decodeRequest: settings', () => {
  it.each([
    ['any', { type: 'required' }],
    ['none', { type: 'none' }],
    ['validated', { type: 'auto' }],
    [{ allowed_tools: { mode: 'any', tools: ['f'] } }, { type: 'tool', name: 'f' }],
    [{ allowed_tools: { mode: 'any', tools: ['f', 'g'] } }, { type: 'allowed', names: ['f', 'g'], mode: 'required' }],
    [{ allowed_tools: { mode: 'validated', tools: ['f'] } }, { type: 'allowed', names: ['f'], mode: 'auto' }],
    [{ allowed_tools: { mode: 'none', tools: ['f'] } }, { type: 'none' }],
  ])('tool_choice %j', (tool_choice, expected) => {
    expect(decode({ ...base, input: 'x', generation_config: { tool_choice } }).value.toolChoice).toEqual(expected);
  });

  it('top_p, thinking_summaries none; unknown generation_config keys ride in extras', () => {
    const { value } = decode({ ...base, input: 'x', generation_config: { top_p: 0.5, thinking_summaries: 'none', speech_config: { voice: 'x' } } });
    expect(value.topP).toBe(0.5);
    expect(value.reasoning).toEqual({ includeThoughts: false });
    expect(value.extras?.fields).toEqual({ 'generation_config.speech_config': { voice: 'x' } });
  });

  it('response_format: JSON without a schema, plain text, and a list with an image modality', () => {
    expect(decode({ ...base, input: 'x', response_format: { type: 'text', mime_type: 'application/json' } }).value.responseFormat).toEqual({ type: 'json' });
    expect(decode({ ...base, input: 'x', response_format: { type: 'text' } }).value.responseFormat).toEqual({ type: 'text' });
    const list = [{ type: 'text' }, { type: 'image' }];
    const { value } = decode({ ...base, input: 'x', response_format: list });
    expect(value.modalities).toEqual(['text', 'image']);
    expect(value.extras?.fields['response_format']).toEqual(list);
    const audio = decode({ ...base, input: 'x', response_format: { type: 'audio', voice: 'Kore' } }).value;
    expect(audio.modalities).toEqual(['audio']);
    expect(audio.extras?.fields['response_format']).toEqual({ type: 'audio', voice: 'Kore' });
  });

  it('hosted tools without a generateContent twin stay this dialect’s; function extras kept', () => {
    const { value } = decode({ ...base, input: 'x', tools: [{ type: 'mcp_server', url: 'https://m' }, { type: 'function', name: 'f', behavior: 'x' }] });
    expect(value.nativeTools).toEqual([{ dialect: 'gemini-interactions', definition: { type: 'mcp_server', url: 'https://m' }, path: 'tools[0]' }]);
    expect(value.tools).toEqual([{ name: 'f', extras: { dialect: 'gemini-interactions', fields: { behavior: 'x' } } }]);
  });

  it('previous_interaction_id and background ride in extras for a same-dialect upstream', () => {
    const { value } = decode({ ...base, input: 'x', previous_interaction_id: 'v1_abc', background: true, service_tier: 'flex' });
    expect(value.extras).toEqual({ dialect: 'gemini-interactions', fields: { previous_interaction_id: 'v1_abc', background: true }, hints: { service_tier: 'flex' } });
  });
});

describe('decodeRequest: errors name the parameter', () => {
  it.each([
    [{ input: 'x' }, 'model'],
    [{ ...base, model: '' }, 'model'],
    [{ agent: 'deep-research-pro-preview', input: 'x' }, 'agent'],
    [{ ...base, input: 'x', agent_config: { type: 'deep-research' } }, 'agent_config'],
    [{ ...base, input: [{ type: 'image', mime_type: 'image/png' }] }, 'input[0].data'],
    [{ ...base, input: [{ type: 'image', data: 'AA==' }] }, 'input[0].mime_type'],
    [{ ...base, input: [{ type: 'user_input', content: [{ type: 'text' }] }] }, 'input[0].content[0].text'],
    [{ ...base, input: [{ type: 'function_call', name: 'f', arguments: {} }] }, 'input[0].id'],
    [{ ...base, input: [{ type: 'function_result', call_id: 'c' }] }, 'input[0].result'],
    [{ ...base, input: [{ type: 'user_input', content: [] }, { type: 'text', text: 'x' }] }, 'input[1].type'],
    [{ ...base, input: [{ text: 'x' }] }, 'input[0].type'],
    [{ ...base, input: 'x', tools: [{ type: 'function' }] }, 'tools[0].name'],
    [{ ...base, input: 'x', generation_config: { thinking_level: 'extreme' } }, 'generation_config.thinking_level'],
    [{ ...base, input: 'x', generation_config: { max_output_tokens: 0 } }, 'generation_config.max_output_tokens'],
    [{ ...base, input: 'x', generation_config: { tool_choice: 'sometimes' } }, 'generation_config.tool_choice'],
    [{ ...base, input: 'x', response_format: { type: 'text', schema: { type: 'object' } } }, 'response_format.mime_type'],
    [{ ...base, input: 'x', system_instruction: { parts: [] } }, 'system_instruction'],
  ])('%j → %s', (body, param) => {
    const err = fails(body);
    expect(err.param).toBe(param);
    expect(err.message).toContain(param);
  });

  it('a body that is not an object', () => {
    expect(fails([1]).param).toBe('body');
  });

  it('an empty list with a null reference is still no conversation; a continuation may send an empty list', () => {
    const err = fails({ ...base, input: [], previous_interaction_id: null });
    expect([err.param, err.message]).toEqual(['input', "Invalid value at 'input': expected a non-empty value, got an empty list (only a continuation, by 'previous_interaction_id', may leave it out)."]);
    expect(decode({ ...base, input: [], previous_interaction_id: 'v1_a' }).value.messages).toEqual([]);
  });
});
