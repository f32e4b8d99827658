/**
 * Gemini callers write schemas the OpenAPI way (upper-case types, `nullable`, `propertyOrdering`)
 * in all four schema fields; OpenAI and Anthropic upstreams get JSON Schema, a Gemini upstream
 * gets the caller's bytes.
 */
import { describe, expect, it } from 'vitest';
import { testContext } from '../support/fixtures.ts';
import type { CallerInput, UpstreamTarget } from '../../translators/types.ts';
import { anthropic } from '../../translators/anthropic/index.ts';
import { gemini } from '../../translators/gemini/index.ts';
import { openaiChat } from '../../translators/openai-chat/index.ts';

const openapi = {
  type: 'OBJECT',
  properties: {
    reasoning: { type: 'STRING', description: 'why' },
    model_choice: { type: 'STRING', enum: ['flash', 'pro'], nullable: true },
  },
  required: ['reasoning'],
  propertyOrdering: ['reasoning', 'model_choice'],
};
const jsonSchema = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'why' },
    model_choice: { type: ['string', 'null'], enum: ['flash', 'pro', null] },
  },
  required: ['reasoning'],
};

const body = (schemaField: 'responseJsonSchema' | 'responseSchema', paramsField: 'parametersJsonSchema' | 'parameters') => ({
  contents: [{ role: 'user', parts: [{ text: 'route this' }] }],
  tools: [{ functionDeclarations: [{ name: 'pick', description: 'pick a model', [paramsField]: openapi }] }],
  generationConfig: { responseMimeType: 'application/json', [schemaField]: openapi },
});
const input = (b: unknown): CallerInput => ({ body: b, headers: {}, params: { model: 'gemini-2.5-flash', method: 'generateContent' }, query: {} });
const target = (_base: string, model: string): UpstreamTarget => ({ name: 'up', model, apiKey: 'k', options: {} });

describe.each([
  ['responseJsonSchema', 'parametersJsonSchema'],
  ['responseSchema', 'parameters'],
] as const)('Gemini caller with %s / %s', (schemaField, paramsField) => {
  const req = gemini.decodeRequest(input(body(schemaField, paramsField)), testContext()).value;

  it('an OpenAI upstream gets lower-case JSON Schema', () => {
    const sent = JSON.parse(openaiChat.encodeRequest(req, target('https://o.example/v1', 'gpt-4o'), testContext()).value.body as string);
    expect(sent.tools[0].function.parameters).toEqual(jsonSchema);
    expect(sent.response_format.json_schema.schema).toEqual(jsonSchema);
  });

  it('an Anthropic upstream gets lower-case JSON Schema', () => {
    const sent = JSON.parse(anthropic.encodeRequest(req, target('https://a.example', 'claude-sonnet-4-5'), testContext()).value.body as string);
    expect(sent.tools[0].input_schema).toEqual(jsonSchema);
    expect(sent.output_config.format.schema).toEqual(jsonSchema);
  });

  it('a Gemini upstream (passthrough) gets the caller’s body untouched', () => {
    const raw = JSON.stringify(body(schemaField, paramsField));
    expect(gemini.encodePassthrough(input(JSON.parse(raw)), raw, target('https://g.example', 'gemini-2.5-flash')).body).toBe(raw);
  });
});
