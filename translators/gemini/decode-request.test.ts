import { describe, expect, it } from 'vitest';
import { encodeSignature, ProxyError, type ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import type { CallerInput } from '../types.ts';
import { gemini } from './index.ts';

function input(body: unknown, method = 'generateContent', model = 'gemini-2.5-flash', query: Record<string, string> = {}): CallerInput {
  return { body, headers: {}, params: { model, method }, query };
}
const decode = (body: unknown, method?: string, model?: string) => gemini.decodeRequest(input(body, method, model), testContext());

function expectInvalid(body: unknown, param: string) {
  try {
    decode(body);
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    expect((e as ProxyError).kind).toBe('invalid-request');
    expect((e as ProxyError).param).toBe(param);
    return;
  }
  throw new Error('expected a ProxyError');
}

describe('decodeRequest: fixtures', () => {
  it('image-input: inline image + maxOutputTokens', () => {
    const { value } = decode(fixtureJson('gemini', 'image-input.request.json'));
    expect(value.model).toBe('gemini-2.5-flash');
    expect(value.stream).toBe(false);
    expect(value.maxOutputTokens).toBe(50);
    const [text, image] = value.messages[0]!.content;
    expect(text).toEqual({ type: 'text', text: 'What is in this image?' });
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', mediaType: 'image/jpeg' } });
  });

  it('system-instruction', () => {
    const { value } = decode(fixtureJson('gemini', 'system-instruction.request.json'));
    expect(value.system).toEqual([{ type: 'text', text: 'I say high you say low' }]);
    expect(value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'high' }] }]);
  });

  it('thinking-thought-part: thinkingConfig.includeThoughts, candidateCount', () => {
    const { value } = decode(fixtureJson('gemini', 'thinking-thought-part.request.json'));
    expect(value.reasoning).toEqual({ includeThoughts: true });
    expect(value.candidateCount).toBe(1);
    expect(value.maxOutputTokens).toBe(20);
  });

  it('stream-finish-max-tokens: thinkingBudget; streaming method', () => {
    const { value } = decode(fixtureJson('gemini', 'stream-finish-max-tokens.request.json'), 'streamGenerateContent');
    expect(value.stream).toBe(true);
    expect(value.streamUsage).toBe(true);
    expect(value.reasoning).toEqual({ budgetTokens: 50 });
  });

  it('stream-text-basic', () => {
    const { value } = decode(fixtureJson('gemini', 'stream-text-basic.request.json'));
    expect(value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Count from 1 to 3' }] }]);
  });

  it('multi-turn-after-function-call: call gets a synthetic id, OpenAPI schema → JSON Schema', () => {
    const { value } = decode(fixtureJson('gemini', 'multi-turn-after-function-call.request.json'));
    expect(value.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'call_1_0', name: 'customDivide', arguments: '{"denominator":2,"numerator":100}' }],
    });
    expect(value.tools).toEqual([
      {
        name: 'customDivide',
        description: 'Custom divide function',
        parameters: { type: 'object', properties: { denominator: { type: 'number' }, numerator: { type: 'number' } } },
      },
    ]);
  });

  it('stream-tool-call-thought-signature: snake_case function_declarations, enum + required kept', () => {
    const { value } = decode(fixtureJson('gemini', 'stream-tool-call-thought-signature.request.json'));
    expect(value.tools?.[0]?.name).toBe('getWeather');
    expect(value.tools?.[0]?.parameters).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: '都市名。例: Tokyo, San Francisco' },
        unit: { type: 'string', description: '温度単位: celsius or fahrenheit', enum: ['celsius', 'fahrenheit'] },
      },
      required: ['location'],
    });
  });

  it('stream-tool-result-followup: snake_case function_call / function_response, role tool, paired by name', () => {
    const { value } = decode(fixtureJson('gemini', 'stream-tool-result-followup.request.json'));
    expect(value.messages).toHaveLength(3);
    expect(value.messages[1]!.content[0]).toMatchObject({ type: 'tool-call', id: 'call_1_0', name: 'getWeather' });
    expect(value.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool-result',
          callId: 'call_1_0',
          name: 'getWeather',
          content: [{ type: 'text', text: '{"location":"Tokyo","unit":"celsius","temperature":22,"condition":"Cloudy"}' }],
        },
      ],
    });
  });

  it('structured-output: responseJsonSchema kept as JSON Schema', () => {
    const body = fixtureJson('gemini', 'structured-output-response-json-schema.request.json');
    const { value } = decode(body);
    expect(value.responseFormat).toEqual({ type: 'json-schema', schema: body.generationConfig.responseJsonSchema });
  });
});

describe('decodeRequest: fields', () => {
  const user = [{ role: 'user', parts: [{ text: 'hi' }] }];

  it('model from the path, models/ prefix stripped', () => {
    expect(decode({ contents: user }, 'generateContent', 'models/gemini-2.0-flash').value.model).toBe('gemini-2.0-flash');
  });

  it('a content without role is a user turn; consecutive model contents merge', () => {
    const { value } = decode({
      contents: [
        { parts: [{ text: 'a' }] },
        { role: 'model', parts: [{ text: 'b' }] },
        { role: 'model', parts: [{ text: 'c' }] },
      ],
    });
    expect(value.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(value.messages[1]!.content).toHaveLength(2);
  });

  it('generationConfig in full, snake_case', () => {
    const { value } = decode({
      contents: user,
      generation_config: {
        stop_sequences: ['x'],
        temperature: 1.5,
        top_p: 0.5,
        top_k: 40,
        seed: 7,
        presence_penalty: 0.1,
        frequency_penalty: 0.2,
        candidate_count: 2,
        max_output_tokens: 99,
        response_logprobs: true,
        logprobs: 3,
        response_modalities: ['TEXT', 'IMAGE'],
        response_mime_type: 'application/json',
        thinking_config: { thinking_level: 'HIGH', include_thoughts: true },
        speech_config: { voice_config: { prebuilt_voice_config: { voice_name: 'Kore' } } },
        media_resolution: 'MEDIA_RESOLUTION_LOW',
      },
      safety_settings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      cached_content: 'cachedContents/abc',
    });
    const expected: Partial<ChatRequest> = {
      stop: ['x'],
      temperature: 1.5,
      topP: 0.5,
      topK: 40,
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
      candidateCount: 2,
      maxOutputTokens: 99,
      logprobs: true,
      topLogprobs: 3,
      modalities: ['text', 'image'],
      responseFormat: { type: 'json' },
      reasoning: { includeThoughts: true, effort: 'high' },
    };
    expect(value).toMatchObject(expected);
    expect(value.extras).toEqual({
      dialect: 'gemini',
      fields: {
        'generationConfig.speechConfig': { voice_config: { prebuilt_voice_config: { voice_name: 'Kore' } } },
        'generationConfig.mediaResolution': 'MEDIA_RESOLUTION_LOW',
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        cachedContent: 'cachedContents/abc',
      },
    });
  });

  it('thinkingBudget 0 turns reasoning off', () => {
    expect(decode({ contents: user, generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }).value.reasoning).toEqual({ enabled: false });
  });

  it('responseSchema (OpenAPI) → json-schema with nullable as a type union', () => {
    const { value } = decode({
      contents: user,
      generationConfig: {
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { a: { type: 'STRING', nullable: true } }, required: ['a'] },
      },
    });
    expect(value.responseFormat).toEqual({
      type: 'json-schema',
      schema: { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'] },
    });
  });

  it('tools: native tools by key, parametersJsonSchema as-is, toolConfig modes', () => {
    const schema = { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false };
    const { value } = decode({
      contents: user,
      tools: [
        { functionDeclarations: [{ name: 'search', parametersJsonSchema: schema }] },
        { googleSearch: {} },
        { code_execution: {} },
        { urlContext: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['search'] } },
    });
    expect(value.tools).toEqual([{ name: 'search', parameters: schema }]);
    expect(value.nativeTools).toEqual([
      { dialect: 'gemini', definition: { googleSearch: {} }, path: 'tools[1].googleSearch', web: { kind: 'search' } },
      { dialect: 'gemini', definition: { codeExecution: {} }, path: 'tools[2].codeExecution' },
      { dialect: 'gemini', definition: { urlContext: {} }, path: 'tools[3].urlContext', web: { kind: 'fetch' } },
    ]);
    expect(value.toolChoice).toEqual({ type: 'tool', name: 'search' });
  });

  it.each([
    [{ mode: 'AUTO' }, { type: 'auto' }],
    [{ mode: 'NONE' }, { type: 'none' }],
    [{ mode: 'ANY' }, { type: 'required' }],
    [{ mode: 'ANY', allowedFunctionNames: ['a', 'b'] }, { type: 'allowed', names: ['a', 'b'], mode: 'required' }],
    [{ mode: 'VALIDATED', allowedFunctionNames: ['a'] }, { type: 'allowed', names: ['a'], mode: 'auto' }],
  ])('functionCallingConfig %j → %j', (fcc, choice) => {
    expect(decode({ contents: user, toolConfig: { functionCallingConfig: fcc } }).value.toolChoice).toEqual(choice);
  });

  it('media parts by MIME type; fileData as URL or file handle', () => {
    const { value } = decode({
      contents: [
        {
          role: 'user',
          parts: [
            { inline_data: { mime_type: 'audio/mpeg', data: 'AAAA' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBE' } },
            { file_data: { file_uri: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mime_type: 'video/mp4' } },
            { fileData: { fileUri: 'https://example.com/cat.png', mimeType: 'image/png' } },
          ],
        },
      ],
    });
    expect(value.messages[0]!.content).toEqual([
      { type: 'audio', source: { type: 'base64', mediaType: 'audio/mpeg', data: 'AAAA' }, format: 'mp3' },
      { type: 'file', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBE' } },
      { type: 'file', source: { type: 'file-id', id: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mediaType: 'video/mp4' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png', mediaType: 'image/png' } },
    ]);
  });

  it('executableCode / codeExecutionResult become fenced text', () => {
    const { value } = decode({
      contents: [
        user[0],
        { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } }] },
        { role: 'user', parts: [{ text: 'ok' }] },
      ],
    });
    expect(value.messages[1]!.content).toEqual([
      { type: 'text', text: '```python\nprint(1)\n```' },
      { type: 'text', text: '```output\n1\n\n```' },
    ]);
  });

  it('countTokens accepts the generateContentRequest form', () => {
    const { value } = decode({ generateContentRequest: { model: 'models/x', contents: user, systemInstruction: { parts: [{ text: 's' }] } } }, 'countTokens');
    expect(value.system).toEqual([{ type: 'text', text: 's' }]);
    expect(value.messages).toHaveLength(1);
  });
});

describe('decodeRequest: function calls and signatures', () => {
  it('parallel same-name calls pair with responses in order, ids synthesized per position', () => {
    const { value } = decode({
      contents: [
        { role: 'user', parts: [{ text: 'screens A and B' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'read_screen', args: { id: 'A' } }, thoughtSignature: 'SIG1' },
            { functionCall: { name: 'read_screen', args: { id: 'B' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'read_screen', response: { output: 'screen A' } } },
            { functionResponse: { name: 'read_screen', response: { error: 'no B' } } },
          ],
        },
      ],
    });
    expect(value.messages[1]!.content).toEqual([
      { type: 'tool-call', id: 'call_1_0', name: 'read_screen', arguments: '{"id":"A"}', signature: { origin: 'gemini', value: 'SIG1' } },
      { type: 'tool-call', id: 'call_1_1', name: 'read_screen', arguments: '{"id":"B"}' },
    ]);
    expect(value.messages[2]!.content).toEqual([
      { type: 'tool-result', callId: 'call_1_0', name: 'read_screen', content: [{ type: 'text', text: 'screen A' }] },
      { type: 'tool-result', callId: 'call_1_1', name: 'read_screen', content: [{ type: 'text', text: 'no B' }], isError: true },
    ]);
  });

  it('pairs by id when the caller echoes ids (carrier ids split into id + signature)', () => {
    const { value } = decode({
      contents: [
        { role: 'user', parts: [{ text: 'x' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'toolu_1', name: 'f', args: {} } },
            { functionCall: { id: 'toolu_2__il1aYWJj', name: 'f', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'toolu_2__il1aYWJj', name: 'f', response: { r: 2 } } },
            { functionResponse: { id: 'toolu_1', name: 'f', response: { r: 1 } } },
          ],
        },
      ],
    });
    expect(value.messages[1]!.content[1]).toEqual({ type: 'tool-call', id: 'toolu_2', name: 'f', arguments: '{}', signature: { origin: 'anthropic', value: 'abc' } });
    expect(value.messages[2]!.content.map((p) => (p.type === 'tool-result' ? p.callId : ''))).toEqual(['toolu_2', 'toolu_1']);
  });

  it('a functionResponse with no call is refused', () => {
    expectInvalid({ contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }, 'contents[0].parts[0].functionResponse');
  });

  it('thought parts → reasoning; signature-only empty text → reasoning with signature; foreign carriers decoded', () => {
    const anthropicSig = encodeSignature({ origin: 'anthropic', value: 'EuYBCkQY' });
    const { value } = decode({
      contents: [
        { role: 'user', parts: [{ text: 'q' }] },
        {
          role: 'model',
          parts: [
            { text: 'think 1 ', thought: true },
            { text: 'think 2', thought: true },
            { text: '', thought: true, thoughtSignature: anthropicSig },
            { text: 'answer', thoughtSignature: 'GEMSIG' },
            { text: '', thoughtSignature: 'GEMSIG2' },
          ],
        },
        { role: 'user', parts: [{ text: 'more' }] },
      ],
    });
    expect(value.messages[1]!.content).toEqual([
      { type: 'reasoning', text: 'think 1 think 2', signature: { origin: 'anthropic', value: 'EuYBCkQY' } },
      { type: 'text', text: 'answer', signature: { origin: 'gemini', value: 'GEMSIG' } },
      { type: 'reasoning', text: '', signature: { origin: 'gemini', value: 'GEMSIG2' } },
    ]);
  });
  it('carriers a caller echoes: both formats decode to their origin; a genuine Gemini signature stays Gemini', () => {
    const genuine = 'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5';
    const parts = (sig: string) => ({
      contents: [
        { role: 'user', parts: [{ text: 'q' }] },
        { role: 'model', parts: [{ text: 'hm', thought: true, thoughtSignature: sig }, { text: 'a' }] },
        { role: 'user', parts: [{ text: 'more' }] },
      ],
    });
    const sigOf = (sig: string) => {
      const p = decode(parts(sig)).value.messages[1]!.content[0]!;
      return p.type === 'reasoning' ? p.signature : undefined;
    };
    // Standard base64 of 0xFF "il1a" + value, the form this proxy writes now (format: byte).
    expect(sigOf(btoa('\xffil1aEuYBCkQY'))).toEqual({ origin: 'anthropic', value: 'EuYBCkQY' });
    // The first form, `il1a.` + base64url, which histories from before may still hold.
    expect(sigOf('il1a.RXVZQkNrUVk')).toEqual({ origin: 'anthropic', value: 'EuYBCkQY' });
    expect(sigOf(genuine)).toEqual({ origin: 'gemini', value: genuine });
  });
});

describe('decodeRequest: validation', () => {
  it.each([
    [null, 'body'],
    [[1, 2], 'body'],
    [{}, 'contents'],
    [{ contents: [] }, 'contents'],
    [{ contents: 'hi' }, 'contents'],
    [{ contents: [{ role: 'user', parts: [] }] }, 'contents[0].parts'],
    [{ contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, 'contents[0].role'],
    [{ contents: [{ parts: [{ inlineData: { mimeType: 'image/png' } }] }] }, 'contents[0].parts[0].inlineData.data'],
    [{ contents: [{ parts: [{ text: 1 }] }] }, 'contents[0].parts[0].text'],
    [{ contents: [{ parts: [{}] }] }, 'contents[0].parts[0]'],
    [{ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { temperature: 3 } }, 'generationConfig.temperature'],
    [{ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { stopSequences: ['1', '2', '3', '4', '5', '6'] } }, 'generationConfig.stopSequences'],
    [{ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { maxOutputTokens: 'many' } }, 'generationConfig.maxOutputTokens'],
    [{ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { responseModalities: ['SMELL'] } }, 'generationConfig.responseModalities[0]'],
    [{ contents: [{ parts: [{ text: 'x' }] }], tools: [{ functionDeclarations: [{ description: 'no name' }] }] }, 'tools[0].functionDeclarations[0].name'],
    [{ contents: [{ parts: [{ text: 'x' }] }], toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, 'toolConfig.functionCallingConfig.mode'],
    [{ contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] }, 'contents[0].parts[0].functionCall.name'],
  ])('%j is refused naming %s', (body, param) => expectInvalid(body, param));

  it('the model must be in the path', () => {
    expect(() => gemini.decodeRequest({ body: { contents: [] }, headers: {}, params: {}, query: {} }, testContext())).toThrow(ProxyError);
  });
});

describe('decodeRequest: fields the fixtures do not show', () => {
  const user = [{ role: 'user', parts: [{ text: 'hi' }] }];

  it("unknown top-level and toolConfig fields are kept as Gemini's own extras", () => {
    const { value } = decode({ contents: user, toolConfig: { functionCallingConfig: { mode: 'AUTO' }, retrievalConfig: { latLng: { latitude: 1, longitude: 2 } } }, labels: { a: 'b' } });
    expect(value.toolChoice).toEqual({ type: 'auto' });
    expect(value.extras).toEqual({ dialect: 'gemini', fields: { 'toolConfig.retrievalConfig': { latLng: { latitude: 1, longitude: 2 } }, labels: { a: 'b' } } });
    expect(decode({ contents: user, toolConfig: { functionCallingConfig: { mode: 'AUTO' } } }).value.extras).toBeUndefined();
  });

  it('systemInstruction: a string, or text parts (empty ones skipped); anything else is refused', () => {
    expect(decode({ contents: user, systemInstruction: 'Be brief.' }).value.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(decode({ contents: user, systemInstruction: '' }).value.system).toEqual([]);
    expect(decode({ contents: user, systemInstruction: { parts: [{ text: 'A' }, { text: '' }] } }).value.system).toEqual([{ type: 'text', text: 'A' }]);
    expectInvalid({ contents: user, systemInstruction: { parts: [{ text: 'A' }, { inlineData: { mimeType: 'image/png', data: 'x' } }] } }, 'systemInstruction.parts[1]');
  });

  it('function declaration fields with no canonical home are reported', () => {
    const { value, warnings } = decode({ contents: user, tools: [{ functionDeclarations: [{ name: 'f', response: { type: 'OBJECT' }, responseJsonSchema: {}, behavior: 'NON_BLOCKING' }] }] });
    expect(value.tools).toEqual([{ name: 'f' }]);
    expect(warnings).toEqual(['response', 'responseJsonSchema', 'behavior'].map((k) => ({ code: 'dropped', path: `tools[0].functionDeclarations[0].${k}` })));
  });

  it('tool choice: an empty allowed list means any tool; VALIDATED with names may call those', () => {
    expect(decode({ contents: user, toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [] } } }).value.toolChoice).toEqual({ type: 'required' });
    expect(decode({ contents: user, toolConfig: { functionCallingConfig: { mode: 'VALIDATED', allowedFunctionNames: ['a', 'b'] } } }).value.toolChoice).toEqual({ type: 'allowed', names: ['a', 'b'], mode: 'auto' });
  });

  it('responseModalities in any case; an unknown one is refused by its index', () => {
    expect(decode({ contents: user, generationConfig: { responseModalities: ['TEXT', 'Audio', 'image'] } }).value.modalities).toEqual(['text', 'audio', 'image']);
    expectInvalid({ contents: user, generationConfig: { responseModalities: ['TEXT', 'VIDEO'] } }, 'generationConfig.responseModalities[1]');
  });

  it('response MIME types: text/plain is text; an enum schema or another type stays a Gemini extra', () => {
    expect(decode({ contents: user, generationConfig: { responseMimeType: 'text/plain' } }).value.responseFormat).toEqual({ type: 'text' });
    const enumFormat = decode({ contents: user, generationConfig: { responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a'] } } }).value;
    expect(enumFormat.responseFormat).toBeUndefined();
    expect(enumFormat.extras?.fields).toEqual({ 'generationConfig.responseMimeType': 'text/x.enum', 'generationConfig.responseSchema': { type: 'STRING', enum: ['a'] } });
    expect(decode({ contents: user, generationConfig: { responseMimeType: 'text/x-other' } }).value.extras?.fields).toEqual({ 'generationConfig.responseMimeType': 'text/x-other' });
  });
});

describe('decodeRequest: parts the fixtures do not show', () => {
  const contentsOf = (contents: unknown) => decode({ contents }).value.messages;
  const go = { role: 'user', parts: [{ text: 'go' }] };

  it('code execution parts become fenced text, so other vendors still see them', () => {
    const [, model] = contentsOf([
      go,
      { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1\n' } }, { executableCode: { language: 'LANGUAGE_UNSPECIFIED', code: 'x' } }, { executableCode: {} }, { codeExecutionResult: {} }] },
    ]);
    expect(model!.content.map((p) => p.type === 'text' && p.text)).toEqual(['```python\nprint(1)\n```', '```output\n1\n\n```', '```\nx\n```', '```python\n\n```', '```output\n\n```']);
  });

  it('fileData: Cloud Storage, Files API and bare names are file handles, http(s) URLs are URLs; audio formats from the MIME type', () => {
    const [user] = contentsOf([
      {
        role: 'user',
        parts: [
          { fileData: { fileUri: 'gs://b/o.mp3', mimeType: 'audio/mpeg' } },
          { fileData: { fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mimeType: 'audio/x-wav' } },
          { fileData: { fileUri: 'files/xyz', mimeType: 'audio/ogg; codecs=opus' } },
          { fileData: { fileUri: 'HTTPS://example.com/a.pdf', mimeType: 'application/pdf' } },
          { fileData: { fileUri: 'https://example.com/a' } },
        ],
      },
    ]);
    expect(user!.content).toEqual([
      { type: 'audio', source: { type: 'file-id', id: 'gs://b/o.mp3', mediaType: 'audio/mpeg' }, format: 'mp3' },
      { type: 'audio', source: { type: 'file-id', id: 'https://generativelanguage.googleapis.com/v1beta/files/abc', mediaType: 'audio/x-wav' }, format: 'wav' },
      { type: 'audio', source: { type: 'file-id', id: 'files/xyz', mediaType: 'audio/ogg; codecs=opus' }, format: 'ogg' },
      { type: 'file', source: { type: 'url', url: 'HTTPS://example.com/a.pdf', mediaType: 'application/pdf' } },
      { type: 'file', source: { type: 'url', url: 'https://example.com/a' } },
    ]);
  });

  it('functionResponse: its media parts follow the response; only a lone error or string output is unwrapped', () => {
    const call = { functionCall: { name: 'f', args: {} } };
    const [, , withMedia] = contentsOf([
      go,
      { role: 'model', parts: [call] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 'ok' }, parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBO' } }, { fileData: { fileUri: 'gs://b/x.png', mimeType: 'image/png' } }] } }] },
    ]);
    expect(withMedia!.content).toEqual([
      {
        type: 'tool-result',
        callId: 'call_1_0',
        name: 'f',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBO' } },
          { type: 'image', source: { type: 'file-id', id: 'gs://b/x.png', mediaType: 'image/png' } },
        ],
      },
    ]);
    const [, , results] = contentsOf([
      go,
      { role: 'model', parts: [call, call, call] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: { error: { code: 5 } } } }, { functionResponse: { name: 'f', response: { output: 3 } } }, { functionResponse: { name: 'f', response: {} } }] },
    ]);
    expect(results!.content.map((p) => p.type === 'tool-result' && [p.content, p.isError])).toEqual([
      [[{ type: 'text', text: '{"code":5}' }], true],
      [[{ type: 'text', text: '{"output":3}' }], undefined],
      [[{ type: 'text', text: '{}' }], undefined],
    ]);
  });

  it('a bare signature part is signed empty reasoning; an empty model part is nothing, an empty user part is refused', () => {
    expect(contentsOf([go, { role: 'model', parts: [{ thoughtSignature: 'U0lH' }, { text: 'a' }] }])[1]!.content).toEqual([
      { type: 'reasoning', text: '', signature: { origin: 'gemini', value: 'U0lH' } },
      { type: 'text', text: 'a' },
    ]);
    expect(contentsOf([go, { role: 'model', parts: [{}] }])[1]!.content).toEqual([]);
    expectInvalid({ contents: [{ role: 'user', parts: [{}] }] }, 'contents[0].parts[0]');
  });
});
