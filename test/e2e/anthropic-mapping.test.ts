/**
 * Field mappings for `@anthropic-ai/sdk` callers against OpenAI and Gemini upstreams: usage
 * (cache reads, which Anthropic counts outside input_tokens), stop reasons, tool_choice,
 * structured output, documents, metadata, and what is dropped with a warning.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { TARGETS, useHarness } from '../support/proxy.ts';
import { SDKS, toolFor, type AnthropicClient } from './helpers-anthropic.ts';

const ask = (model: string, extra: Record<string, unknown> = {}) =>
  ({ model, max_tokens: 512, messages: [{ role: 'user' as const, content: 'Hello' }], ...extra }) as never;

describe.each(TARGETS)('%s: Anthropic SDK field mappings → OpenAI / Gemini', (target) => {
  const h = useHarness(target);

  describe.each(SDKS)('$name', (sdk) => {
    let client: AnthropicClient;
    beforeAll(() => {
      client = sdk.make(h.proxy.url);
    });

    it('usage: cached prompt tokens become cache_read_input_tokens, outside input_tokens', async () => {
      const usage = fixtureJson('openai-chat', 'usage-cached-and-reasoning-tokens.json');
      const body = { ...fixtureJson('openai-chat', 'text-basic.json'), usage };
      h.mock.reply({ status: 200, body: JSON.stringify(body) });
      const o = await client.messages.create(ask('to-openai'));
      expect(o.usage).toMatchObject({
        input_tokens: usage.prompt_tokens - usage.prompt_tokens_details.cached_tokens,
        cache_read_input_tokens: usage.prompt_tokens_details.cached_tokens,
        cache_creation_input_tokens: 0,
        output_tokens: usage.completion_tokens,
      });

      const g = fixtureJson('gemini', 'structured-output-response-schema-cached-tokens.json');
      h.mock.reply(fixtureReply('gemini', 'structured-output-response-schema-cached-tokens.json'));
      const gm = await client.messages.create(ask('to-gemini'));
      const um = g.usageMetadata;
      expect(gm.usage.cache_read_input_tokens).toBe(um.cachedContentTokenCount);
      expect(gm.usage.input_tokens).toBe(um.promptTokenCount - um.cachedContentTokenCount);
      expect(gm.usage.output_tokens).toBe(um.candidatesTokenCount + (um.thoughtsTokenCount ?? 0));
    });

    it('stop reasons: length → max_tokens, refusal → refusal (with the text), Gemini MAX_TOKENS → max_tokens', async () => {
      h.mock.reply(fixtureReply('openai-chat', 'finish-length.json'));
      expect((await client.messages.create(ask('to-openai'))).stop_reason).toBe('max_tokens');

      const refusal = fixtureJson('openai-chat', 'refusal.json').choices[0].message.refusal;
      h.mock.reply(fixtureReply('openai-chat', 'refusal.json'));
      const r = await client.messages.create(ask('to-openai'));
      expect(r.stop_reason).toBe('refusal');
      expect(r.content).toEqual([{ type: 'text', text: refusal, citations: null }]);

      h.mock.reply(fixtureReply('gemini', 'candidate-safety-block.json'));
      expect((await client.messages.create(ask('to-gemini'))).stop_reason).toBe('refusal');
    });

    it('tool_choice any / none and disable_parallel_tool_use in each upstream dialect', async () => {
      const tools = [toolFor('lookup')];
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      await client.messages.create(ask('to-openai', { tools, tool_choice: { type: 'any' } }));
      await client.messages.create(ask('to-openai', { tools, tool_choice: { type: 'none' } }));
      expect(h.mock.requests[0]!.json.tool_choice).toBe('required');
      expect(h.mock.requests[1]!.json.tool_choice).toBe('none');

      h.mock.reply(fixtureReply('gemini', 'system-instruction.json'));
      await client.messages.create(ask('to-gemini', { tools, tool_choice: { type: 'any' } }));
      await client.messages.create(ask('to-gemini', { tools, tool_choice: { type: 'tool', name: 'lookup' } }));
      expect(h.mock.requests[2]!.json.toolConfig.functionCallingConfig).toEqual({ mode: 'ANY' });
      expect(h.mock.requests[3]!.json.toolConfig.functionCallingConfig).toEqual({ mode: 'ANY', allowedFunctionNames: ['lookup'] });
    });

    it('structured output (output_config.format) → response_format / responseSchema; JSON back as text', async () => {
      const req = fixtureJson('anthropic', 'structured-output-json-schema.request.json');
      const schema = req.output_config.format.schema;
      h.mock.reply(fixtureReply('openai-chat', 'structured-output-json-schema.json'));
      const o = await client.messages.create(ask('to-openai', { output_config: req.output_config }));
      const rf = h.mock.requests[0]!.json.response_format;
      expect(rf.type).toBe('json_schema');
      expect(rf.json_schema.schema).toEqual(schema);
      const expected = fixtureJson('openai-chat', 'structured-output-json-schema.json').choices[0].message.content;
      expect(o.content).toEqual([{ type: 'text', text: expected, citations: null }]);

      h.mock.reply(fixtureReply('gemini', 'structured-output-response-json-schema.json'));
      await client.messages.create(ask('to-gemini', { output_config: req.output_config }));
      const gc = h.mock.requests[1]!.json.generationConfig;
      expect(gc.responseMimeType).toBe('application/json');
      expect(gc.responseSchema ?? gc.responseJsonSchema).toBeDefined();
      expect(JSON.stringify(gc.responseSchema ?? gc.responseJsonSchema)).toContain('product_name');
    });

    it('PDF document blocks → OpenAI file part and Gemini inlineData', async () => {
      const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64');
      const content = [
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf }, title: 'doc.pdf' },
        { type: 'text', text: 'Summarize.' },
      ];
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      await client.messages.create(ask('to-openai', { messages: [{ role: 'user', content }] }));
      const part = h.mock.requests[0]!.json.messages[0].content[0];
      expect(part.type).toBe('file');
      expect(part.file.file_data).toBe(`data:application/pdf;base64,${pdf}`);

      h.mock.reply(fixtureReply('gemini', 'system-instruction.json'));
      await client.messages.create(ask('to-gemini', { messages: [{ role: 'user', content }] }));
      expect(h.mock.requests[1]!.json.contents[0].parts[0]).toEqual({ inlineData: { mimeType: 'application/pdf', data: pdf } });
    });

    it('metadata.user_id → OpenAI user; top_k and cache_control dropped with warnings', async () => {
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      const { response } = await client.messages
        .create(
          ask('to-openai', {
            metadata: { user_id: 'user-123' },
            top_k: 5,
            system: [{ type: 'text', text: 'Long cached prompt', cache_control: { type: 'ephemeral' } }],
          }),
        )
        .withResponse();
      const j = h.mock.requests[0]!.json;
      expect(j.user ?? j.safety_identifier).toBe('user-123');
      expect(j.top_k).toBeUndefined();
      expect(JSON.stringify(j)).not.toContain('cache_control');
      const warnings = response.headers.get('x-interlingua-warnings') ?? '';
      // The caller's own field, as its wire spells it, never the proxy's internal name.
      expect(warnings.split(',').map((w) => w.trim())).toContain('dropped:top_k');
      expect(warnings).not.toContain('topK');
      expect(warnings).toContain('dropped:cache_control');

      h.mock.reply(fixtureReply('gemini', 'system-instruction.json'));
      await client.messages.create(ask('to-gemini', { top_k: 5, metadata: { user_id: 'user-123' } }));
      expect(h.mock.requests[1]!.json.generationConfig.topK).toBe(5);
    });
  });

  it('anthropic-beta reaches the Anthropic upstream (passthrough), not the OpenAI one', async () => {
    const client = SDKS[0]!.make(h.proxy.url);
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await client.messages.create(ask('claude-sonnet-4-5'), { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } });
    expect(h.mock.requests[0]!.headers['anthropic-beta']).toBe('context-1m-2025-08-07');
    h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    await client.messages.create(ask('to-openai'), { headers: { 'anthropic-beta': 'context-1m-2025-08-07' } });
    expect(h.mock.requests[1]!.headers['anthropic-beta']).toBeUndefined();
    expect(h.mock.requests[1]!.body).not.toContain('context-1m');
  });

  it('client.beta.messages (as Claude Code): ?beta=true and defer_loading reach the Anthropic upstream, with no false warning', async () => {
    // SDK 0.x (and Claude Code) put ?beta=true on the URL; 1.x keeps it an internal qualifier.
    const client = SDKS.find((s) => s.name === 'sdk 0.x')!.make(h.proxy.url);
    const tools = [
      { name: 'Read', input_schema: { type: 'object' as const, properties: {} } },
      { name: 'Grep', input_schema: { type: 'object' as const, properties: {} }, defer_loading: true },
    ];
    const body = { ...(ask('claude-sonnet-4-5') as object), betas: ['advanced-tool-use-2025-11-20'], tools };
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const { response } = await client.beta.messages.create(body as never).withResponse();
    expect(h.mock.requests[0]!.url).toBe('/v1/messages?beta=true');
    expect(h.mock.requests[0]!.json.tools[1].defer_loading).toBe(true);
    expect(response.headers.get('x-interlingua-warnings') ?? '').not.toContain('defer_loading');

    // Toward OpenAI the field is dropped, and said so.
    h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
    const other = await client.beta.messages.create({ ...body, model: 'to-openai' } as never).withResponse();
    expect(h.mock.requests[1]!.url).toBe('/v1/chat/completions');
    expect(h.mock.requests[1]!.body).not.toContain('defer_loading');
    expect(other.response.headers.get('x-interlingua-warnings')).toContain('dropped:tools.1.defer_loading');
  });
});
