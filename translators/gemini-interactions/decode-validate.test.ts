import { describe, expect, it } from 'vitest';
import { decodeRequest } from './decode-request.ts';
import { proxyErrorOf } from '../../test/support/thrown.ts';

const base = { model: 'gemini-3-flash-preview', input: 'x' };

function failure(body: unknown): { param: string | undefined; message: string; status: number } {
  const err = proxyErrorOf(() => decodeRequest({ body, headers: {}, params: {}, query: {} }));
  expect(err.kind).toBe('invalid-request');
  return { param: err.param, message: err.message, status: err.status };
}

describe('caller errors: the 400 says where, what was expected and what came', () => {
  it.each([
    // a missing field
    [{ ...base, input: [{ type: 'user_input', content: [{ type: 'text' }] }] }, 'input[0].content[0].text', "Invalid value at 'input[0].content[0].text': required field is missing."],
    [{ ...base, tools: [{ type: 'function' }] }, 'tools[0].name', "Invalid value at 'tools[0].name': required field is missing."],
    // a value outside a closed list: the value and the list
    [{ ...base, generation_config: { thinking_level: 'extreme' } }, 'generation_config.thinking_level', `Invalid value at 'generation_config.thinking_level' ("extreme"): expected one of "minimal", "low", "medium", "high".`],
    [{ ...base, input: [{ type: 'user_input', content: [{ type: 'bogus' }] }] }, 'input[0].content[0].type', `Invalid value at 'input[0].content[0].type' ("bogus"): expected one of "text", "image", "audio", "document", "video".`],
    // a value of the wrong kind, each kind named
    [{ ...base, stream: 'yes' }, 'stream', "Invalid value at 'stream': expected true or false, got a string."],
    [{ ...base, stream: [true] }, 'stream', "Invalid value at 'stream': expected true or false, got a list."],
    [{ ...base, stream: {} }, 'stream', "Invalid value at 'stream': expected true or false, got an object."],
    [{ ...base, input: [{ type: 'user_input', content: [{ type: 'text', text: null }] }] }, 'input[0].content[0].text', "Invalid value at 'input[0].content[0].text': expected a string, got null."],
    [{ ...base, input: 5 }, 'input', "Invalid value at 'input': expected a string or a list of values or an object ({ … }), got a number."],
    // nothing to answer, or a malformed reference
    [{ model: base.model }, 'input', "Invalid value at 'input': required field is missing (only a continuation, by 'previous_interaction_id', may leave it out)."],
    [{ ...base, input: '' }, 'input', "Invalid value at 'input': expected a non-empty value, got an empty string (only a continuation, by 'previous_interaction_id', may leave it out)."],
    [{ ...base, input: [] }, 'input', "Invalid value at 'input': expected a non-empty value, got an empty list (only a continuation, by 'previous_interaction_id', may leave it out)."],
    [{ ...base, previous_interaction_id: 5 }, 'previous_interaction_id', "Invalid value at 'previous_interaction_id': expected a string, got a number."],
    [{ ...base, previous_interaction_id: '' }, 'previous_interaction_id', "Invalid value at 'previous_interaction_id': expected the id of an interaction, got an empty string."],
    [{ ...base, generation_config: { stop_sequences: ['a', 5] } }, 'generation_config.stop_sequences[1]', "Invalid value at 'generation_config.stop_sequences[1]': expected a string, got a number."],
    [{ ...base, response_format: [{ type: 'text', mime_type: 5 }] }, 'response_format[0].mime_type', "Invalid value at 'response_format[0].mime_type': expected a string, got a number."],
    [{ ...base, model: 5 }, 'model', "Invalid value at 'model': expected a string, got a number."],
    // a number out of its range, or not whole
    [{ ...base, generation_config: { max_output_tokens: 0 } }, 'generation_config.max_output_tokens', "Invalid value at 'generation_config.max_output_tokens': must be at least 1."],
    [{ ...base, generation_config: { temperature: 3 } }, 'generation_config.temperature', "Invalid value at 'generation_config.temperature': must be at most 2."],
    [{ ...base, generation_config: { max_output_tokens: 1.5 } }, 'generation_config.max_output_tokens', "Invalid value at 'generation_config.max_output_tokens': must be a whole number."],
  ])('%j', (body, param, message) => {
    expect(failure(body)).toEqual({ param, message, status: 400 });
  });

  it("a continuation may leave the input out (the SDK's automatic continuation sends none)", () => {
    const { value } = decodeRequest({ body: { model: base.model, previous_interaction_id: 'v1_1', continuation_token: 't' }, headers: {}, params: {}, query: {} });
    expect(value.messages).toEqual([]);
  });
});
