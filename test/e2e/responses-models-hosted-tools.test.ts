/**
 * Through the official `openai` SDK: `GET /v1/models` carries both OpenAI's `data` list and the
 * `models` catalogue Codex reads for discovery (`?client_version=…`); a hosted tool (`web_search`)
 * toward an upstream that cannot run it is reported by its type and the caller's `tools[i]`
 * path, and refused by name in strict mode.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { INBOUND_KEY, TARGETS, responsesE2eConfig, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { UPSTREAMS } from './responses-helpers.ts';

describe.each(TARGETS)('%s: Codex model discovery and hosted-tool losses', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, responsesE2eConfig);
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  it('GET /v1/models?client_version=…: OpenAI data[] and Codex models[] in one object', async () => {
    const ids = (await client.models.list()).data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['to-anthropic', 'to-responses', 'gpt-*']));

    const res = await fetch(`${h.proxy.url}/v1/models?client_version=0.99.0`, { headers: { authorization: `Bearer ${INBOUND_KEY}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: Array<{ id: string }>; models: Array<Record<string, any>> };
    expect(body.object).toBe('list');
    expect(body.data.map((m) => m.id)).toEqual(ids);
    const slugs = body.models.map((m) => m.slug);
    // Every routable name, not the globs (a route, not a model Codex could pick).
    expect(slugs).toEqual(ids.filter((id) => !id.includes('*')));
    const entry = body.models.find((m) => m.slug === 'to-anthropic')!;
    expect(entry).toMatchObject({ display_name: 'to-anthropic', visibility: 'list', supported_in_api: true, apply_patch_tool_type: 'freeform', shell_type: 'shell_command' });
    expect(entry.supported_reasoning_levels.map((l: { effort: string }) => l.effort)).toEqual(['low', 'medium', 'high']);
  });

  it.each(UPSTREAMS.filter((u) => u.name !== 'responses'))('code_interpreter toward $name: dropped:tools[1]=code_interpreter, and a strict 400 naming it', async (u) => {
    h.mock.reply(u.text('No code here.', false));
    // A function every upstream takes without loss, then the hosted tool: the only loss is tools[1].
    const tools = [{ type: 'function' as const, name: 'noop', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false }, { type: 'code_interpreter' as const, container: { type: 'auto' as const } }];
    const { data, response } = await client.responses.create({ model: u.model, input: 'News?', tools }).withResponse();
    expect(data.output_text).toBe('No code here.');
    expect(response.headers.get('x-interlingua-warnings')).toContain('dropped:tools[1]=code_interpreter');
    expect(JSON.stringify(h.mock.requests[0]!.json)).not.toContain('code_interpreter');

    h.mock.requests.length = 0;
    const err = await client.responses.create({ model: u.model, input: 'News?', tools }, { headers: { 'x-interlingua-strict': 'true' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.error).toMatchObject({ param: 'tools[1]', code: 'strict_mode_violation' });
    expect(e.message).toContain('tools[1]=code_interpreter');
    expect(h.mock.requests).toHaveLength(0);
  });

  it.each(UPSTREAMS.filter((u) => u.name === 'anthropic' || u.name === 'gemini'))('web_search toward $name: its own hosted search, no loss', async (u) => {
    h.mock.reply(u.text('Searched.', false));
    const { response } = await client.responses.create({ model: u.model, input: 'News?', tools: [{ type: 'web_search' }], store: false }).withResponse();
    expect(response.headers.get('x-interlingua-warnings') ?? '').not.toContain('tools');
    expect(h.mock.requests[0]!.json.tools).toEqual(u.name === 'anthropic' ? [{ type: 'web_search_20250305', name: 'web_search' }] : [{ googleSearch: {} }]);
  });

  it('toward an openai-responses upstream the hosted tool goes through, with no warning', async () => {
    const u = UPSTREAMS.find((x) => x.name === 'responses')!;
    h.mock.reply(u.text('Searched.', false));
    const { response } = await client.responses.create({ model: u.model, input: 'News?', tools: [{ type: 'web_search' }], store: false }).withResponse();
    expect(response.headers.get('x-interlingua-warnings')).toBeNull();
    expect(h.mock.requests[0]!.json.tools).toEqual([{ type: 'web_search' }]);
  });
});
