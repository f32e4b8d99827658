import { expect, test } from 'vitest';
import { encodeToolCallId } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { googleSignatureOf, toolCallIdentity } from './tool-call-id.ts';

test('plain ids, carrier ids, Gemini extra_content, missing ids', () => {
  const ctx = testContext();
  expect(toolCallIdentity({ id: 'call_1' }, ctx)).toEqual({ id: 'call_1' });
  expect(toolCallIdentity({ id: encodeToolCallId('call_1', { origin: 'gemini', value: 's' }) }, ctx)).toEqual({
    id: 'call_1',
    signature: { origin: 'gemini', value: 's' },
  });
  expect(toolCallIdentity({ id: 'c', extra_content: { google: { thought_signature: 'ts' } } }, ctx)).toEqual({
    id: 'c',
    signature: { origin: 'gemini', value: 'ts' },
  });
  expect(toolCallIdentity({ id: null }, ctx)).toEqual({ id: 'call_test0001' });
  expect(googleSignatureOf({ google: { thought_signature: '' } })).toBeUndefined();
  expect(googleSignatureOf('x')).toBeUndefined();
});

test('extra_content without a usable Google signature carries none', () => {
  for (const extra of [null, undefined, 5, { google: null }, { google: 'x' }, { google: {} }, { google: { thought_signature: 7 } }]) {
    expect(googleSignatureOf(extra)).toBeUndefined();
  }
});
