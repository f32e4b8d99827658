/**
 * A valid caller request is decoded from the caller's own objects, not from a copy valibot made
 * of the whole body (src/kit/as-is.ts): what the canonical request carries over unchanged is
 * the very object the caller sent. A bad request still gets valibot's own error (the dialects'
 * validation tests pin those words).
 */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { testContext } from '../support/fixtures.ts';
import { anthropic } from '../../translators/anthropic/index.ts';
import { gemini } from '../../translators/gemini/index.ts';
import { openaiResponses } from '../../translators/openai-responses/index.ts';

const schema = () => ({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });

describe('a valid caller request is decoded without a copy of its body', () => {
  it('Anthropic: tool schemas and unknown fields are the caller’s objects', () => {
    const body = {
      model: 'm',
      max_tokens: 100,
      system: [{ type: 'text', text: 'sys' }],
      tools: [{ name: 'read', description: 'd', input_schema: schema() }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'text' }] },
      ],
      container: { id: 'c1' },
    };
    const req = anthropic.decodeRequest({ body, headers: { 'anthropic-version': '2023-06-01' }, params: {}, query: {} }, testContext()).value;
    expect(req.tools?.[0]?.parameters).toBe(body.tools[0]!.input_schema);
    expect(req.extras?.fields['container']).toBe(body.container);
  });

  it('Anthropic: a bad block is still valibot’s 400', () => {
    const body = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 3 }] }] };
    expect(() => anthropic.decodeRequest({ body, headers: { 'anthropic-version': '2023-06-01' }, params: {}, query: {} }, testContext())).toThrow(ProxyError);
  });

  it('Responses: tool schemas are the caller’s objects', () => {
    const body = {
      model: 'm',
      instructions: 'sys',
      tools: [{ type: 'function', name: 'read', description: 'd', parameters: schema() }],
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
        { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"path":"a"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'text' },
      ],
    };
    const req = openaiResponses.decodeRequest({ body, headers: {}, params: {}, query: {} }, testContext()).value;
    expect(req.tools?.[0]?.parameters).toBe(body.tools[0]!.parameters);
  });

  it('Gemini: a camelCase body is neither renamed nor validated into a copy', () => {
    const safetySettings = [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }];
    const body = {
      systemInstruction: { parts: [{ text: 'sys' }] },
      contents: [
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ functionCall: { name: 'read', args: { path: 'a' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'read', response: { output: 'text' } } }] },
      ],
      safetySettings,
      labels: { team: 'a' },
    };
    const req = gemini.decodeRequest({ body, headers: {}, params: { model: 'm', method: 'generateContent' }, query: {} }, testContext()).value;
    expect(req.extras?.fields['safetySettings']).toBe(safetySettings);
    expect(req.extras?.fields['labels']).toBe(body.labels);
  });

  it('Gemini: a snake_case body is still renamed, and a bad one still refused', () => {
    const body = { contents: [{ role: 'user', parts: [{ inline_data: { mime_type: 'image/png', data: 'AAAA' } }] }] };
    const req = gemini.decodeRequest({ body, headers: {}, params: { model: 'm', method: 'generateContent' }, query: {} }, testContext()).value;
    expect(req.messages[0]?.content[0]).toMatchObject({ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAAA' } });
    expect(() => gemini.decodeRequest({ body: { contents: [{ role: 'user', parts: [{ text: 3 }] }] }, headers: {}, params: { model: 'm' }, query: {} }, testContext())).toThrow(/contents\[0\]\.parts\[0\]\.text/);
  });
});
