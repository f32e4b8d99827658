/** Each upstream's one answer to "does this upstream run the caller's web tool itself?" (`ChatUpstream.hostedWebTools`). */
import { describe, expect, it } from 'vitest';
import { registry, type UpstreamDialect } from '../../translators/index.ts';

const openrouter = { model: 'anthropic/claude-sonnet-4.5', options: { webTools: 'openrouter' as const } };
const plain = { model: 'gpt-4o-mini', options: {} };
const searchModel = { model: 'gpt-4o-search-preview', options: {} };
const hostedWebTools = (d: UpstreamDialect, target: typeof plain) => [...registry.chatUpstreams[d].hostedWebTools(target)];

describe('hostedWebTools', () => {
  it('OpenAI Chat: an OpenRouter host runs both, a search model searches, another model neither', () => {
    expect(hostedWebTools('openai', openrouter)).toEqual(['search', 'fetch']);
    expect(hostedWebTools('openai', searchModel)).toEqual(['search']);
    expect(hostedWebTools('openai', plain)).toEqual([]);
  });

  it('Responses searches; Anthropic, Gemini and Interactions run both', () => {
    expect(hostedWebTools('openai-responses', plain)).toEqual(['search']);
    for (const d of ['anthropic', 'gemini', 'gemini-interactions'] as const) expect(hostedWebTools(d, plain)).toEqual(['search', 'fetch']);
  });
});
