/**
 * snake_case normalisation of a Gemini body: the caller's object is never written to, a body with
 * nothing to rename comes back as itself, and every container it interprets is renamed.
 */
import { describe, expect, it } from 'vitest';
import { normalizeRequest } from './keys.ts';

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
