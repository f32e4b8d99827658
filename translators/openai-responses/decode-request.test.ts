import { describe, expect, it } from 'vitest';
import { encodeReasoning, ProxyError } from '../../src/canonical/index.ts';
import { fixtureJson } from '../../test/support/fixtures.ts';
import { checkReferences, decodeRequest, responsesExtras } from './decode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const decode = (body: unknown) => decodeRequest({ body, headers: {}, params: {}, query: {} });
const base = { model: 'gpt-5.1-codex', input: 'hi' };

const fails = (body: unknown): ProxyError => proxyErrorOf(() => decode(body));

describe('decodeRequest: what Codex sends', () => {
  const { value: req, warnings } = decode(fixtureJson('openai-responses', 'codex-reasoning-summaries-apply-patch.request.json'));

  it('instructions and the leading developer message make the system prompt; user messages stay apart', () => {
    expect(req.system.map((p) => p.type === 'text' && p.text)).toEqual([
      'You are a coding agent running in a terminal. Keep going until the task is done.',
      '<permissions instructions>Sandbox: workspace-write. Approval: on-request.</permissions instructions>',
    ]);
    expect(req.messages.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['user', ['text']],
      ['assistant', ['reasoning', 'tool-call']],
      ['user', ['tool-result']],
      ['assistant', ['tool-call']],
      ['user', ['tool-result']],
      ['assistant', ['text']],
    ]);
    expect(warnings).toEqual([]);
  });

  it('reasoning keeps its encrypted content as an OpenAI signature; calls and outputs link by call_id', () => {
    const [reasoning, call] = req.messages[2]!.content;
    expect(reasoning).toEqual({
      type: 'reasoning',
      text: '**Looking around**\n\nListing the sources first.',
      signature: { origin: 'openai', value: 'gAAAAABpHANDwrittenEarlierReasoning-not-a-real-value==' },
    });
    expect(call).toEqual({ type: 'tool-call', id: 'call_hand_ls', name: 'shell', arguments: '{"command":["bash","-lc","ls src"],"workdir":"/home/dev/app"}' });
    expect(req.messages[3]!.content[0]).toEqual({ type: 'tool-result', callId: 'call_hand_ls', content: [{ type: 'text', text: 'greet.ts\nindex.ts\n' }] });
    expect(req.messages[4]!.content[0]).toMatchObject({ type: 'tool-call', id: 'call_hand_old_patch', name: 'apply_patch', custom: true, arguments: expect.stringContaining('*** Add File: NOTES.md') });
    expect(req.messages[5]!.content[0]).toMatchObject({ type: 'tool-result', callId: 'call_hand_old_patch', custom: true });
  });

  it('tools: a function, a freeform tool with its grammar, web_search as a built-in', () => {
    expect(req.tools!.map((t) => t.name)).toEqual(['shell', 'apply_patch']);
    expect(req.tools![0]).toMatchObject({ strict: false, parameters: { type: 'object' } });
    expect(req.tools![1]!.custom).toEqual({ format: { type: 'grammar', syntax: 'lark', definition: expect.stringContaining('*** Begin Patch') } });
    expect(req.nativeTools).toEqual([{ dialect: 'openai-responses', definition: { type: 'web_search' }, path: 'tools[2]', web: { kind: 'search' } }]);
    expect(req.toolChoice).toEqual({ type: 'auto' });
    expect(req.parallelToolCalls).toBe(false);
  });

  it('settings: reasoning, stream; store, cache key and verbosity as hints; encrypted reasoning noted', () => {
    expect(req.reasoning).toEqual({ effort: 'medium', includeThoughts: true });
    expect(req.stream).toBe(true);
    expect(req.streamUsage).toBe(true);
    const extras = responsesExtras(req)!;
    expect(extras.fields).toEqual({});
    expect(extras.hints).toEqual({ store: false, prompt_cache_key: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', text: { verbosity: 'low' } });
    expect(extras.encryptedReasoning).toBe(true);
  });
});

describe('decodeRequest: content parts', () => {
  it('images by URL and data URL, a PDF as a data URL', () => {
    const { value } = decode(fixtureJson('openai-responses', 'image-file-input.request.json'));
    const parts = value.messages[0]!.content;
    expect(parts[1]).toEqual({ type: 'image', source: { type: 'url', url: 'https://example.com/photo.jpg' }, detail: 'high' });
    expect(parts[2]).toMatchObject({ type: 'image', source: { type: 'base64', mediaType: 'image/png' }, detail: 'auto' });
    expect(parts[3]).toMatchObject({ type: 'file', filename: 'note.pdf', source: { type: 'base64', mediaType: 'application/pdf' } });
    expect(value.maxOutputTokens).toBe(300);
  });

  it('a string input is one user message; assistant history with output_text and refusal', () => {
    expect(decode(base).value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    const { value } = decode({ model: 'm', input: [{ role: 'user', content: 'q' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }, { type: 'refusal', refusal: 'no' }] }] });
    expect(value.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'refusal', text: 'no' }] });
  });

  it('a developer message in mid-conversation moves to the system prompt, reported', () => {
    const { value, warnings } = decode({ model: 'm', input: [{ role: 'user', content: 'q' }, { role: 'developer', content: 'be brief' }] });
    expect(value.system).toEqual([{ type: 'text', text: 'be brief' }]);
    expect(warnings).toEqual([{ code: 'approximated', path: 'input[1]', detail: 'developer message moved into the system prompt' }]);
  });

  it('items of built-in tools are dropped and reported', () => {
    const { warnings } = decode({ model: 'm', input: [{ role: 'user', content: 'q' }, { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } }] });
    expect(warnings).toEqual([{ code: 'dropped', path: 'input[1]', detail: 'web_search_call', lossy: true }]);
  });
});

describe('decodeRequest: more input items', () => {
  it('files: inline (typed by the data URL or the file name), by URL (typed by name or URL); audio by format', () => {
    const { value } = decode({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_file', file_data: 'JVBERi0x', filename: 'Report.PDF' },
            { type: 'input_file', file_data: 'abc' },
            { type: 'input_file', file_url: 'https://x/data.csv' },
            { type: 'input_file', file_url: 'https://x/doc', filename: 'a.md' },
            { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
            { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          ],
        },
      ],
    });
    expect(value.messages[0]!.content).toEqual([
      { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0x' }, filename: 'Report.PDF' },
      { type: 'file', source: { type: 'base64', mediaType: 'application/octet-stream', data: 'abc' } },
      { type: 'file', source: { type: 'url', url: 'https://x/data.csv', mediaType: 'text/csv' } },
      { type: 'file', source: { type: 'url', url: 'https://x/doc', mediaType: 'text/markdown' }, filename: 'a.md' },
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' },
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'SUQz' }, format: 'mp3' },
    ]);
  });

  it.each([
    [[{ type: 'input_file' }], "Invalid value for 'input[0].content[0]': expected one of 'file_data', 'file_url' or 'file_id'.", 'input[0].content[0]'],
    [[{ type: 'input_image' }], "Missing required parameter: 'input[0].content[0].image_url'.", 'input[0].content[0].image_url'],
  ])('a part without its source: %j', (content, message, param) => {
    const e = fails({ model: 'm', input: [{ role: 'user', content }] });
    expect([e.message, e.param]).toEqual([message, param]);
  });

  it('an item with neither type nor role names the missing type', () => {
    const e = fails({ model: 'm', input: [{ content: 'x' }] });
    expect([e.message, e.param]).toEqual(["Missing required parameter: 'input[0].type'.", 'input[0].type']);
  });

  it('reasoning: raw content when there is no summary; a carried signature or redaction keeps its vendor and text', () => {
    const { value } = decode({
      model: 'm',
      input: [
        { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'raw1' }, { type: 'reasoning_text', text: 'raw2' }] },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 's1' }, { type: 'summary_text', text: 's2' }], encrypted_content: encodeReasoning({ text: '', signature: { origin: 'anthropic', value: 'EqQB' } }) },
        { type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: 'hidden', redacted: { origin: 'anthropic', value: 'RED' } }) },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 's' }], encrypted_content: encodeReasoning({ text: 'own', signature: { origin: 'gemini', value: 'G' } }) },
      ],
    });
    expect(value.messages).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'raw1raw2' },
          { type: 'reasoning', text: 's1\n\ns2', signature: { origin: 'anthropic', value: 'EqQB' } },
          { type: 'reasoning', text: 'hidden', redacted: { origin: 'anthropic', value: 'RED' } },
          { type: 'reasoning', text: 'own', signature: { origin: 'gemini', value: 'G' } },
        ],
      },
    ]);
  });

  it('turns: model-side items merge, consecutive tool outputs merge, user messages and later outputs stay apart', () => {
    const { value, warnings } = decode({
      model: 'm',
      input: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { role: 'assistant', content: [{ type: 'output_text', text: 't' }] },
        { type: 'function_call_output', call_id: 'c1', output: 'r1' },
        { type: 'custom_tool_call_output', call_id: 'c2', output: 'r2' },
        { role: 'user', content: 'c' },
        { type: 'function_call_output', call_id: 'c3', output: 'r3' },
        { role: 'system', content: 'sys late' },
      ],
    });
    const text = (t: string) => ({ type: 'text', text: t });
    expect(value.messages).toEqual([
      { role: 'user', content: [text('a')] },
      { role: 'user', content: [text('b')] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{}' }, text('t')] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: [text('r1')] }, { type: 'tool-result', callId: 'c2', content: [text('r2')], custom: true }] },
      { role: 'user', content: [text('c')] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'c3', content: [text('r3')] }] },
    ]);
    expect(value.system).toEqual([text('sys late')]);
    expect(warnings).toEqual([{ code: 'approximated', path: 'input[8]', detail: 'system message moved into the system prompt' }]);
  });
});

describe('decodeRequest: item references', () => {
  it('one left unresolved (bound for a Responses upstream, which resolves it) decodes to nothing', () => {
    const { value, warnings } = decode({ model: 'm', input: [{ role: 'user', content: 'q' }, { type: 'item_reference', id: 'msg_1' }] });
    expect(value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
    expect(warnings).toEqual([]);
  });
});

describe('decodeRequest: something to answer, and well-formed references (OpenAI answers the same)', () => {
  const none = `One of "input" or "previous_response_id" or 'prompt' or 'conversation_id' must be provided.`;
  it.each([
    ['no input', { model: 'm' }],
    ['an empty string', { model: 'm', input: '' }],
    ['an empty list', { model: 'm', input: [] }],
    ['instructions alone', { model: 'm', instructions: 'Be brief.', input: [] }],
  ])('%s is a 400 naming input', (_label, body) => {
    const e = fails(body);
    expect([e.message, e.param, e.code, e.status]).toEqual([none, 'input', 'missing_required_parameter', 400]);
  });

  it.each([
    ['a previous response', { previous_response_id: 'resp_1' }],
    ['a stored prompt', { prompt: { id: 'pmpt_1' } }],
    ['a conversation', { conversation: 'conv_1' }],
  ])('an empty input with %s is a continuation the upstream serves', (_label, fields) => {
    expect(decode({ model: 'm', input: [], ...fields }).value.messages).toEqual([]);
  });

  it.each([
    [{ ...base, previous_response_id: 5 }, "Invalid type for 'previous_response_id': expected a string, but got an integer instead.", 'previous_response_id', 'invalid_type'],
    [{ ...base, previous_response_id: { id: 'resp_1' } }, "Invalid type for 'previous_response_id': expected a string, but got an object instead.", 'previous_response_id', 'invalid_type'],
    [{ ...base, previous_response_id: '' }, "Invalid 'previous_response_id': empty string. Expected a string with minimum length 1, but got an empty string instead.", 'previous_response_id', 'empty_string'],
    [{ model: 'm', input: [{ type: 'item_reference' }] }, "Missing required parameter: 'input[0].id'.", 'input[0].id', 'missing_required_parameter'],
    [{ model: 'm', input: [{ type: 'item_reference', id: 4 }] }, "Invalid type for 'input[0].id': expected a string, but got an integer instead.", 'input[0].id', 'invalid_type'],
  ])('a malformed reference %j is a 400, never skipped', (body, message, param, code) => {
    const e = fails(body);
    expect([e.message, e.param, e.code]).toEqual([message, param, code]);
  });

  it('checkReferences is what the flow runs before it reads the store: the same 400, input unread', () => {
    expect(() => checkReferences({ model: 'm', previous_response_id: 7, input: [{ type: 'item_reference', id: 'msg_1' }] })).toThrow(/previous_response_id/);
    expect(() => checkReferences({ model: 'm', previous_response_id: 'resp_1', input: [] })).not.toThrow();
  });
});

describe('decodeRequest: clear 400s naming the parameter', () => {
  it.each([
    [{ model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }, 'input[0].content[0].file_id', /file id/],
    [{ model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }, 'input[0].content[0].file_id', /file id/],
    [{ input: 'hi' }, 'model', /Missing required parameter: 'model'/],
    [{ ...base, temperature: 3 }, 'temperature', /temperature/],
    [{ ...base, reasoning: { effort: 'extreme' } }, 'reasoning.effort', /reasoning\.effort/],
    [{ model: 'm', input: [{ role: 'robot', content: 'x' }] }, 'input[0].role', /input\[0\]\.role/],
    [{ model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id', /Missing required parameter/],
    [{ ...base, tools: [{ type: 'custom', name: 'x', format: { type: 'grammar', syntax: 'peg', definition: 'a' } }] }, 'tools[0].format.syntax', /syntax/],
  ])('%j → %s', (body, param, message) => {
    const e = fails(body);
    expect(e.kind).toBe('invalid-request');
    expect(e.param).toBe(param);
    expect(e.message).toMatch(message);
  });
});

describe('decodeRequest: a wrong type names what it got, in OpenAI words', () => {
  const text = (t: unknown) => ({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_text', text: t }] }] });
  it.each([
    [{ ...base, temperature: 'hot' }, 'temperature', 'a number of at least 0', 'a string'],
    [{ ...base, temperature: [1] }, 'temperature', 'a number of at least 0', 'an array'],
    [{ ...base, temperature: { a: 1 } }, 'temperature', 'a number of at least 0', 'an object'],
    [{ ...base, temperature: true }, 'temperature', 'a number of at least 0', 'a boolean'],
    [text(5), 'input[0].content[0].text', 'a string', 'an integer'],
    [text(1.5), 'input[0].content[0].text', 'a string', 'a decimal'],
    [text(null), 'input[0].content[0].text', 'a string', 'null'],
    [{ ...base, metadata: { k: 5 } }, 'metadata.k', 'a string', 'an integer'],
    [{ model: 5, input: 'hi' }, 'model', 'a string', 'an integer'],
  ])('%j', (body, param, expected, got) => {
    const e = fails(body);
    expect([e.message, e.param, e.code]).toEqual([`Invalid type for '${param}': expected ${expected}, but got ${got} instead.`, param, 'invalid_type']);
  });
});

describe('decodeRequest: tool choice, reasoning, text, include', () => {
  const tools = [{ type: 'function', name: 'f', parameters: {} }, { type: 'custom', name: 'patch' }];

  it('named function and custom tools, allowed_tools, and a built-in choice kept for this dialect', () => {
    expect(decode({ ...base, tools, tool_choice: { type: 'custom', name: 'patch' } }).value.toolChoice).toEqual({ type: 'tool', name: 'patch' });
    expect(decode({ ...base, tools, tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'f' }] } }).value.toolChoice).toEqual({ type: 'allowed', mode: 'required', names: ['f'] });
    const hosted = decode({ ...base, tools: [...tools, { type: 'web_search_preview' }], tool_choice: { type: 'web_search_preview' } }).value;
    // A forced web search: neutral for other vendors, kept as written (a hint) for this one.
    expect(hosted.toolChoice).toEqual({ type: 'web', kind: 'search' });
    expect(hosted.extras?.hints?.['tool_choice']).toEqual({ type: 'web_search_preview' });
    const other = decode({ ...base, tools: [...tools, { type: 'file_search' }], tool_choice: { type: 'file_search' } }).value;
    expect(other.toolChoice).toBeUndefined();
    expect(other.extras?.fields['tool_choice']).toEqual({ type: 'file_search' });
  });

  it('effort none turns reasoning off; xhigh is approximated and kept as a hint', () => {
    expect(decode({ ...base, reasoning: { effort: 'none' } }).value.reasoning).toEqual({ enabled: false });
    const { value, warnings } = decode({ ...base, reasoning: { effort: 'xhigh', summary: 'detailed' } });
    expect(value.reasoning).toEqual({ effort: 'high', includeThoughts: true });
    expect(warnings).toEqual([{ code: 'approximated', path: 'reasoning.effort', detail: 'xhigh→high' }]);
    expect(value.extras?.hints?.['reasoning']).toEqual({ effort: 'xhigh', summary: 'detailed' });
  });

  it('text formats, logprobs through include, user and metadata, stateful fields as extras', () => {
    const { value } = decode({
      ...base,
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
      include: ['message.output_text.logprobs', 'file_search_call.results'],
      top_logprobs: 3,
      safety_identifier: 'user-7',
      metadata: { a: 'b' },
      previous_response_id: 'resp_1',
      background: true,
    });
    expect(value.responseFormat).toEqual({ type: 'json-schema', name: 'out', schema: { type: 'object' }, strict: true });
    expect(value.logprobs).toBe(true);
    expect(value.topLogprobs).toBe(3);
    expect(value.user).toBe('user-7');
    expect(value.metadata).toEqual({ a: 'b' });
    expect(value.extras).toEqual({ dialect: 'openai-responses', fields: { previous_response_id: 'resp_1', background: true }, hints: { include: ['file_search_call.results'] } });
    expect(decode({ ...base, text: { format: { type: 'json_object' } } }).value.responseFormat).toEqual({ type: 'json' });
  });
});
