import { describe, expect, it } from 'vitest';
import type { ChatRequest, Warning } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { encodeRequest, refusesBothSamplers } from './encode-request.ts';

const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const target = (model: string): UpstreamTarget => ({ name: 'claude', model, apiKey: 'k', options: {} });

function encode(model: string, over: Partial<ChatRequest>) {
  const { value, warnings } = encodeRequest({ ...base, ...over }, target(model), testContext());
  return { body: JSON.parse(value.body as string) as Record<string, unknown>, warnings };
}
const dropped = (ws: Warning[]) => ws.filter((w) => w.code === 'dropped').map((w) => `${w.path}=${w.detail}`);

describe('Claude models that refuse temperature with top_p', () => {
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
