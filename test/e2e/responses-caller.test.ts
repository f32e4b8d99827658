/**
 * The official `openai` SDK's Responses API (`responses.create`, `stream: true`,
 * `responses.stream()`) as the caller, through a real Interlingua server, to every upstream
 * dialect: OpenAI Chat Completions, Anthropic, Gemini, and a wire-accurate Responses mock (the
 * same-dialect passthrough, byte for byte). Function tools over two turns, reasoning,
 * `text.format` json_schema, Codex's freeform `apply_patch`, a 429 with its retry delay and a
 * stream that fails midway.
 */
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson, parseSse } from '../support/fixtures.ts';
import { fixtureReply, responsesJson, responsesReply, responsesSseChunks } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, responsesE2eConfig, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { PATCH, UPSTREAMS, applyPatchTool, sentTo, weatherTool, type UpstreamCase } from './responses-helpers.ts';

type Event = OpenAI.Responses.ResponseStreamEvent;

/** Every event of a raw stream, checked for what a Responses client depends on. */
async function readChecked(stream: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const e of stream) events.push(e);
  return checked(events);
}

function checked(events: Event[]): Event[] {
  expect(events[0]!.type).toBe('response.created');
  expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i + (events[0]!.sequence_number ?? 0)));
  const terminal = events.filter((e) => e.type === 'response.completed' || e.type === 'response.incomplete' || e.type === 'response.failed');
  expect(terminal).toHaveLength(1);
  expect(events.at(-1)).toBe(terminal[0]);
  // Nothing of an item before its output_item.added.
  const added = new Set<number>();
  for (const e of events) {
    if (e.type === 'response.output_item.added') added.add(e.output_index);
    else if ('output_index' in e && typeof e.output_index === 'number') expect(added.has(e.output_index), `${e.type} before its item`).toBe(true);
  }
  return events;
}

const ofType = <T extends Event['type']>(events: Event[], type: T) => events.filter((e): e is Extract<Event, { type: T }> => e.type === type);

describe.each(TARGETS)('%s: openai SDK responses → Interlingua → every upstream', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, responsesE2eConfig);
  let client: OpenAI;
  beforeAll(() => {
    client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
  });

  describe.each(UPSTREAMS)('to $name', (u: UpstreamCase) => {
    it('function tool over two turns (JSON): function_call out, function_call_output linked back upstream', async () => {
      h.mock.reply(u.toolCall('get_weather', { location: 'Paris' }, 'call_w1', false));
      const first = await client.responses.create({ model: u.model, input: 'Weather in Paris?', tools: [weatherTool], store: false });
      const call = first.output.find((o) => o.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
      expect(JSON.parse((call as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual({ location: 'Paris' });
      expect(first.status).toBe('completed');
      const up1 = sentTo(h.mock.requests, u);
      expect(up1.headers.authorization ?? up1.headers['x-api-key'] ?? up1.headers['x-goog-api-key']).toContain(UPSTREAM_KEYS[u.name === 'responses' ? 'responses' : u.name]);
      expect(Object.keys(u.toolsSent(up1.json))).toEqual(['get_weather']);

      h.mock.requests.length = 0;
      h.mock.reply(u.text('It is sunny.', false));
      const callId = (call as OpenAI.Responses.ResponseFunctionToolCall).call_id;
      const second = await client.responses.create({
        model: u.model,
        store: false,
        tools: [weatherTool],
        input: [
          { role: 'user', content: 'Weather in Paris?' },
          call as OpenAI.Responses.ResponseFunctionToolCall,
          { type: 'function_call_output', call_id: callId, output: '{"temp":21}' },
        ],
      });
      expect(second.output_text).toBe('It is sunny.');
      expect(second.usage).toMatchObject({ input_tokens: 11, output_tokens: 7, total_tokens: 18 });
      expect(u.toolResultSent(sentTo(h.mock.requests, u).json, callId)).toContain('21');
    });

    it('stream: true: ordered events, arguments in deltas, the complete item in output_item.done', async () => {
      h.mock.reply(u.toolCall('get_weather', { location: 'Oslo' }, 'call_w2', true));
      const events = await readChecked(await client.responses.create({ model: u.model, input: 'Oslo?', tools: [weatherTool], stream: true, store: false }));
      const done = ofType(events, 'response.output_item.done').map((e) => e.item).find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
      expect(JSON.parse(done.arguments)).toEqual({ location: 'Oslo' });
      expect(ofType(events, 'response.function_call_arguments.delta').map((e) => e.delta).join('')).toBe(done.arguments);
      const completed = ofType(events, 'response.completed')[0]!;
      expect(completed.response.output.some((o) => o.type === 'function_call' && o.call_id === done.call_id)).toBe(true);
      expect(sentTo(h.mock.requests, u).json.stream ?? u.name === 'gemini').toBeTruthy();
    });

    it('responses.stream() helper: text deltas and finalResponse()', async () => {
      h.mock.reply(u.text('Hello there', true));
      const stream = client.responses.stream({ model: u.model, input: 'Hi', store: false });
      const deltas: string[] = [];
      stream.on('response.output_text.delta', (e) => deltas.push(e.delta));
      const final = await stream.finalResponse();
      expect(final.output_text).toBe('Hello there');
      expect(deltas.join('')).toBe('Hello there');
      expect(final.usage?.output_tokens).toBe(7);
    });

    it('reasoning and text.format json_schema reach the upstream in its own terms', async () => {
      h.mock.reply(u.text('{"city":"Rome"}', false));
      const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
      const res = await client.responses.create({
        model: u.model,
        input: 'A city?',
        store: false,
        reasoning: { effort: 'high', summary: 'auto' },
        text: { format: { type: 'json_schema', name: 'city', schema, strict: true } },
      });
      expect(JSON.parse(res.output_text)).toEqual({ city: 'Rome' });
      const body = sentTo(h.mock.requests, u).json;
      switch (u.name) {
        case 'openai':
          expect(body.reasoning_effort).toBe('high');
          expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'city', schema } });
          break;
        case 'anthropic':
          expect(body.thinking).toMatchObject({ type: 'enabled' });
          expect(JSON.stringify(body)).toContain('"city"');
          break;
        case 'gemini':
          expect(body.generationConfig.thinkingConfig).toMatchObject({ includeThoughts: true });
          expect(body.generationConfig.responseMimeType).toBe('application/json');
          break;
        case 'responses':
          expect(body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
          expect(body.text.format).toMatchObject({ type: 'json_schema', name: 'city', schema });
          break;
      }
    });

    it("Codex's freeform apply_patch: lowered where needed, the call comes back a custom_tool_call with the raw input (JSON and stream)", async () => {
      const reply = (stream: boolean) =>
        u.name === 'responses'
          ? responsesReply({ items: [{ type: 'custom_tool_call', name: 'apply_patch', input: PATCH, callId: 'call_p1' }] }, stream)
          : u.toolCall('apply_patch', { input: PATCH }, 'call_p1', stream);
      h.mock.reply(reply(false));
      const res = await client.responses.create({ model: u.model, input: 'Fix the greeting', tools: [applyPatchTool], store: false });
      const call = res.output.find((o) => o.type === 'custom_tool_call') as OpenAI.Responses.ResponseCustomToolCall;
      expect(call).toMatchObject({ name: 'apply_patch', input: PATCH });
      const sent = u.toolsSent(sentTo(h.mock.requests, u).json);
      if (u.name === 'responses') expect(sent.apply_patch).toEqual({ custom: applyPatchTool.format });
      else expect(String(sent.apply_patch.properties.input.type).toLowerCase()).toBe('string');

      h.mock.requests.length = 0;
      h.mock.reply(reply(true));
      const events = await readChecked(await client.responses.create({ model: u.model, input: 'Fix it', tools: [applyPatchTool], stream: true, store: false }));
      const done = ofType(events, 'response.output_item.done').map((e) => e.item).find((i) => i.type === 'custom_tool_call') as OpenAI.Responses.ResponseCustomToolCall;
      expect(done.input).toBe(PATCH);
      expect(ofType(events, 'response.custom_tool_call_input.delta').map((e) => e.delta).join('')).toBe(PATCH);

      // Replayed as history, it goes back in the upstream's own shape, linked by its call id.
      h.mock.requests.length = 0;
      h.mock.reply(u.text('Patched.', false));
      await client.responses.create({
        model: u.model,
        store: false,
        tools: [applyPatchTool],
        input: [{ role: 'user', content: 'Fix it' }, done, { type: 'custom_tool_call_output', call_id: done.call_id, output: 'Done!' }],
      });
      expect(u.toolResultSent(sentTo(h.mock.requests, u).json, done.call_id)).toContain('Done!');
    });

    it('429 from the upstream: RateLimitError with retry-after', async () => {
      h.mock.reply(u.rateLimited());
      const err = await client.responses.create({ model: u.model, input: 'Hi', store: false }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.RateLimitError);
      const e = err as InstanceType<typeof OpenAI.RateLimitError>;
      expect(e.status).toBe(429);
      expect(Number(e.headers?.get('retry-after'))).toBe(7);
    });

    it('a stream that fails midway ends with one response.failed, last; the SDK raises it', async () => {
      h.mock.reply(u.failingStream());
      const raw = await fetch(`${h.proxy.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: u.model, input: 'Hi', stream: true, store: false }),
      });
      const frames = parseSse(await raw.text());
      for (const f of frames) expect(JSON.parse(f.data).type).toBe(f.event);
      const events = checked(frames.map((f) => JSON.parse(f.data) as Event));
      const failed = ofType(events, 'response.failed')[0]!;
      expect(failed.response.status).toBe('failed');
      expect(failed.response.error?.code).toBeTruthy();

      h.mock.reply(u.failingStream());
      const seen: string[] = [];
      const err = await (async () => {
        for await (const e of await client.responses.create({ model: u.model, input: 'Hi', stream: true, store: false })) seen.push(e.type);
      })().catch((e: unknown) => e);
      expect(seen).toContain('response.output_text.delta');
      if (u.name === 'responses') {
        // Same dialect means untouched: the upstream's own `response.failed`, as OpenAI ends a
        // failed stream (the SDK yields it, as it would from OpenAI itself), nothing added.
        expect(err).toBeUndefined();
        expect(seen.at(-1)).toBe('response.failed');
      } else expect(err).toBeInstanceOf(OpenAI.APIError);
    });
  });

  it('reasoning from Anthropic (thinking + signature) comes back a reasoning item and returns to Anthropic untouched', async () => {
    const fixture = fixtureJson('anthropic', 'thinking-signature.json');
    const thinking = fixture.content.find((c: any) => c.type === 'thinking');
    h.mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
    const res = await client.responses.create({ model: 'to-anthropic', input: 'Think', reasoning: { effort: 'low', summary: 'auto' }, include: ['reasoning.encrypted_content'], store: false });
    const reasoning = res.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary.map((s) => s.text).join('')).toContain(thinking.thinking.slice(0, 20));
    expect(reasoning.encrypted_content).toBeTruthy();

    h.mock.requests.length = 0;
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await client.responses.create({ model: 'to-anthropic', input: [{ role: 'user', content: 'Think' }, ...res.output, { role: 'user', content: 'More' }] as never, store: false, reasoning: { effort: 'low' } });
    const blocks = h.mock.requests[0]!.json.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
    expect(blocks.find((b: any) => b.type === 'thinking')).toEqual(thinking);
  });

  it('to an openai-responses upstream: byte-exact both ways, stateful fields and hosted tools left to it', async () => {
    const script = { id: 'resp_upstream_1', items: [{ type: 'message' as const, text: 'Hello from upstream' }] };
    const upstreamBody = JSON.stringify(responsesJson(script));
    h.mock.reply({ headers: { 'content-type': 'application/json' }, body: upstreamBody });
    const request = {
      model: 'to-responses',
      input: [{ type: 'item_reference', id: 'msg_kept_upstream' }, { role: 'user', content: 'Hi' }],
      previous_response_id: 'resp_prev_upstream',
      store: true,
      background: false,
      tools: [{ type: 'web_search' }],
      include: ['reasoning.encrypted_content'],
      metadata: { a: 'b' },
    };
    const raw = await fetch(`${h.proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe(upstreamBody);
    const got = h.mock.requests[0]!;
    expect(got.url).toBe('/v1/responses');
    expect(got.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.responses}`);
    expect(got.json).toEqual({ ...request, model: 'gpt-5-mini' });
    expect(raw.headers.get('x-interlingua-warnings')).toBeNull();

    h.mock.requests.length = 0;
    h.mock.reply(responsesReply(script, true));
    const streamed = await fetch(`${h.proxy.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...request, stream: true }),
    });
    expect(await streamed.text()).toBe(responsesSseChunks(script).join(''));
  });
});
