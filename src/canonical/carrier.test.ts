import { describe, expect, it } from 'vitest';
import {
  decodeSignature,
  decodeToolCallId,
  encodeSignature,
  encodeToolCallId,
  mayCarrySignatures,
  signatureFor,
} from './carrier.ts';
import type { Signature } from './parts.ts';

const anthropicSig: Signature = { origin: 'anthropic', value: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds/+=' };
const geminiSig: Signature = { origin: 'gemini', value: 'CiQB0e2Kb7 ünïcode ✓' };

describe('signature carriers', () => {
  it('round-trip a signature through a string field, origin kept', () => {
    for (const sig of [anthropicSig, geminiSig]) {
      const carried = encodeSignature(sig);
      expect(carried).toMatch(/^il1[ag]\.[A-Za-z0-9_-]+$/);
      expect(decodeSignature(carried)).toEqual(sig);
    }
  });

  it('round-trip through a tool-call id that stays [A-Za-z0-9_-]', () => {
    const id = encodeToolCallId('call_0_1', geminiSig);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeToolCallId(id)).toEqual({ id: 'call_0_1', signature: geminiSig });
    expect(encodeToolCallId('toolu_01', undefined)).toBe('toolu_01');
  });

  it('leaves ordinary values alone', () => {
    expect(decodeSignature('EqQBCgIYAhIM')).toBeUndefined();
    expect(decodeSignature('il1x.abc')).toBeUndefined();
    expect(decodeToolCallId('call_abc')).toEqual({ id: 'call_abc' });
    // A marker without a decodable payload is an ordinary id.
    expect(decodeToolCallId('call__il1z!!')).toEqual({ id: 'call__il1z!!' });
  });

  it('replays a signature only to its issuer', () => {
    expect(signatureFor(anthropicSig, 'anthropic')).toBe(anthropicSig);
    expect(signatureFor(anthropicSig, 'gemini')).toBeUndefined();
    expect(signatureFor(undefined, 'gemini')).toBeUndefined();
  });

  it('mayCarrySignatures finds carried values in raw bodies, and only those', () => {
    expect(mayCarrySignatures(JSON.stringify({ tool_call_id: encodeToolCallId('c1', geminiSig) }))).toBe(true);
    expect(mayCarrySignatures(JSON.stringify({ signature: encodeSignature(anthropicSig) }))).toBe(true);
    expect(mayCarrySignatures(JSON.stringify({ signature: anthropicSig.value, text: 'the il1 library' }))).toBe(false);
  });
});
