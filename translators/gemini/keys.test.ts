import { describe, expect, it } from 'vitest';
import { camelKeys, normalizeRequest } from './keys.ts';

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

const snakeBody = () => ({
  contents: [
    { role: 'user', parts: [{ text: 'a' }, { inline_data: { mime_type: 'image/png', data: 'x' } }, { file_data: { file_uri: 'gs://b/f', mime_type: 'application/pdf' } }] },
    { role: 'model', parts: [{ executable_code: { language: 'PYTHON', code: 'x' } }, { code_execution_result: { outcome: 'OUTCOME_OK', output: '1' } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'f', response: {}, parts: [{ file_data: { file_uri: 'files/a', mime_type: 'image/png' } }] } }] },
  ],
  tools: [{ function_declarations: [{ name: 'f', parameters: { type: 'OBJECT', any_of: [{ type: 'STRING', max_length: 3 }], properties: { p: { type: 'ARRAY', items: { type: 'STRING', min_length: 1 } } } }, response: { type: 'OBJECT', min_properties: 1 } }] }],
  generation_config: { response_schema: { type: 'ARRAY', items: { type: 'OBJECT', property_ordering: ['a'] } }, max_output_tokens: 5 },
  safety_settings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }],
  generate_content_request: { contents: [{ parts: [{ inline_data: { mime_type: 'image/png', data: 'y' } }] }] },
});

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

describe('gemini key normalisation: copies and containers', () => {
  it('renames every container it interprets, without writing to the caller object', () => {
    expect(normalizeRequest(deepFreeze(snakeBody()))).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'a' }, { inlineData: { mimeType: 'image/png', data: 'x' } }, { fileData: { fileUri: 'gs://b/f', mimeType: 'application/pdf' } }] },
        { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'x' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: {}, parts: [{ fileData: { fileUri: 'files/a', mimeType: 'image/png' } }] } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', anyOf: [{ type: 'STRING', maxLength: 3 }], properties: { p: { type: 'ARRAY', items: { type: 'STRING', minLength: 1 } } } }, response: { type: 'OBJECT', minProperties: 1 } }] }],
      generationConfig: { responseSchema: { type: 'ARRAY', items: { type: 'OBJECT', propertyOrdering: ['a'] } }, maxOutputTokens: 5 },
      safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }],
      generateContentRequest: { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: 'y' } }] }] },
    });
  });

  it('a body with nothing to rename is itself, down to its parts and schemas', () => {
    const body = deepFreeze({
      contents: [{ role: 'user', parts: [{ text: 'a' }, { inlineData: { mimeType: 'image/png', data: 'x' } }, { functionResponse: { name: 'f', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: 'z' } }] } }] }],
      systemInstruction: { parts: [{ text: 's' }] },
      tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { p: { type: 'STRING' } }, anyOf: [{ type: 'STRING' }], items: { type: 'STRING' } } }] }, { googleSearch: {} }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: { thinkingConfig: { thinkingBudget: 0 }, responseSchema: { type: 'STRING' } },
      safetySettings: [{ category: 'c', threshold: 't' }],
    });
    expect(normalizeRequest(body)).toBe(body);
  });

  it('only what changed is new: untouched siblings are the same objects', () => {
    const body = deepFreeze({ contents: [{ role: 'user', parts: [{ text: 'a' }] }, { role: 'user', parts: [{ text: 'b' }, { inline_data: { mime_type: 'image/png', data: 'x' } }] }], tools: [{ googleSearch: {} }] });
    const out = normalizeRequest(body) as typeof body & { contents: Array<{ parts: unknown[] }> };
    expect(out).not.toBe(body);
    expect(out.tools).toBe(body.tools);
    expect(out.contents[0]).toBe(body.contents[0]);
    expect(out.contents[1]!.parts[0]).toBe(body.contents[1]!.parts[0]);
    expect(out.contents[1]!.parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: 'x' } });
  });
});
