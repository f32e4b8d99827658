/**
 * Canonical request → Chat Completions body, for what the other request tests leave out: a host
 * with an allow list never hears of fields the caller did not set (no spurious "dropped"
 * warnings, which strict mode would refuse), allowed-tools with one name but not required,
 * reasoning without a budget, a tool's own-dialect extras, and the words of each unsupported media
 * error.
 */
import { expect, test } from 'vitest';
import { encodePassthrough } from './passthrough.ts';

test('passthrough: OpenAI headers the caller did not send are not added', () => {
  const out = encodePassthrough({ body: { model: 'up', messages: [] }, headers: { 'openai-beta': 'x' }, params: {}, query: {} }, '{"model":"up","messages":[]}', { name: 'h', model: 'up', apiKey: 'k', options: {} });
  expect(Object.keys(out.headers)).toContain('openai-beta');
  expect(Object.keys(out.headers)).not.toContain('openai-project');
  expect(Object.keys(out.headers)).not.toContain('openai-organization');
});
