import { encodeReasoning, type ChatRequest, type ChatResponse, type Part, type StreamEvent } from '../../src/canonical/index.ts';
import { describe, expect, it } from 'vitest';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeResponse, encodeKept } from './encode-response.ts';
import { encodeCountTokensResponse } from './count-tokens.ts';
import { encodeModelList } from './model-list.ts';
import type { KeptResponse } from './state.ts';
import { OpenAIResponsesStreamEncoder } from './stream-encoder.ts';

type Data = Record<string, any>;

const plain: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

const codex = decodeRequest({ body: { ...fixtureJson<Data>('openai-responses', 'codex-reasoning-summaries-apply-patch.request.json'), stream: false }, headers: {}, params: {}, query: {} }).value;

const res = (content: Part[], over: Partial<ChatResponse> = {}): ChatResponse => ({
  id: 'msg_01abc',
  model: 'claude-x',
  created: 1_700_000_000,
  choices: [{ index: 0, content, finishReason: { unified: 'stop' } }],
  usage: { inputTokens: 12, outputTokens: 8, totalTokens: 20, cachedInputTokens: 3, cacheWriteTokens: 2, reasoningTokens: 4 },
  ...over,
});

describe('encodeResponse', () => {
  it('a Response object with output items, usage details and the request settings echoed', () => {
    const body = encodeResponse(res([{ type: 'text', text: 'Hello.' }]), plain, testContext()) as Data;
    expect(body).toEqual({
      // Another vendor's id (msg_01abc) is not made into ours: minted, after the output's.
      id: 'resp_test0002',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      background: false,
      error: null,
      incomplete_details: null,
      model: 'claude-x',
      output: [{ id: 'msg_test0001', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Hello.' }] }],
      usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 3, cache_write_tokens: 2 }, output_tokens: 8, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: 20 },
      instructions: null,
      max_output_tokens: null,
      parallel_tool_calls: true,
      previous_response_id: null,
      prompt_cache_key: null,
      reasoning: { effort: null, summary: null },
      safety_identifier: null,
      service_tier: 'default',
      store: true,
      temperature: 1,
      text: { format: { type: 'text' }, verbosity: 'medium' },
      tool_choice: 'auto',
      tools: [],
      top_logprobs: 0,
      top_p: 1,
      truncation: 'disabled',
      metadata: {},
    });
  });

  it('for Codex: reasoning with summary and encrypted content, freeform and function calls, its settings echoed', () => {
    const content: Part[] = [
      { type: 'reasoning', text: 'Plan.', signature: { origin: 'openai', value: 'gAAA-enc' } },
      { type: 'reasoning', text: 'Claude plan.', signature: { origin: 'anthropic', value: 'EqQB' } },
      { type: 'text', text: 'Patching.' },
      { type: 'tool-call', id: 'call_1', name: 'apply_patch', arguments: '*** Begin Patch\n*** End Patch\n', custom: true },
      { type: 'tool-call', id: 'call_2', name: 'shell', arguments: '{"command":["ls"]}' },
    ];
    const body = encodeResponse(
      { ...res(content), choices: [{ index: 0, content, finishReason: { unified: 'tool-calls' } }] },
      codex,
      testContext(),
    ) as Data;
    expect(body['output']).toEqual([
      { id: 'rs_test0001', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: 'gAAA-enc' },
      { id: 'rs_test0002', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Claude plan.' }], encrypted_content: encodeReasoning({ text: 'Claude plan.', signature: { origin: 'anthropic', value: 'EqQB' } }) },
      { id: 'msg_test0003', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Patching.' }] },
      { id: 'ctc_test0004', type: 'custom_tool_call', status: 'completed', call_id: 'call_1', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
      { id: 'fc_test0005', type: 'function_call', status: 'completed', arguments: '{"command":["ls"]}', call_id: 'call_2', name: 'shell' },
    ]);
    expect(body).toMatchObject({
      instructions: expect.stringContaining('You are a coding agent'),
      parallel_tool_calls: false,
      store: false,
      prompt_cache_key: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      reasoning: { effort: 'medium', summary: 'auto' },
      text: { format: { type: 'text' }, verbosity: 'low' },
    });
    expect(body['tools'].map((t: Data) => t['type'])).toEqual(['function', 'custom', 'web_search']);
  });

  it('incomplete for length and blocked prompts, failed for a generation error', () => {
    const length = encodeResponse({ ...res([{ type: 'text', text: 'Hel' }]), choices: [{ index: 0, content: [{ type: 'text', text: 'Hel' }], finishReason: { unified: 'length' } }] }, plain, testContext()) as Data;
    expect(length).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ status: 'incomplete' }] });
    const blocked = encodeResponse({ ...res([]), choices: [], promptBlocked: { reason: 'SAFETY' } }, plain, testContext()) as Data;
    expect(blocked).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' }, output: [] });
    const error = encodeResponse({ ...res([]), choices: [{ index: 0, content: [], finishReason: { unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' } }] }, plain, testContext()) as Data;
    expect(error).toMatchObject({ status: 'failed', error: { code: 'server_error', message: expect.stringContaining('MALFORMED_FUNCTION_CALL') } });
  });

  it('built-in tool items of a Responses upstream come back where they were', () => {
    const upstream = decodeResponse(fixtureJson('openai-responses', 'web-search-hosted-tool-annotations.json'), plain, testContext());
    const body = encodeResponse(upstream, plain, testContext()) as Data;
    const original = fixtureJson<Data>('openai-responses', 'web-search-hosted-tool-annotations.json');
    expect(body['output'].map((i: Data) => i['type'])).toEqual(original['output'].map((i: Data) => i['type']));
    const text = body['output'].at(-1)['content'][0];
    expect(text['annotations']).toEqual(original['output'].at(-1)['content'][0]['annotations']);
  });

  it('count tokens and the model list (OpenAI list and Codex catalogue in one object)', () => {
    expect(encodeCountTokensResponse(42)).toEqual({ object: 'response.input_tokens', input_tokens: 42 });
    const list = encodeModelList([{ id: 'claude-x', ownedBy: 'claude', created: 1 }]) as Data;
    expect(list['object']).toBe('list');
    expect(list['data']).toEqual([{ id: 'claude-x', object: 'model', created: 1, owned_by: 'claude' }]);
    // Every field of codex-rs ModelInfo without a serde default (openai/codex codex-rs/protocol/src/openai_models.rs).
    const required = ['slug', 'display_name', 'supported_reasoning_levels', 'shell_type', 'visibility', 'supported_in_api', 'priority', 'base_instructions', 'supports_reasoning_summaries', 'support_verbosity', 'truncation_policy', 'supports_parallel_tool_calls', 'experimental_supported_tools'];
    for (const key of required) expect(list['models'][0]).toHaveProperty(key);
    expect(list['models'][0]).toMatchObject({ slug: 'claude-x', visibility: 'list', shell_type: 'shell_command', apply_patch_tool_type: 'freeform', truncation_policy: { mode: 'bytes', limit: 10000 } });
  });

  it("model list: a route's context window and output limit, and its forced effort as Codex's only level", () => {
    const list = encodeModelList([
      { id: 'deep', ownedBy: 'openai', created: 0, contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { effort: 'high' } },
      { id: 'budgeted', ownedBy: 'claude', created: 0, reasoning: { budgetTokens: 4096 } },
    ]) as Data;
    expect(list['data'][0]).toEqual({ id: 'deep', object: 'model', created: 0, owned_by: 'openai', context_window: 400_000, max_output_tokens: 128_000 });
    expect(list['models'][0]).toMatchObject({ context_window: 400_000, default_reasoning_level: 'high', supported_reasoning_levels: [{ effort: 'high' }] });
    // A budget alone leaves Codex's levels as they are (the budget wins upstream anyway).
    expect(list['models'][1]).not.toHaveProperty('context_window');
    expect(list['models'][1]['supported_reasoning_levels'].map((l: Data) => l['effort'])).toEqual(['low', 'medium', 'high']);
  });

  it('model list: globs are routes, not Codex models; with none selectable there is no Codex catalogue', () => {
    const some = encodeModelList([{ id: 'claude-*', ownedBy: 'claude', created: 0 }, { id: 'gpt-5.5', ownedBy: 'openai', created: 0 }]) as Data;
    expect(some['data'].map((m: Data) => m['id'])).toEqual(['claude-*', 'gpt-5.5']);
    expect(some['models'].map((m: Data) => m['slug'])).toEqual(['gpt-5.5']);
    const none = encodeModelList([{ id: '*', ownedBy: 'openai', created: 0 }]) as Data;
    expect(none['data']).toHaveLength(1);
    expect(none).not.toHaveProperty('models');
  });

  it('echoes every setting the caller gave: canonical ones and this dialect’s own fields and hints', () => {
    const req: ChatRequest = {
      ...plain,
      system: [{ type: 'text', text: 'A' }, { type: 'image', source: { type: 'url', url: 'https://x/s.png' } } as never, { type: 'text', text: 'B' }],
      maxOutputTokens: 50,
      parallelToolCalls: false,
      temperature: 0.3,
      topP: 0.8,
      topLogprobs: 4,
      responseFormat: { type: 'json' },
      tools: [{ name: 'f' }, { name: 'p', custom: {} }],
      toolChoice: { type: 'tool', name: 'p' },
      reasoning: { effort: 'low' },
      user: 'u-1',
      metadata: { k: 'v' },
      extras: {
        dialect: 'openai-responses',
        fields: { previous_response_id: 'resp_0', truncation: 'auto', service_tier: 'flex', store: false },
        hints: { prompt_cache_key: 'key', safety_identifier: 'sid', text: { verbosity: 'high' }, reasoning: { effort: 'xhigh', summary: 'detailed' } },
      } as never,
    };
    const body = encodeResponse(res([]), req, testContext()) as Data;
    expect(body).toMatchObject({
      instructions: 'A\n\nB',
      max_output_tokens: 50,
      parallel_tool_calls: false,
      previous_response_id: 'resp_0',
      prompt_cache_key: 'key',
      reasoning: { effort: 'xhigh', summary: 'detailed' },
      safety_identifier: 'sid',
      service_tier: 'flex',
      store: false,
      temperature: 0.3,
      text: { format: { type: 'json_object' }, verbosity: 'high' },
      tool_choice: { type: 'custom', name: 'p' },
      top_logprobs: 4,
      top_p: 0.8,
      truncation: 'auto',
      user: 'u-1',
      metadata: { k: 'v' },
    });
    expect(body['tools']).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object', properties: {} }, strict: false },
      { type: 'custom', name: 'p' },
    ]);
    // A field the caller set wins over its hint; a canonical setting alone is echoed as encoded.
    const fieldWins = encodeResponse(res([]), { ...plain, reasoning: { effort: 'high', includeThoughts: true }, toolChoice: { type: 'required' }, extras: { dialect: 'openai-responses', fields: { store: true, tool_choice: { type: 'web_search' } }, hints: { store: false } } as never }, testContext()) as Data;
    expect(fieldWins).toMatchObject({ store: true, tool_choice: { type: 'web_search' }, reasoning: { effort: 'high', summary: 'auto' } });
    expect(fieldWins).not.toHaveProperty('user');
    // Hints of the wrong shape are ignored.
    const odd = encodeResponse(res([]), { ...plain, reasoning: { effort: 'low' }, extras: { dialect: 'openai-responses', fields: {}, hints: { text: ['high'], reasoning: ['x'] } } as never }, testContext()) as Data;
    expect(odd).toMatchObject({ text: { format: { type: 'text' }, verbosity: 'medium' } });
    expect(odd['reasoning']).toEqual({ effort: 'low', summary: null });
    // Another dialect's extras are not this dialect's fields.
    const foreign = encodeResponse(res([]), { ...plain, extras: { dialect: 'anthropic', fields: { store: false, truncation: 'auto' } } as never }, testContext()) as Data;
    expect(foreign).toMatchObject({ store: true, truncation: 'disabled' });
  });
});

describe('the Codex catalogue', () => {
  it('each selectable model is a whole ModelInfo entry, by priority in the configured order', () => {
    const list = encodeModelList([{ id: 'claude-x', ownedBy: 'anthropic', created: 1 }, { id: 'gpt-*', ownedBy: 'openai', created: 2 }, { id: 'gemini-y', ownedBy: 'google', created: 3 }]) as Data;
    expect(list['data'].map((m: Data) => m['owned_by'])).toEqual(['anthropic', 'openai', 'google']);
    expect(list['models'].map((m: Data) => [m['slug'], m['priority']])).toEqual([['claude-x', 0], ['gemini-y', 1]]);
    expect(list['models'][1]).toEqual({
      slug: 'gemini-y',
      display_name: 'gemini-y',
      description: 'gemini-y via google',
      default_reasoning_level: 'medium',
      supported_reasoning_levels: [
        { effort: 'low', description: 'Quicker answers, lighter reasoning' },
        { effort: 'medium', description: 'Balanced speed and depth' },
        { effort: 'high', description: 'Deeper reasoning for harder problems' },
      ],
      shell_type: 'shell_command',
      visibility: 'list',
      minimal_client_version: [0, 0, 0],
      supported_in_api: true,
      priority: 1,
      upgrade: null,
      base_instructions: '',
      supports_reasoning_summaries: true,
      support_verbosity: false,
      default_verbosity: null,
      apply_patch_tool_type: 'freeform',
      truncation_policy: { mode: 'bytes', limit: 10000 },
      supports_parallel_tool_calls: true,
      experimental_supported_tools: [],
      input_modalities: ['text', 'image'],
    });
  });
});

describe('kept beyond what the caller is shown', () => {
  type Data = Record<string, any>;

  const plain: ChatRequest = { model: 'caller-model', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

  const encrypted: ChatRequest = { ...plain, extras: { dialect: 'openai-responses', fields: {}, encryptedReasoning: true } as never };

  const thinking = { origin: 'anthropic' as const, value: 'EqQBsig' };

  const textSig = { origin: 'gemini' as const, value: 'CikBtext' };

  const res = (content: Part[]): ChatResponse => ({ id: '', model: 'm', created: 1, choices: [{ index: 0, content, finishReason: { unified: 'stop' } }] });

  const parts: Part[] = [
    { type: 'reasoning', text: 'Thinking.', signature: thinking },
    { type: 'text', text: 'Answer.', signature: textSig },
  ];

  /** The same canonical answer as stream events. */
  const events: StreamEvent[] = [
    { type: 'message-start', id: '', model: 'm', created: 1 },
    { type: 'reasoning-start' },
    { type: 'reasoning-delta', text: 'Thinking.' },
    { type: 'reasoning-end', signature: thinking },
    { type: 'text-start' },
    { type: 'text-delta', text: 'Answer.' },
    { type: 'text-end', signature: textSig },
    { type: 'finish', reason: { unified: 'stop' } },
  ];

  function streamed(req: ChatRequest): { frames: Data[]; kept: KeptResponse | undefined; early: unknown } {
    const enc = new OpenAIResponsesStreamEncoder({ ...req, stream: true }, testContext());
    const frames = events.flatMap((e) => enc.push(e));
    const early = enc.kept();
    frames.push(...enc.finish());
    const kept = enc.kept();
    expect(enc.kept()).toBe(kept); // made once: the hidden item's id does not change
    return { frames: frames.map((f) => JSON.parse(f.data) as Data), kept, early };
  }

  it('JSON: the answer is encodeResponse’s; the kept output adds the signatures, the text signature’s item is hidden', () => {
    const { answer, kept } = encodeKept(res(parts), plain, testContext());
    // (The hidden item's id is minted in between: the Response id is the next one.)
    expect({ ...(answer as Data), id: 'resp' }).toEqual({ ...(encodeResponse(res(parts), plain, testContext()) as Data), id: 'resp' });
    const shown = (answer as Data)['output'] as Data[];
    expect(shown.map((i) => i['type'])).toEqual(['reasoning', 'message']);
    expect(shown[0]).not.toHaveProperty('encrypted_content');
    expect(kept.response).toBe(answer);
    expect(kept.output).toEqual([
      { ...shown[0], encrypted_content: encodeReasoning({ text: 'Thinking.', signature: thinking }) },
      shown[1],
      { id: kept.hidden![0], type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', signature: textSig }) },
    ]);
    expect(kept.hidden).toEqual([expect.stringMatching(/^rs_/)]);
  });

  it('JSON: a caller that asked for encrypted reasoning was shown it all: nothing more is kept', () => {
    const { answer, kept } = encodeKept(res(parts), encrypted, testContext());
    expect(((answer as Data)['output'] as Data[]).map((i) => i['type'])).toEqual(['reasoning', 'message', 'reasoning']);
    expect(kept).toEqual({ response: answer });
    const unsigned = encodeKept(res([{ type: 'reasoning', text: 'plain' }, { type: 'text', text: 'x' }]), plain, testContext());
    expect(unsigned.kept).toEqual({ response: unsigned.answer });
  });

  it('stream: the frames are as before; kept() after the terminal frame holds the signatures, the same ids', () => {
    const { frames, kept, early } = streamed(plain);
    expect(early).toBeUndefined();
    const done = frames.at(-1)!['response'] as Data;
    expect(JSON.stringify(frames)).not.toContain('encrypted_content');
    expect(done['output'].map((i: Data) => i['type'])).toEqual(['reasoning', 'message']);
    expect(kept!.response).toEqual(done);
    expect(kept!.output).toEqual([
      { ...done['output'][0], encrypted_content: encodeReasoning({ text: 'Thinking.', signature: thinking }) },
      done['output'][1],
      { id: kept!.hidden![0], type: 'reasoning', summary: [], encrypted_content: encodeReasoning({ text: '', signature: textSig }) },
    ]);
  });

  it('stream: an encrypted caller keeps what it was shown; a stream cut before its end keeps what ended', () => {
    const { frames, kept } = streamed(encrypted);
    expect(kept).toEqual({ response: frames.at(-1)!['response'] });
    const enc = new OpenAIResponsesStreamEncoder({ ...plain, stream: true }, testContext());
    for (const e of events.slice(0, 4)) enc.push(e);
    enc.finish(); // no finish event: the response fails, its reasoning item done
    expect(enc.kept()!.output).toEqual([expect.objectContaining({ type: 'reasoning', encrypted_content: expect.any(String) })]);
  });
});
