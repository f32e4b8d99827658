/**
 * Canonical request → Chat Completions body, for what the other request tests leave out: a host
 * with an allow list never hears of fields the caller did not set (no spurious "dropped"
 * warnings, which strict mode would refuse), allowed-tools with one name but not required,
 * reasoning without a budget, a tool's own-dialect extras, and the words of each unsupported media
 * error.
 */
import { expect, test } from 'vitest';
import { ProxyError, type ChatRequest, type Part } from '../../src/canonical/index.ts';
import type { UpstreamOptions } from '../types.ts';
import { encodeRequest } from './encode-request.ts';

const baseReq: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

function encode(req: ChatRequest, options: UpstreamOptions = {}) {
  const { value, warnings } = encodeRequest(req, { name: 'h', model: 'up', apiKey: 'k', options });
  return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
}

test('a host with an allow list: unset fields are never reported as dropped', () => {
  const strictHost = { bodyFields: { allow: ['model', 'messages', 'tools', 'tool_choice'] } };
  const { body, warnings } = encode(
    {
      ...baseReq,
      tools: [{ name: 'f', description: 'd', parameters: { type: 'object' }, strict: true }],
      toolChoice: { type: 'auto' },
      reasoning: { budgetTokens: -1 },
    },
    strictHost,
  );
  expect(warnings).toEqual([]);
  expect(body).toEqual({
    model: 'up',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [{ type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' }, strict: true } }],
    tool_choice: 'auto',
  });
});

test('allowed tools with one name but not required stay a mode, reported; required with one name forces it', () => {
  const tools = [{ name: 'a' }, { name: 'b' }];
  const auto = encode({ ...baseReq, tools, toolChoice: { type: 'allowed', mode: 'auto', names: ['a'] } });
  expect(auto.body['tool_choice']).toBe('auto');
  expect(auto.warnings).toEqual([{ code: 'approximated', path: 'toolChoice', detail: 'allowed→auto' }]);
  const forced = encode({ ...baseReq, tools, toolChoice: { type: 'allowed', mode: 'required', names: ['b'] } });
  expect(forced.body['tool_choice']).toEqual({ type: 'function', function: { name: 'b' } });
  expect(forced.warnings).toEqual([]);
});

test('reasoning that only asks for thoughts sets no effort, and the ask is reported', () => {
  const { body, warnings } = encode({ ...baseReq, reasoning: { includeThoughts: true } });
  expect(body['reasoning_effort']).toBeUndefined();
  expect(warnings).toEqual([{ code: 'dropped', path: 'reasoning.includeThoughts' }]);
});

test("a tool's own Chat Completions extras are not reported as dropped; another dialect's are", () => {
  const own = encode({ ...baseReq, tools: [{ name: 'f', extras: { dialect: 'openai-chat', fields: { x: 1 } } }] });
  expect(own.warnings).toEqual([]);
  const foreign = encode({ ...baseReq, tools: [{ name: 'f', extras: { dialect: 'anthropic', fields: { defer_loading: true } } }] });
  expect(foreign.warnings).toEqual([{ code: 'dropped', path: 'tools.0.defer_loading' }]);
});

test.each<[string, Part, string]>([
  ['an image by file id', { type: 'image', source: { type: 'file-id', id: 'f' } }, 'Chat Completions cannot take an image by file id.'],
  ['audio by URL', { type: 'audio', source: { type: 'url', url: 'https://x/a.wav' }, format: 'wav' }, 'Chat Completions takes audio input only as inline base64 wav or mp3.'],
  ['a file by URL', { type: 'file', source: { type: 'url', url: 'https://x/a.pdf' } }, 'Chat Completions cannot take a file by URL; send it inline.'],
])('%s is refused in words that say what to send instead', (_name, part, message) => {
  try {
    encode({ ...baseReq, messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, part] }] });
    expect.unreachable();
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    expect([(e as ProxyError).kind, (e as ProxyError).param, (e as ProxyError).message]).toEqual(['unsupported', 'messages[0].content[1]', message]);
  }
});

test('tool_choice required with tools is sent as required', () => {
  expect(encode({ ...baseReq, tools: [{ name: 'a' }], toolChoice: { type: 'required' } }).body['tool_choice']).toBe('required');
});

test("a field the host does not take is reported as a lossy drop by the host", () => {
  const { body, warnings } = encode({ ...baseReq, user: 'u1' }, { bodyFields: { allow: ['model', 'messages'] } });
  expect(body['user']).toBeUndefined();
  expect(warnings).toEqual([{ code: 'dropped', path: 'user', detail: 'host', lossy: true }]);
});
