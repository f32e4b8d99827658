/**
 * Gemini caller ⇄ other upstreams and other callers ⇄ Gemini upstream, through the real
 * neighbouring translators (test files may import them; the translator code never does).
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../support/fixtures.ts';
import type { UpstreamTarget } from '../../translators/types.ts';
import { anthropic } from '../../translators/anthropic/index.ts';
import { gemini } from '../../translators/gemini/index.ts';

const anthropicTarget: UpstreamTarget = { name: 'a', model: 'claude-sonnet-4-5', apiKey: 'k', options: {} };

function decodeStream(events: ReturnType<typeof fixtureSse>, dialect: typeof gemini, req: ChatRequest): StreamEvent[] {
  const dec = dialect.createStreamDecoder(req, testContext());
  const out = events.flatMap((e) => dec.push(e));
  out.push(...dec.finish());
  return out;
}

describe('Gemini caller, Anthropic upstream: thinking signatures round trip', () => {
  it('a streamed thinking block comes back, merged, with its Anthropic signature', () => {
    const callerReq = gemini.decodeRequest(
      {
        body: { contents: [{ role: 'user', parts: [{ text: 'divide it' }] }], generationConfig: { thinkingConfig: { includeThoughts: true } } },
        headers: {},
        params: { model: 'claude-sonnet-4-5', method: 'streamGenerateContent' },
        query: { alt: 'sse' },
      },
      testContext(),
    ).value;
    const events = decodeStream(fixtureSse('anthropic', 'stream-thinking-signature.sse'), anthropic, callerReq);
    const thinking = events.filter((e) => e.type === 'reasoning-delta').map((e) => (e.type === 'reasoning-delta' ? e.text : '')).join('');
    const signature = events.find((e) => e.type === 'reasoning-end' && e.signature);
    expect(signature).toBeDefined();

    const enc = gemini.createStreamEncoder(callerReq, testContext());
    const chunks = [...events.flatMap((e) => enc.push(e)), ...enc.finish()].map((f) => JSON.parse(f.data));
    // @google/genai's chat keeps every streamed chunk's content as its own model turn.
    const history = chunks.map((c) => c.candidates[0].content);
    const next = gemini.decodeRequest(
      {
        body: { contents: [{ role: 'user', parts: [{ text: 'divide it' }] }, ...history, { role: 'user', parts: [{ text: 'and again' }] }] },
        headers: {},
        params: { model: 'claude-sonnet-4-5', method: 'generateContent' },
        query: {},
      },
      testContext(),
    ).value;
    const first = next.messages[1]!.content[0]!;
    expect(first).toEqual({ type: 'reasoning', text: thinking, signature: signature!.type === 'reasoning-end' ? signature!.signature : undefined });

    const body = JSON.parse(anthropic.encodeRequest(next, anthropicTarget, testContext()).value.body as string);
    const block = body.messages[1].content[0];
    expect(block.type).toBe('thinking');
    expect(block.thinking).toBe(thinking);
    expect(block.signature).toBe(signature!.type === 'reasoning-end' ? signature!.signature!.value : '');
  });
});

describe('Anthropic caller, Gemini upstream: parallel same-name calls and signatures', () => {
  it('tool_use ids from Gemini answers pair back into one ordered function-response turn', () => {
    const callerBody = {
      model: 'gemini-3-flash-preview',
      max_tokens: 1000,
      messages: [{ role: 'user', content: 'read the theme and screens A, B, C' }],
    };
    const req = anthropic.decodeRequest({ body: callerBody, headers: { 'anthropic-version': '2023-06-01' }, params: {}, query: {} }, testContext()).value;
    const events = decodeStream(fixtureSse('gemini', 'vertex-stream-thought-parallel-streamed-args.sse'), gemini, req);
    const enc = anthropic.createStreamEncoder(req, testContext());
    const frames = [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
    // Rebuild the assistant turn the Anthropic SDK would hold.
    const blocks: Array<Record<string, any>> = [];
    for (const f of frames) {
      const d = JSON.parse(f.data);
      if (d.type === 'content_block_start') blocks[d.index] = { ...d.content_block, _json: '' };
      if (d.type === 'content_block_delta') {
        const b = blocks[d.index]!;
        if (d.delta.type === 'input_json_delta') b._json += d.delta.partial_json;
        if (d.delta.type === 'thinking_delta') b.thinking += d.delta.thinking;
        if (d.delta.type === 'signature_delta') b.signature = d.delta.signature;
      }
    }
    const assistant = blocks.map(({ _json, ...b }) => (b.type === 'tool_use' ? { ...b, input: JSON.parse(_json || '{}') } : b));
    const toolUses = assistant.filter((b) => b.type === 'tool_use');
    expect(toolUses.map((b) => b.name)).toEqual(['read_theme', 'read_screen', 'read_screen', 'read_screen']);

    const followUp = {
      ...callerBody,
      messages: [
        ...callerBody.messages,
        { role: 'assistant', content: assistant },
        {
          role: 'user',
          content: [...toolUses].reverse().map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: `done ${JSON.stringify(b.input)}` })),
        },
      ],
    };
    const next = anthropic.decodeRequest({ body: followUp, headers: { 'anthropic-version': '2023-06-01' }, params: {}, query: {} }, testContext()).value;
    const out = gemini.encodeRequest(next, { name: 'g', model: 'gemini-3-flash-preview', apiKey: 'k', options: {} }, testContext());
    const body = JSON.parse(out.value.body as string);
    const model = body.contents[1];
    expect(model.role).toBe('model');
    const calls = model.parts.filter((p: Record<string, unknown>) => p.functionCall);
    expect(calls[0].thoughtSignature).toMatch(/^AY89a18a/);
    expect(body.contents[2].parts.map((p: any) => [p.functionResponse.name, p.functionResponse.response])).toEqual([
      ['read_theme', { output: 'done {}' }],
      ['read_screen', { output: 'done {"id":"A"}' }],
      ['read_screen', { output: 'done {"id":"B"}' }],
      ['read_screen', { output: 'done {"id":"C"}' }],
    ]);
  });
});
