import { describe, expect, it } from 'vitest';
import { bytesToBase64Url } from '../kit/base64.ts';
import {
  decodeCompaction,
  decodeReasoning,
  decodeSignature,
  encodeCompaction,
  encodeReasoning,
  encodeSignature,
  mayCarrySignatureBytes,
  mayCarrySignatures,
} from './carrier.ts';

const summary = '## Task\nPatch notes.txt ✓\n## Files\n- notes.txt (read)';

describe('the compaction carrier', () => {
  it('round-trips a summary with its origin, as standard base64 starting /2lsM2', () => {
    for (const origin of ['openai', 'anthropic', 'gemini'] as const) {
      const carried = encodeCompaction({ summary, origin });
      expect(carried.startsWith('/2lsM2')).toBe(true);
      expect(carried).toMatch(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
      expect(decodeCompaction(carried)).toEqual({ summary, origin });
    }
  });

  it('reads the URL-safe alphabet a client may send back', () => {
    const carried = encodeCompaction({ summary, origin: 'gemini' });
    const bytes = Uint8Array.from(atob(carried), (c) => c.charCodeAt(0));
    expect(decodeCompaction(bytesToBase64Url(bytes))).toEqual({ summary, origin: 'gemini' });
  });

  it('never reads an OpenAI compaction, a signature or a reasoning carrier as one, nor they it', () => {
    expect(decodeCompaction('gAAAAABpZ3-openai-encrypted-compaction')).toBeUndefined();
    const sig = encodeSignature({ origin: 'anthropic', value: 'sig' });
    const reasoning = encodeReasoning({ text: 't', signature: { origin: 'anthropic', value: 'sig' } });
    expect(decodeCompaction(sig)).toBeUndefined();
    expect(decodeCompaction(reasoning)).toBeUndefined();
    const carried = encodeCompaction({ summary, origin: 'anthropic' });
    expect(decodeSignature(carried)).toBeUndefined();
    expect(decodeReasoning(carried)).toBeUndefined();
    // A header with an unknown origin letter is no carrier.
    expect(decodeCompaction(btoa('\xffil3x' + 'abc'))).toBeUndefined();
  });

  it('a body holding one is seen as carrying a value the proxy issued (so it is translated, not forwarded)', () => {
    const body = JSON.stringify({ input: [{ type: 'compaction', encrypted_content: encodeCompaction({ summary, origin: 'gemini' }) }] });
    expect(mayCarrySignatures(body)).toBe(true);
    expect(mayCarrySignatureBytes(new TextEncoder().encode(body))).toBe(true);
    const escaped = body.replace('"/2lsM2', '"\\/2lsM2');
    expect(mayCarrySignatureBytes(new TextEncoder().encode(escaped))).toBe(true);
    const openai = JSON.stringify({ input: [{ type: 'compaction', encrypted_content: 'gAAAAABpZ3' }] });
    expect(mayCarrySignatures(openai)).toBe(false);
    expect(mayCarrySignatureBytes(new TextEncoder().encode(openai))).toBe(false);
  });
});
