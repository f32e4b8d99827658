/**
 * `@google/genai`'s Interactions API as the caller, through a real Interlingua server, for what
 * one upstream dialect shows best: thoughts from Anthropic whose signature returns untouched
 * (JSON and stream), Gemini 3's functionCall signature as a thought step and back on the call,
 * usage with thought and cached tokens and an incomplete status from a Responses upstream,
 * parallel calls paired by call_id, generation_config knobs, images and documents, and a hosted
 * Google tool kept for Gemini but dropped with a loss warning elsewhere.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson, fixtureSse } from '../support/fixtures.ts';
import { fixtureReply, responsesReply, type ResponsesMockScript } from '../support/mock-upstream.ts';
import { TARGETS, useHarness } from '../support/proxy.ts';
import { workerBundle } from '../support/worker.ts';
import { PNG_1X1 } from './helpers-gemini.ts';
import { UPSTREAMS, sentTo } from './responses-helpers.ts';
import { checked, collect, genai, interactionsE2eConfig, streamedSteps, weatherFn, type GoogleGenAI } from './interactions-helpers.ts';

describe.each(TARGETS)('%s: @google/genai interactions.create → Interlingua: per-dialect mappings', (target) => {
  beforeAll(() => workerBundle().then(() => undefined), 180_000);
  const h = useHarness(target, interactionsE2eConfig);
  let ai: GoogleGenAI;
  beforeAll(() => {
    ai = genai(h.proxy.url);
  });

  it("thoughts from Anthropic: a thought step with summary and signature; sent back, Anthropic gets its own block (JSON and stream)", async () => {
    const block = fixtureJson('anthropic', 'thinking-signature.json').content.find((c: any) => c.type === 'thinking');
    h.mock.reply(fixtureReply('anthropic', 'thinking-signature.json'));
    const thinking = { thinking_level: 'low' as const, thinking_summaries: 'auto' as const };
    const res = await ai.interactions.create({ model: 'to-anthropic', input: 'What is 925 / 5?', generation_config: thinking, store: false });
    expect(h.mock.requests[0]!.json.thinking).toMatchObject({ type: expect.stringMatching(/enabled|adaptive/) });
    const thought = res.steps.find((s) => s.type === 'thought');
    expect(thought).toMatchObject({ type: 'thought', summary: [{ type: 'text', text: expect.stringContaining('925 divided by 5') }] });
    expect(thought?.type === 'thought' && thought.signature).toBeTruthy();
    expect(res.output_text).toBe('925 ÷ 5 = 185');
    expect(res.steps.map((s) => s.type)).toEqual(['thought', 'model_output']);

    h.mock.requests.length = 0;
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    const history = [{ type: 'user_input' as const, content: [{ type: 'text' as const, text: 'What is 925 / 5?' }] }, ...res.steps, { type: 'user_input' as const, content: [{ type: 'text' as const, text: 'And / 37?' }] }];
    await ai.interactions.create({ model: 'to-anthropic', input: history, generation_config: thinking, store: false });
    const blocks = h.mock.requests[0]!.json.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
    expect(blocks.find((b: any) => b.type === 'thinking')).toEqual(block);

    // Streamed: summary deltas, then the signature as the thought step's last delta.
    const streamedSig = fixtureSse('anthropic', 'stream-thinking-signature.sse')
      .map((e) => JSON.parse(e.data))
      .find((d) => d.delta?.type === 'signature_delta').delta.signature;
    h.mock.requests.length = 0;
    h.mock.reply(fixtureReply('anthropic', 'stream-thinking-signature.sse'));
    const events = checked(await collect(await ai.interactions.create({ model: 'to-anthropic', input: 'Divide', generation_config: thinking, stream: true, store: false })));
    const deltas = events.filter((e) => e.event_type === 'step.delta' && e.index === 0).map((e) => e.delta.type);
    expect(deltas).toContain('thought_summary');
    expect(deltas.at(-1)).toBe('thought_signature');
    const steps = streamedSteps(events);
    expect(steps[0].summary.map((c: any) => c.text).join('')).toContain('I need to divide that by 5.');
    h.mock.requests.length = 0;
    h.mock.reply(fixtureReply('anthropic', 'text-basic.json'));
    await ai.interactions.create({ model: 'to-anthropic', input: [history[0]!, ...steps, history[2]!], generation_config: thinking, store: false });
    const sent = h.mock.requests[0]!.json.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : []));
    expect(sent.find((b: any) => b.type === 'thinking')?.signature).toBe(streamedSig);
  });

  it('usage: thought tokens apart from the output, cached tokens kept; a max-tokens stop is incomplete (JSON and stream)', async () => {
    const script: ResponsesMockScript = { items: [{ type: 'reasoning', summary: ['Think.'] }, { type: 'message', text: 'Partial' }], usage: { input: 40, cached: 32, output: 20, reasoning: 12 }, incomplete: true };
    const usage = { total_input_tokens: 40, total_cached_tokens: 32, total_output_tokens: 8, total_thought_tokens: 12, total_tokens: 60 };
    h.mock.reply(responsesReply(script, false));
    const res = await ai.interactions.create({ model: 'to-responses', input: 'Hi', store: false });
    expect(res.status).toBe('incomplete');
    expect(res.usage).toMatchObject(usage);
    expect(res.output_text).toBe('Partial');
    h.mock.reply(responsesReply(script, true));
    const done = checked(await collect(await ai.interactions.create({ model: 'to-responses', input: 'Hi', stream: true, store: false }))).at(-1)!;
    expect(done.interaction).toMatchObject({ status: 'incomplete', usage });
  });

  it("Gemini 3's signature on a functionCall: a thought step before the call, back to Gemini on the call itself (JSON and stream)", async () => {
    for (const [reply, name] of [['gemini3-tool-call.json', 'weather'], ['stream-gemini3-tool-call.sse', undefined]] as const) {
      h.mock.requests.length = 0;
      h.mock.reply(fixtureReply('gemini', reply));
      const stream = reply.endsWith('.sse');
      const steps = stream
        ? streamedSteps(checked(await collect(await ai.interactions.create({ model: 'to-gemini', input: 'Weather?', tools: [weatherFn], stream: true, store: false }))))
        : (await ai.interactions.create({ model: 'to-gemini', input: 'Weather?', tools: [weatherFn], store: false })).steps;
      const upstreamParts = stream
        ? fixtureSse('gemini', reply).flatMap((e) => JSON.parse(e.data).candidates?.[0]?.content?.parts ?? [])
        : fixtureJson('gemini', reply).candidates[0].content.parts;
      const signed = upstreamParts.find((p: any) => p.functionCall && p.thoughtSignature);
      if (name) expect(signed.functionCall.name).toBe(name);
      const types = steps.map((st: any) => st.type);
      expect(types.indexOf('thought')).toBe(types.indexOf('function_call') - 1);
      expect(steps[types.indexOf('thought')].signature).toBeTruthy();

      h.mock.requests.length = 0;
      h.mock.reply(UPSTREAMS.find((x) => x.name === 'gemini')!.text('Sunny.', false));
      const call = steps.find((st: any) => st.type === 'function_call') as any;
      await ai.interactions.create({
        model: 'to-gemini',
        tools: [weatherFn],
        store: false,
        input: [{ type: 'user_input', content: [{ type: 'text', text: 'Weather?' }] }, ...steps, { type: 'function_result', call_id: call.id, name: call.name, result: 'sunny' }],
      });
      const model = h.mock.requests[0]!.json.contents.find((c: any) => c.role === 'model');
      expect(model.parts.find((p: any) => p.functionCall)).toMatchObject({ functionCall: { name: signed.functionCall.name }, thoughtSignature: signed.thoughtSignature });
    }
  });

  it('generation_config knobs reach OpenAI in its own terms (temperature, top_p, seed, stop, tool_choice any → required)', async () => {
    const openai = UPSTREAMS.find((x) => x.name === 'openai')!;
    h.mock.reply(openai.toolCall('get_weather', { location: 'Rome' }, 'call_k1', false));
    const generation_config = { temperature: 0.3, top_p: 0.9, seed: 7, stop_sequences: ['END'], tool_choice: 'any' as const };
    await ai.interactions.create({ model: 'to-openai', input: 'Rome?', tools: [weatherFn], generation_config, store: false });
    expect(sentTo(h.mock.requests, openai).json).toMatchObject({ temperature: 0.3, top_p: 0.9, seed: 7, stop: ['END'], tool_choice: 'required' });
  });

  it('parallel calls from OpenAI: one function_result per call_id, sent back in reverse order, each paired to its call', async () => {
    const openai = UPSTREAMS.find((x) => x.name === 'openai')!;
    const calls = [{ id: 'call_p1', city: 'Paris' }, { id: 'call_p2', city: 'Oslo' }];
    h.mock.reply({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'chatcmpl_par',
        object: 'chat.completion',
        created: 1_767_000_000,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ location: c.city }) } })) } }],
        usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
      }),
    });
    const first = await ai.interactions.create({ model: 'to-openai', input: 'Paris and Oslo?', tools: [weatherFn], store: false });
    const got = first.steps.filter((s) => s.type === 'function_call');
    expect(got.map((s) => s.type === 'function_call' && s.arguments)).toEqual([{ location: 'Paris' }, { location: 'Oslo' }]);

    h.mock.requests.length = 0;
    h.mock.reply(openai.text('Both sunny.', false));
    const results = got.reverse().map((s) => ({ type: 'function_result' as const, call_id: s.type === 'function_call' ? s.id : '', name: 'get_weather', result: s.type === 'function_call' ? `sunny in ${s.arguments.location}` : '' }));
    await ai.interactions.create({ model: 'to-openai', tools: [weatherFn], store: false, input: [{ type: 'user_input', content: [{ type: 'text', text: 'Paris and Oslo?' }] }, ...first.steps, ...results] });
    for (const c of calls) expect(openai.toolResultSent(sentTo(h.mock.requests, openai).json, c.id)).toContain(c.city);
  });

  it('images and documents in the input reach OpenAI and Anthropic in their own media forms', async () => {
    const PDF = Buffer.from('%PDF-1.4\n%mock\n').toString('base64');
    const input = [
      { type: 'text' as const, text: 'What is in these?' },
      { type: 'image' as const, data: PNG_1X1, mime_type: 'image/png' as const },
    ];
    const openai = UPSTREAMS.find((x) => x.name === 'openai')!;
    h.mock.reply(openai.text('A pixel.', false));
    expect((await ai.interactions.create({ model: 'to-openai', input, store: false })).output_text).toBe('A pixel.');
    expect(sentTo(h.mock.requests, openai).json.messages.at(-1).content).toContainEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1}` } });

    h.mock.requests.length = 0;
    const anthropic = UPSTREAMS.find((x) => x.name === 'anthropic')!;
    h.mock.reply(anthropic.text('A pixel and a PDF.', false));
    await ai.interactions.create({ model: 'to-anthropic', input: [...input, { type: 'document', data: PDF, mime_type: 'application/pdf' }], store: false });
    const parts = sentTo(h.mock.requests, anthropic).json.messages.at(-1).content;
    expect(parts).toContainEqual(expect.objectContaining({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1X1 } }));
    expect(parts).toContainEqual(expect.objectContaining({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } }));
  });

  it('Google Search is kept for a Gemini upstream and is Anthropic\'s web search toward Anthropic', async () => {
    const gemini = UPSTREAMS.find((x) => x.name === 'gemini')!;
    h.mock.reply(gemini.text('Searched.', false));
    await ai.interactions.create({ model: 'to-gemini', input: 'News?', tools: [{ type: 'google_search' }], store: false });
    expect(JSON.stringify(sentTo(h.mock.requests, gemini).json.tools)).toMatch(/google_?search/i);
    h.mock.requests.length = 0;
    const anthropic = UPSTREAMS.find((x) => x.name === 'anthropic')!;
    h.mock.reply(anthropic.text('Searched.', false));
    const res = await ai.interactions.create({ model: 'to-anthropic', input: 'News?', tools: [weatherFn, { type: 'google_search' }], store: false });
    expect(sentTo(h.mock.requests, anthropic).json.tools.map((t: { name: string }) => t.name)).toEqual(['get_weather', 'web_search']);
    expect(res.sdkHttpResponse?.headers?.['x-interlingua-warnings'] ?? '').not.toMatch(/tools\[1\]/);
  });

  it('a hosted Google tool with no peer is kept for a Gemini upstream, dropped with a loss warning toward Anthropic', async () => {
    const tools = [weatherFn, { type: 'code_execution' as const }];
    const gemini = UPSTREAMS.find((x) => x.name === 'gemini')!;
    h.mock.reply(gemini.text('Searched.', false));
    await ai.interactions.create({ model: 'to-gemini', input: 'News?', tools, store: false });
    const geminiTools = sentTo(h.mock.requests, gemini).json.tools;
    expect(JSON.stringify(geminiTools)).toMatch(/code_?execution/i);

    h.mock.requests.length = 0;
    const anthropic = UPSTREAMS.find((x) => x.name === 'anthropic')!;
    h.mock.reply(anthropic.text('No code.', false));
    const res = await ai.interactions.create({ model: 'to-anthropic', input: 'News?', tools, store: false });
    expect(Object.keys(anthropic.toolsSent(sentTo(h.mock.requests, anthropic).json))).toEqual(['get_weather']);
    expect(res.sdkHttpResponse?.headers?.['x-interlingua-warnings']).toMatch(/dropped:tools\[1\]=code_?execution/i);
  });
});
