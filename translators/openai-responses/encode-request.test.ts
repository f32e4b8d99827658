import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, fixtureText } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { encodeRequest } from './encode-request.ts';
import { decodeCountTokens, encodeCountTokens } from './count-tokens.ts';
import { decodeModelList, encodeModelListRequest } from './model-list.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';

const target: UpstreamTarget = { name: 'up', model: 'gpt-5.1', apiKey: 'sk-up', options: { headers: { 'x-extra': '1' } } };

const encode = (req: ChatRequest) => {
  const { value, warnings } = encodeRequest(req, target);
  return { http: value, body: JSON.parse(value.body as string) as Record<string, any>, warnings };
};

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'caller-model',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  stream: false,
  ...over,
});

describe('encodeRequest', () => {
  it('POST /responses, bearer auth and configured headers, stateless by default', () => {
    const { http, body } = encode(req());
    expect(http).toMatchObject({ method: 'POST', path: '/responses', stream: false });
    expect(http.headers).toEqual({ 'x-extra': '1', 'content-type': 'application/json', authorization: 'Bearer sk-up' });
    expect(body).toEqual({ model: 'gpt-5.1', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], store: false });
  });

  it('a whole conversation: system as instructions, OpenAI reasoning replayed, foreign reasoning not, calls linked', () => {
    const { body, warnings } = encode(
      req({
        system: [{ type: 'text', text: 'Be terse.' }],
        reasoning: { effort: 'high', includeThoughts: true },
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'fix' }] },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'thinking', signature: { origin: 'openai', value: 'gAAAA-enc' } },
              { type: 'reasoning', text: 'claude thought', signature: { origin: 'anthropic', value: 'EqQB' } },
              { type: 'text', text: 'Patching.' },
              { type: 'tool-call', id: 'call_1', name: 'apply_patch', arguments: '*** Begin Patch\n*** End Patch\n', custom: true },
              { type: 'tool-call', id: 'call_2', name: 'shell', arguments: '{"command":["ls"]}' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'Done' }], custom: true },
              { type: 'tool-result', callId: 'call_2', content: [{ type: 'text', text: 'a.txt' }] },
            ],
          },
        ],
      }),
    );
    expect(body['instructions']).toBe('Be terse.');
    expect(body['input']).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix' }] },
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking' }], encrypted_content: 'gAAAA-enc' },
      { type: 'message', role: 'assistant', content: 'Patching.' },
      { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
      { type: 'function_call', call_id: 'call_2', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Done' },
      { type: 'function_call_output', call_id: 'call_2', output: 'a.txt' },
    ]);
    expect(body['reasoning']).toEqual({ effort: 'high', summary: 'auto' });
    expect(body['include']).toEqual(['reasoning.encrypted_content']);
    expect(warnings).toEqual([{ code: 'signature-not-replayed', path: 'messages[1].content[1]' }]);
  });

  it('several system parts become a leading system message (exact), media parts become input parts', () => {
    const { body } = encode(
      req({
        system: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAAA' }, detail: 'low' },
              { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
              { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' }, filename: 'a.pdf' },
            ],
          },
        ],
      }),
    );
    expect(body['instructions']).toBeUndefined();
    expect(body['input']).toEqual([
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'A' }, { type: 'input_text', text: 'B' }] },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' },
          { type: 'input_image', image_url: 'https://x/y.png', detail: 'auto' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBE', filename: 'a.pdf' },
        ],
      },
    ]);
  });

  it('tools: functions not strict unless asked, freeform kept freeform, only this dialect’s built-ins', () => {
    const { body, warnings } = encode(
      req({
        tools: [
          { name: 'f', parameters: { type: 'object', properties: {} } },
          { name: 'g', strict: true, parameters: { type: 'object' }, extras: { dialect: 'openai-responses', fields: { defer_loading: true } } },
          { name: 'patch', description: 'Edit', custom: { format: { type: 'grammar', syntax: 'regex', definition: '.+' } } },
        ],
        nativeTools: [
          { dialect: 'openai-responses', definition: { type: 'web_search' } },
          { dialect: 'anthropic', definition: { type: 'bash_20250124', name: 'bash' } },
        ],
        toolChoice: { type: 'tool', name: 'patch' },
        parallelToolCalls: false,
      }),
    );
    expect(body['tools']).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: false },
      { defer_loading: true, type: 'function', name: 'g', parameters: { type: 'object' }, strict: true },
      { type: 'custom', name: 'patch', description: 'Edit', format: { type: 'grammar', syntax: 'regex', definition: '.+' } },
      { type: 'web_search' },
    ]);
    expect(body['tool_choice']).toEqual({ type: 'custom', name: 'patch' });
    expect(body['parallel_tool_calls']).toBe(false);
    expect(warnings).toEqual([{ code: 'dropped', path: 'nativeTools[1]', detail: 'bash', lossy: true }]);
  });

  it('sampling, logprobs, structured output, user, metadata; what the API lacks is reported', () => {
    const { body, warnings } = encode(
      req({
        stream: true,
        maxOutputTokens: 99,
        temperature: 0.2,
        topP: 0.9,
        stop: ['END'],
        seed: 1,
        logprobs: true,
        topLogprobs: 30,
        responseFormat: { type: 'json-schema', schema: { type: 'object' }, strict: true },
        user: 'u-1',
        metadata: { k: 'v' },
      }),
    );
    expect(body).toMatchObject({
      stream: true,
      max_output_tokens: 99,
      temperature: 0.2,
      top_p: 0.9,
      top_logprobs: 20,
      include: ['message.output_text.logprobs'],
      text: { format: { type: 'json_schema', name: 'response', schema: { type: 'object' }, strict: true } },
      safety_identifier: 'u-1',
      metadata: { k: 'v' },
    });
    expect(body).not.toHaveProperty('stop');
    expect(warnings).toEqual([
      { code: 'dropped', path: 'stop', lossy: true },
      { code: 'dropped', path: 'seed', lossy: true },
      { code: 'clamped', path: 'topLogprobs', detail: '20' },
    ]);
  });

  it('tool choice without tools: none and auto are sent, a forced one is dropped and reported', () => {
    expect(encode(req({ toolChoice: { type: 'none' } }))).toMatchObject({ body: { tool_choice: 'none' }, warnings: [] });
    expect(encode(req({ toolChoice: { type: 'auto' } }))).toMatchObject({ body: { tool_choice: 'auto' }, warnings: [] });
    const forced = encode(req({ toolChoice: { type: 'required' } }));
    expect(forced.body).not.toHaveProperty('tool_choice');
    expect(forced.warnings).toEqual([{ code: 'dropped', path: 'toolChoice', detail: 'no tools', lossy: true }]);
  });

  it('allowed tools name each tool by its kind; a tool without parameters gets an empty object schema', () => {
    const { body } = encode(req({ tools: [{ name: 'a' }, { name: 'p', custom: {} }], toolChoice: { type: 'allowed', names: ['a', 'p'], mode: 'required' } }));
    expect(body['tool_choice']).toEqual({ type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'a' }, { type: 'custom', name: 'p' }] });
    expect(body['tools'][0]).toEqual({ type: 'function', name: 'a', parameters: { type: 'object', properties: {} }, strict: false });
  });

  it('several candidates and non-text modalities are reported; one candidate and text are not', () => {
    expect(encode(req({ candidateCount: 2, modalities: ['text', 'audio', 'image'] })).warnings).toEqual([
      { code: 'dropped', path: 'candidateCount', lossy: true },
      { code: 'dropped', path: 'modalities', detail: 'text,audio,image', lossy: true },
    ]);
    expect(encode(req({ candidateCount: 1, modalities: ['text'] })).warnings).toEqual([]);
  });

  it.each([
    [0, 'none', undefined],
    [4095, 'low', 'auto'],
    [4096, 'medium', 'auto'],
    [16383, 'medium', 'auto'],
    [16384, 'high', 'auto'],
  ] as const)('a budget of %i tokens is effort %s (approximated); summaries only when thinking', (budgetTokens, effort, summary) => {
    const { body, warnings } = encode(req({ reasoning: { budgetTokens, includeThoughts: true } }));
    expect(body['reasoning']).toEqual({ effort, ...(summary ? { summary } : {}) });
    expect(warnings).toEqual([{ code: 'approximated', path: 'reasoning.budgetTokens', detail: `effort=${effort}` }]);
  });

  it('text and json formats, and a named described schema', () => {
    expect(encode(req({ responseFormat: { type: 'text' } })).body['text']).toEqual({ format: { type: 'text' } });
    expect(encode(req({ responseFormat: { type: 'json' } })).body['text']).toEqual({ format: { type: 'json_object' } });
    expect(encode(req({ responseFormat: { type: 'json-schema', schema: { type: 'object' }, name: 'n', description: 'd' } })).body['text']).toEqual({
      format: { type: 'json_schema', name: 'n', schema: { type: 'object' }, description: 'd' },
    });
  });

  it('a create call forwarded as bytes: the request without its body, the model renamed only when it differs; other routes are not forwarded', () => {
    const input = (params: Record<string, string> = {}) => ({ body: {}, headers: {}, params, query: {} });
    expect(forwardRequest(input(), { model: 'gpt-5.1', stream: true }, target)).toEqual({
      request: { method: 'POST', path: '/responses', headers: { 'x-extra': '1', 'content-type': 'application/json', authorization: 'Bearer sk-up' }, stream: true },
      model: undefined,
    });
    expect(forwardRequest(input(), { model: 'alias', stream: false }, target)?.model).toBe('gpt-5.1');
    expect(forwardRequest(input({ method: 'retrieve' }), { model: 'x', stream: false }, target)).toBeUndefined();
  });

  it('a Responses caller’s own fields are replayed: store, cache key, verbosity, xhigh effort, built-in tool choice', () => {
    const caller = decodeRequest({
      body: {
        ...fixtureJson<Record<string, unknown>>('openai-responses', 'codex-reasoning-summaries-apply-patch.request.json'),
        reasoning: { effort: 'xhigh', summary: 'auto' },
        tool_choice: { type: 'web_search' },
        previous_response_id: 'resp_prev',
      },
      headers: {},
      params: {},
      query: {},
    }).value;
    const { body, warnings } = encode(caller);
    expect(body).toMatchObject({
      store: false,
      prompt_cache_key: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      text: { verbosity: 'low' },
      reasoning: { effort: 'xhigh', summary: 'auto' },
      tool_choice: { type: 'web_search' },
      previous_response_id: 'resp_prev',
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
    expect(body['tools'].map((t: { type: string }) => t.type)).toEqual(['function', 'custom', 'web_search']);
    expect(warnings).toEqual([]);
  });
});

describe('passthrough, token counts, model list', () => {
  const raw = fixtureText('openai-responses', 'codex-reasoning-summaries-apply-patch.request.json');
  const body = JSON.parse(raw);
  const input = (params: Record<string, string> = {}, query: Record<string, string> = {}) => ({ body, headers: { 'openai-organization': 'org-1', authorization: 'Bearer caller' }, params, query });

  it('forwards the body byte for byte when the model stays, rewrites only the model otherwise', () => {
    const same = encodePassthrough(input(), raw, { ...target, model: 'gpt-5.1-codex' });
    expect(same).toMatchObject({ method: 'POST', path: '/responses', body: raw, stream: true });
    expect(same.headers).toMatchObject({ authorization: 'Bearer sk-up', 'openai-organization': 'org-1' });
    const renamed = JSON.parse(encodePassthrough(input(), raw, target).body as string);
    expect(renamed).toEqual({ ...body, model: 'gpt-5.1' });
  });

  it("adds a session's prompt_cache_key where the caller sent none, never to a token count", () => {
    const keyed = { ...target, options: { promptCacheKey: 'feedc0de' } };
    const { prompt_cache_key: own, ...without } = body;
    expect(own).toBeDefined();
    const bare = JSON.stringify(without);
    expect(JSON.parse(encodePassthrough({ ...input(), body: without }, bare, keyed).body as string)).toEqual({ ...without, model: 'gpt-5.1', prompt_cache_key: 'feedc0de' });
    expect(JSON.parse(encodePassthrough(input(), raw, keyed).body as string)['prompt_cache_key']).toBe(own);
    expect(encodePassthrough({ ...input({ method: 'input_tokens' }), body: without }, bare, { ...keyed, model: without['model'] }).body).toBe(bare);
    const translated = encodeRequest({ model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false }, keyed);
    expect(JSON.parse(translated.value.body as string)['prompt_cache_key']).toBe('feedc0de');
  });

  it('routes input_tokens, retrieve, delete, input_items and cancel by params.method', () => {
    expect(encodePassthrough(input({ method: 'input_tokens' }), raw, target)).toMatchObject({ method: 'POST', path: '/responses/input_tokens', stream: false });
    expect(encodePassthrough(input({ method: 'retrieve', id: 'resp_1' }, { stream: 'true' }), '', target)).toMatchObject({ method: 'GET', path: '/responses/resp_1?stream=true', stream: true });
    expect(encodePassthrough(input({ method: 'delete', id: 'resp/../x' }), '', target)).toMatchObject({ method: 'DELETE', path: '/responses/resp%2F..%2Fx' });
    expect(encodePassthrough(input({ method: 'input_items', id: 'resp_1' }), '', target).path).toBe('/responses/resp_1/input_items');
    expect(encodePassthrough(input({ method: 'cancel', id: 'resp_1' }), '', target)).toMatchObject({ method: 'POST', path: '/responses/resp_1/cancel' });
    expect(() => encodePassthrough(input({ method: 'retrieve', id: '..' }), '', target)).toThrow(/cannot be sent/);
  });

  it('counts tokens with what /responses/input_tokens takes', () => {
    const http = encodeCountTokens(req({ maxOutputTokens: 5, temperature: 1, stream: true, system: [{ type: 'text', text: 'S' }] }), target);
    expect(http).toMatchObject({ method: 'POST', path: '/responses/input_tokens', stream: false });
    expect(JSON.parse(http.body as string)).toEqual({ model: 'gpt-5.1', instructions: 'S', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }] });
    expect(decodeCountTokens({ object: 'response.input_tokens', input_tokens: 42 })).toBe(42);
    expect(() => decodeCountTokens({})).toThrow(/input_tokens/);
  });

  it('lists models from an OpenAI list or a Codex catalogue', () => {
    expect(encodeModelListRequest(target)).toEqual({ method: 'GET', path: '/models', headers: { 'x-extra': '1', authorization: 'Bearer sk-up' }, stream: false });
    expect(decodeModelList({ data: [{ id: 'a' }], models: [{ slug: 'b' }, { slug: 'a' }] })).toEqual(['a', 'b']);
    expect(decodeModelList('nope')).toEqual([]);
  });
});

describe('encodeRequest: limits and extras', () => {
  const target: UpstreamTarget = { name: 'up', model: 'gpt-5.1', apiKey: 'sk-up', options: {} };

  const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...over });

  const encode = (r: ChatRequest) => {
    const { value, warnings } = encodeRequest(r, target);
    return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
  };

  const extras = (fields: Record<string, unknown>) => ({ dialect: 'openai-responses', fields }) as ChatRequest['extras'];

  it('top_logprobs: 20 is sent as it is, more is clamped; without logprobs it is not sent', () => {
    expect(encode(req({ logprobs: true, topLogprobs: 20 }))).toMatchObject({ body: { top_logprobs: 20, include: ['message.output_text.logprobs'] }, warnings: [] });
    expect(encode(req({ logprobs: true, topLogprobs: 21 })).warnings).toEqual([{ code: 'clamped', path: 'topLogprobs', detail: '20' }]);
    const off = encode(req({ topLogprobs: 5 }));
    expect(off.body).not.toHaveProperty('top_logprobs');
    expect(off.body).not.toHaveProperty('include');
    expect(encode(req({ logprobs: true })).body).not.toHaveProperty('top_logprobs');
  });

  it('topK, presence and frequency penalties are reported dropped; reasoning off asks for no encrypted content', () => {
    expect(encode(req({ topK: 5, presencePenalty: 0.1, frequencyPenalty: 0.2 })).warnings).toEqual([
      { code: 'dropped', path: 'topK', lossy: true },
      { code: 'dropped', path: 'presencePenalty', lossy: true },
      { code: 'dropped', path: 'frequencyPenalty', lossy: true },
    ]);
    expect(encode(req({ reasoning: { enabled: false } })).body).toMatchObject({ reasoning: { effort: 'none' } });
    expect(encode(req({ reasoning: { enabled: false } })).body).not.toHaveProperty('include');
    expect(encode(req({ reasoning: { budgetTokens: 0 } })).body).not.toHaveProperty('include');
    expect(encode(req({ reasoning: { effort: 'low' } })).body['include']).toEqual(['reasoning.encrypted_content']);
  });

  it('a caller’s store is kept only when a boolean; stream_options only on a stream; include, text and reasoning extras merged', () => {
    expect(encode(req({ extras: extras({ store: true }) })).body['store']).toBe(true);
    expect(encode(req({ extras: extras({ store: 'yes' }) })).body['store']).toBe(false);
    expect(encode(req({ extras: extras({ stream_options: { include_obfuscation: false } }) })).body).not.toHaveProperty('stream_options');
    expect(encode(req({ stream: true, extras: extras({ stream_options: { include_obfuscation: false } }) })).body).toMatchObject({ stream: true, stream_options: { include_obfuscation: false } });
    const merged = encode(req({ logprobs: true, reasoning: { effort: 'low' }, responseFormat: { type: 'json' }, extras: extras({ include: ['file_search_call.results', 'message.output_text.logprobs'], text: { verbosity: 'low' }, reasoning: { summary: 'concise' } }) })).body;
    expect(merged).toMatchObject({
      include: ['file_search_call.results', 'message.output_text.logprobs', 'reasoning.encrypted_content'],
      text: { verbosity: 'low', format: { type: 'json_object' } },
      reasoning: { effort: 'low', summary: 'concise' },
    });
  });

  it('extras of the wrong shape are ignored: an include that is no list, a text or reasoning that is no object', () => {
    const { body } = encode(req({ extras: extras({ include: 'reasoning.encrypted_content', text: ['low'], reasoning: [1] }) }));
    expect(body).not.toHaveProperty('include');
    expect(body).not.toHaveProperty('text');
    expect(body['reasoning']).toEqual({});
    expect(encode(req({ extras: extras({ text: null, reasoning: 'high' }) })).body['reasoning']).toEqual({});
  });
});

describe('encodeRequest: fields riding in extras', () => {
  const target: UpstreamTarget = { name: 'up', model: 'gpt-5.1', apiKey: 'sk-up', options: {} };

  const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...over });

  const encode = (r: ChatRequest) => {
    const { value, warnings } = encodeRequest(r, target);
    return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
  };

  const extras = (fields: Record<string, unknown>) => ({ dialect: 'openai-responses', fields }) as ChatRequest['extras'];

  it('are sent unless a canonical setting replaces them; an absent setting does not erase them', () => {
    const fields = { instructions: 'X', parallel_tool_calls: true, max_output_tokens: 7, temperature: 0.5, top_p: 0.5, safety_identifier: 'sid', metadata: { a: 'b' }, top_logprobs: 3 };
    const { body } = encode(req({ extras: extras(fields) }));
    expect(body).toMatchObject(fields);
    const replaced = encode(req({ system: [{ type: 'text', text: 'S' }], parallelToolCalls: false, maxOutputTokens: 9, temperature: 1, topP: 1, user: 'u', metadata: { c: 'd' }, extras: extras(fields) })).body;
    expect(replaced).toMatchObject({ instructions: 'S', parallel_tool_calls: false, max_output_tokens: 9, temperature: 1, top_p: 1, safety_identifier: 'u', metadata: { c: 'd' } });
  });
});

describe('token counts and model lists of other shapes', () => {
  it.each([[{ input_tokens: '5' }], [{ input_tokens: null }], [null], [[5]], [{ input_tokens: Number.NaN }], [{ input_tokens: Infinity }]])('%j is no count', (body) => {
    expect(() => decodeCountTokens(body)).toThrow(expect.objectContaining({ kind: 'upstream', message: 'The upstream token count has no input_tokens.' }));
  });

  it('ids from data, slugs (else ids) from models, once each; entries of other shapes skipped', () => {
    expect(decodeModelList({ data: [{ id: 'a' }, ['b'], { id: 3 }, null], models: [{ slug: 's', id: 'x' }, { id: 'c' }, { id: 'a' }, 'd'] })).toEqual(['a', 's', 'c']);
    expect(decodeModelList({ data: 'a', models: { slug: 'b' } })).toEqual([]);
    expect(decodeModelList([{ id: 'a' }])).toEqual([]);
    expect(decodeModelList(null)).toEqual([]);
  });
});
