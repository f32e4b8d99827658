/**
 * A request failing its dialect's checks is answered in plain words naming the field, in the
 * caller's error shape: never valibot's wording ("Invalid key: Expected "contents" but received
 * undefined"), which is jargon and quotes the caller's value. One malformed body per dialect,
 * through the app; nothing is sent upstream.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { INBOUND_KEY, responsesE2eConfig } from '../support/proxy.ts';

const app = createApp({
  config: parseConfig(responsesE2eConfig('http://127.0.0.1:9')),
  fetch: () => Promise.reject(new Error('no upstream call is expected')),
});

const openai = { authorization: `Bearer ${INBOUND_KEY}` };
const anthropic = { 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01' };
const google = { 'x-goog-api-key': INBOUND_KEY };

/** [name, path, headers, body, the message (its error envelope's), the field it names] */
const CASES: Array<[string, string, Record<string, string>, unknown, string, string]> = [
  ['gemini: no contents', '/v1beta/models/to-openai:generateContent', google, { generationConfig: {} }, 'Missing field `contents`.', 'contents'],
  [
    'gemini: a temperature of text',
    '/v1beta/models/to-openai:generateContent',
    google,
    { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { temperature: 'hot' } },
    '`generationConfig.temperature` must be a number of at least 0, not a string.',
    'generationConfig.temperature',
  ],
  [
    'anthropic: a structured output of another type',
    '/v1/messages',
    anthropic,
    { model: 'to-openai', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], output_config: { format: { type: 'xml', schema: {} } } },
    'output_config.format.type: must be "json_schema"',
    'output_config.format.type',
  ],
  [
    'openai-chat: a temperature of text',
    '/v1/chat/completions',
    openai,
    { model: 'to-anthropic', messages: [{ role: 'user', content: 'Hi' }], temperature: 'hot' },
    "Invalid type for 'temperature': expected a decimal, but got a string instead.",
    'temperature',
  ],
  [
    'openai-responses: an effort it does not know',
    '/v1/responses',
    openai,
    { model: 'to-anthropic', input: 'Hi', reasoning: { effort: 'extreme' } },
    `Invalid value for 'reasoning.effort': expected one of "none", "minimal", "low", "medium", "high", "xhigh", "max", but got "extreme" instead.`,
    'reasoning.effort',
  ],
  [
    'openai-responses: a bound',
    '/v1/responses',
    openai,
    { model: 'to-anthropic', input: 'Hi', max_output_tokens: 0 },
    "Invalid value for 'max_output_tokens': must be at least 1.",
    'max_output_tokens',
  ],
  [
    'gemini-interactions: a bound',
    '/v1beta/interactions',
    google,
    { model: 'to-anthropic', input: 'Hi', store: false, generation_config: { max_output_tokens: 1.5 } },
    "Invalid value at 'generation_config.max_output_tokens': must be a whole number.",
    'generation_config.max_output_tokens',
  ],
  ['openai-images: a model that is a number', '/v1/images/generations', openai, { prompt: 'a cat', model: 3 }, '`model` must be a string, not a number.', 'model'],
];

const JARGON = /Invalid (key|type|value|format|length): (Expected|Received)|but received|Expected \(/;

describe('validation errors in plain words, per caller dialect', () => {
  it.each(CASES)('%s', async (_name, path, headers, body, message, field) => {
    const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { message: string; param?: string } };
    expect(json.error.message).toBe(message);
    expect(json.error.message).not.toMatch(JARGON);
    expect(json.error.message).toContain(field);
  });
});
