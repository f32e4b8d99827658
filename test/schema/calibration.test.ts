/**
 * The hand-derived schemas must accept what the real services send (the captured fixtures), or
 * they would be stricter than the vendors and their failures meaningless. Anthropic is left out:
 * the real service omits fields its own OpenAPI document marks required (`container`,
 * `stop_details`, a text block's null `citations`), which is exactly why the proxy writes them.
 * For the Responses API only the recordings count (hand-written and stitched fixtures are not
 * the service's word): see translators/openai-responses/__fixtures__/README.md.
 * So are Azure OpenAI's captures: Azure deviates from OpenAI's document (`tool_calls: null`, no
 * `refusal`, `object: ""` on its prompt-filter chunk); the proxy rebuilds those bodies for callers.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixtureJson, fixtureSse } from '../support/fixtures.ts';
import { checker } from './validate.ts';

const list = (dir: string, test: (f: string) => boolean) =>
  readdirSync(fileURLToPath(new URL(`../../translators/${dir}/__fixtures__/`, import.meta.url))).filter(test).sort();
const response = (f: string) => f.endsWith('.json') && !f.endsWith('.request.json');
const notAzure = (f: string) => !f.startsWith('azure-');

describe('openai.schema.json accepts the real service', () => {
  const check = checker('openai');
  it.each(list('openai-chat', (f) => response(f) && notAzure(f)))('%s', (f) => {
    const body = fixtureJson('openai-chat', f);
    const def = f.startsWith('error-') ? 'ErrorResponse' : 'prompt_tokens' in body ? 'CompletionUsage' : 'CreateChatCompletionResponse';
    expect(check.problems(def, body)).toEqual([]);
  });
  it.each(list('openai-chat', (f) => f.endsWith('.sse') && notAzure(f)))('%s', (f) => {
    for (const e of fixtureSse('openai-chat', f)) {
      if (e.data === '[DONE]') continue;
      const data = JSON.parse(e.data);
      expect(check.problems('error' in data ? 'ErrorResponse' : 'CreateChatCompletionStreamResponse', data)).toEqual([]);
    }
  });
  it.each(list('openai-images', (f) => response(f) && !f.startsWith('error-')))('%s', (f) => {
    expect(check.problems('ImagesResponse', fixtureJson('openai-images', f))).toEqual([]);
  });
});

describe('gemini.schema.json accepts the real service', () => {
  const check = checker('gemini');
  it.each(list('gemini', response))('%s', (f) => {
    const body = fixtureJson('gemini', f);
    for (const item of Array.isArray(body) ? body : [body]) {
      expect(check.problems('error' in item ? 'ErrorResponse' : 'GenerateContentResponse', item)).toEqual([]);
    }
  });
  it.each(list('gemini', (f) => f.endsWith('.sse')))('%s', (f) => {
    for (const e of fixtureSse('gemini', f)) {
      const data = JSON.parse(e.data);
      expect(check.problems('error' in data ? 'ErrorResponse' : 'GenerateContentResponse', data)).toEqual([]);
    }
  });
});

describe('openai-responses.schema.json accepts the real service', () => {
  const check = checker('openai-responses');
  /** The recordings (REC / REC-F in the fixtures README; the message-phases ones were trimmed). */
  const recorded = new Set([
    'reasoning-encrypted-function-call.json',
    'web-search-hosted-tool-annotations.json',
    'stream-reasoning-encrypted-function-call.sse',
    'stream-web-search-hosted-tool-annotations.sse',
    'stream-text-after-tool-results.sse',
    'stream-error-insufficient-quota.sse',
    'stream-text-logprobs.sse',
  ]);
  const responses = list('openai-responses', (f) => response(f) && recorded.has(f));
  it.each(responses)('%s', (f) => {
    expect(check.problems('Response', fixtureJson('openai-responses', f))).toEqual([]);
  });
  it.each(list('openai-responses', (f) => f.startsWith('error-') && f.endsWith('.json')))('%s', (f) => {
    expect(check.problems('ErrorResponse', fixtureJson('openai-responses', f))).toEqual([]);
  });
  const streams = list('openai-responses', (f) => f.endsWith('.sse') && recorded.has(f));
  it.each(streams)('%s', (f) => {
    const events = fixtureSse('openai-responses', f).map((e) => JSON.parse(e.data) as { type: string });
    // Only the event types the schema describes (the ones the proxy writes); built-in tool progress is not.
    const described = events.filter((e) => !/web_search_call|annotation/.test(e.type));
    expect(described.length).toBeGreaterThan(0);
    for (const e of described) expect(check.problems('ResponseStreamEvent', e)).toEqual([]);
  });
  it('calibrates on every recorded fixture', () => {
    expect(responses.length + streams.length).toBe(recorded.size);
  });
});
