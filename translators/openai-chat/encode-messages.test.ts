/**
 * Canonical messages → Chat Completions messages: what has no place in a role is reported (lossy,
 * so strict mode refuses it), and what an empty turn looks like on the wire.
 */
import { describe, expect, test } from 'vitest';
import type { ChatRequest, Message, Part, Warning } from '../../src/canonical/index.ts';
import type { UpstreamOptions } from '../types.ts';
import { deepFreeze } from '../../src/kit/index.ts';
import { encodeMessages } from './encode-messages.ts';
import { alphanumericIds } from './host-quirks.ts';

function encode(messages: Message[], system: ChatRequest['system'] = [], options: UpstreamOptions = {}) {
  const warnings: Warning[] = [];
  const out = encodeMessages({ model: 'm', system, messages, stream: false }, warnings, options);
  return { out: out as Record<string, any>[], warnings };
}

const image: Part = { type: 'image', source: { type: 'url', url: 'https://x/y.png' } };
const call: Part = { type: 'tool-call', id: 'call_1', name: 'f', arguments: '{}' };

describe('parts with no place in their role', () => {
  test('user: a refusal is sent as text; a tool call or reasoning is dropped and reported', () => {
    const { out, warnings } = encode([
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'refusal', text: 'b' }, call, { type: 'reasoning', text: 'r' }] },
    ]);
    expect(out).toEqual([{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages[0].content[2]', detail: 'tool-call in a user message', lossy: true },
      { code: 'dropped', path: 'messages[0].content[3]', detail: 'reasoning in a user message', lossy: true },
    ]);
  });

  test('assistant: images, files, tool results and inline audio are dropped and reported; an audio id is kept', () => {
    const { out, warnings } = encode([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'ok' },
          image,
          { type: 'file', source: { type: 'file-id', id: 'file_1' } },
          { type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'r' }] },
          { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklG' }, format: 'wav' },
          { type: 'audio', source: { type: 'file-id', id: 'audio_1' } },
        ],
      },
    ]);
    expect(out).toEqual([{ role: 'assistant', content: 'ok', audio: { id: 'audio_1' } }]);
    expect(warnings).toEqual([
      { code: 'dropped', path: 'messages[0].content[1]', detail: 'image in an assistant message', lossy: true },
      { code: 'dropped', path: 'messages[0].content[2]', detail: 'file in an assistant message', lossy: true },
      { code: 'dropped', path: 'messages[0].content[3]', detail: 'tool-result in an assistant message', lossy: true },
      { code: 'dropped', path: 'messages[0].content[4]', detail: 'audio in an assistant message', lossy: true },
    ]);
  });

  test('system: only text; anything else is dropped and reported', () => {
    const { out, warnings } = encode([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], [{ type: 'text', text: 'S' }, image as never]);
    expect(out[0]).toEqual({ role: 'system', content: 'S' });
    expect(warnings).toEqual([{ code: 'dropped', path: 'system[1]', detail: 'image', lossy: true }]);
  });
});

describe('the content of a turn with no text', () => {
  test('assistant: null beside a refusal, tool calls or audio; an empty string when there is nothing', () => {
    expect(encode([{ role: 'assistant', content: [{ type: 'refusal', text: 'No.' }] }]).out).toEqual([{ role: 'assistant', content: null, refusal: 'No.' }]);
    expect(encode([{ role: 'assistant', content: [call] }]).out[0]).toMatchObject({ content: null, tool_calls: [{ id: 'call_1' }] });
    expect(encode([{ role: 'assistant', content: [{ type: 'audio', source: { type: 'file-id', id: 'audio_1' } }] }]).out[0]).toEqual({ role: 'assistant', content: null, audio: { id: 'audio_1' } });
    expect(encode([{ role: 'assistant', content: [] }]).out).toEqual([{ role: 'assistant', content: '' }]);
    expect(encode([{ role: 'assistant', content: [{ type: 'refusal', text: 'No, ' }, { type: 'refusal', text: 'sorry.' }] }]).out[0]!['refusal']).toBe('No, sorry.');
  });

  test('user: an empty turn is an empty string; a turn of tool results alone is only tool messages', () => {
    expect(encode([{ role: 'user', content: [] }]).out).toEqual([{ role: 'user', content: '' }]);
    const { out, warnings } = encode([
      { role: 'assistant', content: [call] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'call_1', content: [], isError: true }] },
    ]);
    expect(out.slice(1)).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: '' }]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'messages[1].content[0].isError' }]);
  });

  test("a tool result's image follows in a user message, reported where it came from", () => {
    const { out, warnings } = encode([
      { role: 'assistant', content: [call] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'see' }, image, call] }] },
    ]);
    expect(out.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'see' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x/y.png' } }] },
    ]);
    expect(warnings).toEqual([
      { code: 'approximated', path: 'messages[1].content[0].content[1]', detail: 'moved to a user message' },
      { code: 'dropped', path: 'messages[1].content[0].content[2]', detail: 'tool-call in a user message', lossy: true },
    ]);
  });
});

test('Mistral: every id sent fits its rule, even a result whose call is no longer in the history', () => {
  const { out } = encode(
    [
      { role: 'user', content: [{ type: 'tool-result', callId: 'toolu_01A09q90qw90lq917835lq9', content: [{ type: 'text', text: '18C' }] }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', name: 'f', arguments: '{}' }] },
    ],
    [],
    { toolCallIds: 'alphanumeric-9' },
  );
  expect(out[0]!['tool_call_id']).toMatch(/^[A-Za-z0-9]{9}$/);
  expect(out[1]!['tool_calls'][0].id).toMatch(/^[A-Za-z0-9]{9}$/);
});

describe('messages frozen whole (an Anthropic caller\'s kept turns)', () => {
  const history = (): Message[] => [
    { role: 'user', content: [{ type: 'text', text: 'read a.ts' }, { type: 'text', text: 'and b.ts' }] },
    { role: 'assistant', content: [{ type: 'reasoning', text: 'look' }, { type: 'text', text: 'reading' }, call] },
    { role: 'user', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'x' }, image] }] },
  ];
  const frozen = () => {
    const messages = history();
    for (const m of messages) deepFreeze(m);
    return messages;
  };

  test('are encoded once: the same frozen wire messages each time, as an unfrozen history encodes', () => {
    const messages = frozen();
    const first = encode(messages.slice(0, 2));
    const again = encode(messages.slice(0, 2));
    expect(first.out).toStrictEqual(encode(history().slice(0, 2)).out);
    expect(first.warnings).toEqual([]);
    again.out.forEach((w, i) => expect(w).toBe(first.out[i]));
    expect(Object.isFrozen(first.out[1]!['tool_calls'][0])).toBe(true);
    // Unfrozen: encoded each time.
    const plain = history();
    expect(encode(plain).out[0]).not.toBe(encode(plain).out[0]);
  });

  test('are encoded anew for other host knobs: text as one string, reasoning replayed', () => {
    const messages = frozen().slice(0, 2);
    for (const options of [{}, { textContent: 'string' }, { replayReasoning: true }, { textContent: 'string', replayReasoning: true }, {}] as UpstreamOptions[]) {
      expect(encode(messages, [], options).out).toStrictEqual(encode(history().slice(0, 2), [], options).out);
    }
  });

  test('are encoded anew, and their warnings reported, when encoding them warns', () => {
    const messages = frozen();
    const first = encode(messages);
    const again = encode([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, ...messages]);
    expect(first.warnings).toEqual([{ code: 'approximated', path: 'messages[2].content[0].content[1]', detail: 'moved to a user message' }]);
    expect(again.warnings).toEqual([{ code: 'approximated', path: 'messages[3].content[0].content[1]', detail: 'moved to a user message' }]);
    expect(again.out.at(-1)).not.toBe(first.out.at(-1));
  });

  test('are encoded anew when tool-call ids are mapped (the mapping depends on every id of the request)', () => {
    const options: UpstreamOptions = { toolCallIds: 'alphanumeric-9' };
    const [user, assistant] = frozen();
    // A valid id that is what `call_1` hashes to: with it in the request, `call_1` maps to another one.
    const taken = alphanumericIds(['call_1'])('call_1');
    const other: Message = { role: 'user', content: [{ type: 'tool-result', callId: taken, content: [{ type: 'text', text: 'r' }] }] };
    for (const messages of [[user!, assistant!], [other, user!, assistant!]]) {
      const plain = messages.map((m) => structuredClone(m));
      expect(encode(messages, [], options).out).toStrictEqual(encode(plain, [], options).out);
    }
  });
});
