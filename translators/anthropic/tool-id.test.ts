import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { encodeResponse } from './encode-response.ts';
import { callerToolId, decodeCallerToolId } from './tool-id.ts';

const PATTERN = /^[a-zA-Z0-9_-]+$/; // ResponseToolUseBlock.id in Anthropic's OpenAPI document

describe('tool-use ids an Anthropic caller can hold', () => {
  it('an id outside [a-zA-Z0-9_-] is escaped reversibly; a safe one is untouched', () => {
    for (const id of ['functions.get_weather:0', 'call 1/ü']) {
      const wire = callerToolId(id);
      expect(wire).toMatch(PATTERN);
      expect(decodeCallerToolId(wire)).toEqual({ id });
    }
    expect(callerToolId('toolu_01A-b')).toBe('toolu_01A-b');
    const sig = { origin: 'gemini' as const, value: 'CiQB' };
    expect(decodeCallerToolId(callerToolId('functions.f:1', sig))).toEqual({ id: 'functions.f:1', signature: sig });
  });

  it('a genuine id that merely looks escaped stays as it is', () => {
    for (const id of ['ilx_6869', 'ilx_', 'ilx_zz', 'ilx_ff']) expect(decodeCallerToolId(id)).toEqual({ id });
  });

  it('round trip: encodeResponse → the caller echoes tool_use and tool_result → the original id', () => {
    const msg = encodeResponse(
      {
        id: 'r',
        model: 'kimi',
        created: 1,
        choices: [{ index: 0, content: [{ type: 'tool-call', id: 'functions.get_weather:0', name: 'get_weather', arguments: '{}' }], finishReason: { unified: 'tool-calls' } }],
      },
      { model: 'm', system: [], messages: [], stream: false },
      testContext(),
    );
    const use = msg.content[0] as { id: string };
    expect(use.id).toMatch(PATTERN);
    const next = decodeRequest({
      body: {
        model: 'm',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: msg.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
        ],
      },
      headers: { 'anthropic-version': '2023-06-01' },
      params: {},
      query: {},
    }).value;
    expect(next.messages[1]!.content[0]).toMatchObject({ type: 'tool-call', id: 'functions.get_weather:0' });
    expect(next.messages[2]!.content[0]).toMatchObject({ type: 'tool-result', callId: 'functions.get_weather:0' });
  });
});
