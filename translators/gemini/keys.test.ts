import { describe, expect, it } from 'vitest';
import { camelKeys, normalizeRequest } from './keys.ts';

describe('key normalisation', () => {
  it('camelises one level; the camelCase twin wins', () => {
    expect(camelKeys({ inline_data: 1, mime_type: 2, mimeType: 3 })).toEqual({ inlineData: 1, mimeType: 3 });
    expect(camelKeys([1])).toEqual([1]);
    expect(camelKeys(null)).toBe(null);
  });

  it('rewrites the containers it interprets, never user JSON', () => {
    const out = normalizeRequest({
      contents: [
        {
          role: 'model',
          parts: [{ function_call: { name: 'f', args: { snake_arg: 1 } }, thought_signature: 'S' }],
        },
        {
          role: 'user',
          parts: [{ function_response: { name: 'f', response: { result_value: 2 }, parts: [{ inline_data: { mime_type: 'image/png', data: 'x' } }] } }],
        },
      ],
      system_instruction: { parts: [{ text: 's' }] },
      tools: [
        {
          function_declarations: [
            {
              name: 'f',
              parameters: { type: 'OBJECT', properties: { snake_prop: { type: 'ARRAY', max_items: 2, items: { type: 'STRING' } } } },
              parameters_json_schema: { properties: { keep_me: { type: 'string' } } },
            },
          ],
        },
        { google_search: { dynamic_retrieval_config: {} } },
      ],
      tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['f'] } },
      generation_config: {
        thinking_config: { thinking_budget: 1 },
        response_json_schema: { properties: { a_b: {} } },
        speech_config: { voice_config: {} },
      },
    });
    expect(out).toEqual({
      contents: [
        { role: 'model', parts: [{ functionCall: { name: 'f', args: { snake_arg: 1 } }, thoughtSignature: 'S' }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'f', response: { result_value: 2 }, parts: [{ inlineData: { mimeType: 'image/png', data: 'x' } }] } }],
        },
      ],
      systemInstruction: { parts: [{ text: 's' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'f',
              parameters: { type: 'OBJECT', properties: { snake_prop: { type: 'ARRAY', maxItems: 2, items: { type: 'STRING' } } } },
              parametersJsonSchema: { properties: { keep_me: { type: 'string' } } },
            },
          ],
        },
        { googleSearch: { dynamic_retrieval_config: {} } },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } },
      generationConfig: {
        thinkingConfig: { thinkingBudget: 1 },
        responseJsonSchema: { properties: { a_b: {} } },
        speechConfig: { voice_config: {} },
      },
    });
  });
});
