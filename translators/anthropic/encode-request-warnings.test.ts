/**
 * What an Anthropic upstream cannot take is left out and reported, exactly once and under the
 * caller's field name; what it can take is sent and never reported.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Warning } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { encodeRequest, JSON_INSTRUCTION, refusesBothSamplers } from './encode-request.ts';

const target: UpstreamTarget = { name: 'claude', model: 'claude-sonnet-4-5', apiKey: 'k', options: {} };

const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

function encode(req: Partial<ChatRequest>, t: UpstreamTarget = target) {
  const { value, warnings } = encodeRequest({ ...base, ...req }, t, testContext());
  return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
}

const thinking = { reasoning: { effort: 'low' as const } };

/** A model that takes temperature and top_p together (Claude 4.1 and later refuse both: sampling-quirks.test.ts). */
const claude4: UpstreamTarget = { ...target, model: 'claude-sonnet-4-20250514' };

describe('anthropic upstream: dropped and adjusted fields', () => {
  it('a plain request reports nothing', () => {
    expect(encode({ temperature: 0.5, topP: 0.9, topK: 10, stop: ['X'], user: 'u' }, claude4).warnings).toEqual([]);
  });

  it.each([
    ['seed', { seed: 3 }, { code: 'dropped', path: 'seed' }],
    ['presence_penalty', { presencePenalty: 0.5 }, { code: 'dropped', path: 'presencePenalty' }],
    ['frequency_penalty', { frequencyPenalty: 0.5 }, { code: 'dropped', path: 'frequencyPenalty' }],
    ['logprobs', { logprobs: true }, { code: 'dropped', path: 'logprobs', lossy: true }],
    ['top_logprobs', { topLogprobs: 2 }, { code: 'dropped', path: 'topLogprobs' }],
    ['metadata', { metadata: { k: 'v' } }, { code: 'dropped', path: 'metadata' }],
    ['a user id past 256 characters', { user: 'u'.repeat(257) }, { code: 'dropped', path: 'user', detail: 'longer than 256' }],
  ] as const)('%s: reported once, not sent', (_name, req, warning) => {
    const { body, warnings } = encode(req as Partial<ChatRequest>);
    expect(warnings).toEqual([warning]);
    for (const key of ['seed', 'presence_penalty', 'frequency_penalty', 'logprobs', 'top_logprobs', 'metadata']) expect(body).not.toHaveProperty(key);
  });

  it('no false reports: logprobs off, empty metadata, a 256-character user id', () => {
    const { body, warnings } = encode({ logprobs: false, metadata: {}, user: 'u'.repeat(256) });
    expect(warnings).toEqual([]);
    expect(body.metadata).toEqual({ user_id: 'u'.repeat(256) });
  });

  it('temperature above 1 is clamped to 1 and reported; 1 itself passes', () => {
    const hot = encode({ temperature: 1.01 });
    expect(hot.body.temperature).toBe(1);
    expect(hot.warnings).toEqual([{ code: 'clamped', path: 'temperature', detail: '1' }]);
    const one = encode({ temperature: 1 });
    expect(one.body.temperature).toBe(1);
    expect(one.warnings).toEqual([]);
    expect(encode({ temperature: 0 }).body.temperature).toBe(0);
  });

  it('with thinking on: temperature other than 1, top_p below 0.95 and top_k are dropped and reported', () => {
    const { body, warnings } = encode({ ...thinking, temperature: 0.7, topP: 0.94, topK: 5 });
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
    expect(body).not.toHaveProperty('top_k');
    expect(warnings).toEqual([
      { code: 'dropped', path: 'temperature', detail: 'thinking' },
      { code: 'dropped', path: 'topP', detail: 'thinking' },
      { code: 'dropped', path: 'topK', detail: 'thinking' },
    ]);
  });

  it('with thinking on: temperature 1 and top_p 0.95 are allowed and sent', () => {
    const { body, warnings } = encode({ ...thinking, temperature: 1, topP: 0.95 }, claude4);
    expect(body).toMatchObject({ temperature: 1, top_p: 0.95, thinking: { type: 'enabled' } });
    expect(warnings).toEqual([]);
  });

  it('json mode is approximated by a system instruction, and reported', () => {
    const { body, warnings } = encode({ responseFormat: { type: 'json' } });
    expect(JSON.stringify(body.system)).toContain(JSON_INSTRUCTION);
    expect(warnings).toEqual([{ code: 'approximated', path: 'responseFormat', detail: 'json_object' }]);
    expect(encode({ responseFormat: { type: 'text' } }).body.system).toBeUndefined();
  });

  it('a non-strict JSON schema is reported as approximated (the upstream is always strict); strict is not', () => {
    const schema = { type: 'object', properties: {} };
    expect(encode({ responseFormat: { type: 'json-schema', name: 'x', schema, strict: false } }).warnings).toEqual([
      { code: 'approximated', path: 'responseFormat.strict' },
    ]);
    expect(encode({ responseFormat: { type: 'json-schema', name: 'x', schema, strict: true } }).warnings).toEqual([]);
  });

  it('legacy models get the forced json_response tool; not forced (and reported) beside other tools or thinking', () => {
    const legacy: UpstreamTarget = { ...target, model: 'claude-3-5-sonnet-latest' };
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const rf = { responseFormat: { type: 'json-schema' as const, name: 'x', schema } };
    const alone = encode(rf, legacy);
    expect(alone.body.tools.map((t: any) => t.name)).toEqual(['json_response']);
    expect(alone.body.tool_choice).toEqual({ type: 'tool', name: 'json_response' });
    expect(alone.body).not.toHaveProperty('output_config');
    expect(alone.warnings).toEqual([]);
    const withTools = encode({ ...rf, tools: [{ name: 'f' }] }, legacy);
    expect(withTools.body.tools.map((t: any) => t.name)).toEqual(['f', 'json_response']);
    expect(withTools.body.tool_choice).toBeUndefined();
    expect(withTools.warnings).toEqual([{ code: 'approximated', path: 'responseFormat', detail: 'json tool not forced' }]);
    const withThinking = encode({ ...rf, ...thinking }, legacy);
    expect(withThinking.body.tool_choice).toBeUndefined();
    expect(withThinking.warnings).toEqual([{ code: 'approximated', path: 'responseFormat', detail: 'json tool not forced' }]);
  });

  it('thinking turns a forced tool choice into auto, reported; auto and none are left alone', () => {
    const tools = [{ name: 'f' }];
    const forced = encode({ ...thinking, tools, toolChoice: { type: 'required' }, parallelToolCalls: false });
    expect(forced.body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(forced.warnings).toEqual([{ code: 'approximated', path: 'toolChoice', detail: 'auto with thinking' }]);
    for (const toolChoice of [{ type: 'auto' }, { type: 'none' }] as const) {
      const r = encode({ ...thinking, tools, toolChoice });
      expect(r.body.tool_choice).toEqual(toolChoice);
      expect(r.warnings).toEqual([]);
    }
  });

  it('parallelToolCalls false without a tool choice is auto with parallel use off; allowed tools in auto mode is auto', () => {
    const tools = [{ name: 'f' }];
    expect(encode({ tools, parallelToolCalls: false }).body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(encode({ tools, parallelToolCalls: true }).body.tool_choice).toBeUndefined();
    expect(encode({ tools, toolChoice: { type: 'auto' } }).body.tool_choice).toEqual({ type: 'auto' });
    expect(encode({ tools, toolChoice: { type: 'allowed', names: ['f'], mode: 'auto' } }).body.tool_choice).toEqual({ type: 'auto' });
  });

  it('image or audio output is refused as unsupported, naming modalities', () => {
    expect(() => encode({ modalities: ['text', 'audio'] })).toThrow(expect.objectContaining({ kind: 'unsupported', param: 'modalities' }));
    expect(encode({ modalities: ['text'] }).warnings).toEqual([]);
  });
});

describe('Claude models that refuse temperature with top_p', () => {
  const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

  const target = (model: string): UpstreamTarget => ({ name: 'claude', model, apiKey: 'k', options: {} });

  function encode(model: string, over: Partial<ChatRequest>) {
    const { value, warnings } = encodeRequest({ ...base, ...over }, target(model), testContext());
    return { body: JSON.parse(value.body as string) as Record<string, unknown>, warnings };
  }

  const dropped = (ws: Warning[]) => ws.filter((w) => w.code === 'dropped').map((w) => `${w.path}=${w.detail}`);

  it.each([
    ['claude-sonnet-4-5-20250929', true],
    ['claude-sonnet-4-5', true],
    ['claude-opus-4-1-20250805', true],
    ['claude-haiku-4-5@20251001', true],
    ['us.anthropic.claude-opus-4-5-20251101-v1:0', true],
    ['claude-opus-5', true],
    ['claude-sonnet-4-20250514', false],
    ['claude-opus-4-20250514', false],
    ['claude-3-7-sonnet-20250219', false],
    ['claude-3-5-haiku-latest', false],
    ['my-own-model', false],
  ])('%s: %s', (model, refuses) => {
    expect(refusesBothSamplers(model)).toBe(refuses);
  });

  it('drops top_p (reported) and keeps temperature toward such a model', () => {
    const { body, warnings } = encode('claude-sonnet-4-5-20250929', { temperature: 0.3, topP: 0.9 });
    expect(body.temperature).toBe(0.3);
    expect(body).not.toHaveProperty('top_p');
    expect(dropped(warnings)).toEqual(['topP=temperature']);
  });

  it('keeps both toward a model that takes both, and top_p alone everywhere', () => {
    expect(encode('claude-sonnet-4-20250514', { temperature: 0.3, topP: 0.9 }).body).toMatchObject({ temperature: 0.3, top_p: 0.9 });
    const alone = encode('claude-sonnet-4-5', { topP: 0.9 });
    expect(alone.body.top_p).toBe(0.9);
    expect(dropped(alone.warnings)).toEqual([]);
  });
});
