import { describe, expect, it } from 'vitest';
import {
  decodeReasoning,
  decodeSignature,
  decodeToolCallId,
  encodeReasoning,
  encodeSignature,
  encodeToolCallId,
  mayCarrySignatures,
  signatureFor,
} from './carrier.ts';
import type { Signature } from './parts.ts';

const anthropicSig: Signature = { origin: 'anthropic', value: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds/+=' };
const geminiSig: Signature = { origin: 'gemini', value: 'CiQB0e2Kb7 ünïcode ✓' };
const openaiSig: Signature = { origin: 'openai', value: 'gAAAAABo-encrypted' };

/** RFC 4648 §4 base64, padded: what pydantic's `Base64Bytes` and Go's `[]byte` accept. */
const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Genuine vendor values, as captured in this repo's fixtures (prefixes are enough to matter). */
const GENUINE = [
  'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5', // Gemini 3 text
  'CikBcsjafFK168IbtVtoxVV0Tsn8O+eU45rzJahzwuKGmMbdMdfpmNpgBwplAXLI2nyA', // Gemini 2.5 tool call
  'AY89a18a8/Loc2wl5oft+F3qHoU4VPX0L9ljRtKxfjhEuimSIqhzYEJAGT', // Vertex
  'CAISqwQKhwEIEBgCKkAciZInI2gcLrwOU5o9XFlIxHw9HaLIY6V9wHoK2E0w9TFrU5619C4C', // Anthropic
  'EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACI', // Anthropic (stream)
  'skip_thought_signature_validator', // Gemini's documented bypass value
];

describe('signature carriers', () => {
  it('a carried signature is standard base64 bytes (Gemini thoughtSignature is format: byte)', () => {
    for (const sig of [anthropicSig, geminiSig, openaiSig, { origin: 'anthropic' as const, value: '' }]) {
      const carried = encodeSignature(sig);
      expect(carried).toMatch(STANDARD_BASE64);
      expect(carried.startsWith('/2lsMW')).toBe(true);
      expect(decodeSignature(carried)).toEqual(sig);
    }
  });

  it('the origin tag is inside the bytes: 0xFF "il1" + letter, then the value', () => {
    const bytes = Uint8Array.from(atob(encodeSignature({ origin: 'anthropic', value: 'xyz' })), (c) => c.charCodeAt(0));
    expect([...bytes]).toEqual([0xff, 0x69, 0x6c, 0x31, 0x61, 0x78, 0x79, 0x7a]);
  });

  it('still reads the first format (il1a.<base64url>) that callers may echo from earlier turns', () => {
    const first = `il1a.${btoa(anthropicSig.value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
    expect(decodeSignature(first)).toEqual(anthropicSig);
    expect(decodeSignature('il1g.Q2lRQg')).toEqual({ origin: 'gemini', value: 'CiQB' });
  });

  it('never reads a genuine vendor value as a carrier', () => {
    for (const raw of GENUINE) expect(decodeSignature(raw)).toBeUndefined();
  });

  it("is read as a client that decoded the bytes sends it back: URL-safe (google-genai for Python), padded or not", () => {
    // Values whose carriers hold `+`, `/` and padding, so the alphabets differ.
    for (const sig of [anthropicSig, geminiSig, openaiSig, { origin: 'anthropic' as const, value: 'EqQB+/sig=' }]) {
      const carried = encodeSignature(sig);
      const urlSafe = carried.replace(/\+/g, '-').replace(/\//g, '_');
      expect(urlSafe).not.toBe(carried);
      expect(decodeSignature(urlSafe)).toEqual(sig);
      expect(decodeSignature(urlSafe.replace(/=+$/, ''))).toEqual(sig);
      expect(decodeSignature(carried.replace(/=+$/, ''))).toEqual(sig);
      expect(mayCarrySignatures(JSON.stringify({ thoughtSignature: urlSafe }))).toBe(true);
    }
    for (const raw of GENUINE) expect(decodeSignature(raw.replace(/\+/g, '-').replace(/\//g, '_'))).toBeUndefined();
  });

  it('rejects look-alikes: wrong letter, broken header, not base64, invalid UTF-8', () => {
    const bad = (bytes: number[]) => btoa(String.fromCharCode(...bytes));
    expect(decodeSignature(bad([0xff, 0x69, 0x6c, 0x31, 0x78, 0x41]))).toBeUndefined(); // letter x
    expect(decodeSignature(bad([0xff, 0x69, 0x6c, 0x32, 0x61, 0x41]))).toBeUndefined(); // il2
    expect(decodeSignature(bad([0xff, 0x69, 0x6c, 0x31, 0x61, 0xc3]))).toBeUndefined(); // truncated UTF-8
    expect(decodeSignature('/2lsMWE!')).toBeUndefined();
    expect(decodeSignature('/2lsMWFFcVFC')).toEqual({ origin: 'anthropic', value: 'EqQB' });
    expect(decodeSignature('_2lsMWFFcVFC')).toEqual({ origin: 'anthropic', value: 'EqQB' }); // URL-safe: the same bytes
    expect(decodeSignature('_2lsMWFFc')).toBeUndefined(); // not a whole number of bytes
    expect(decodeSignature('_2lsMW FFcVFC')).toBeUndefined();
    expect(decodeSignature('il1x.abc')).toBeUndefined();
    expect(decodeSignature('EqQBCgIYAhIM')).toBeUndefined();
  });

  it('round-trip through a tool-call id that stays [A-Za-z0-9_-]', () => {
    const id = encodeToolCallId('call_0_1', geminiSig);
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeToolCallId(id)).toEqual({ id: 'call_0_1', signature: geminiSig });
    expect(encodeToolCallId('toolu_01', undefined)).toBe('toolu_01');
  });

  it('leaves ordinary ids alone', () => {
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
    const carried = encodeSignature(anthropicSig);
    expect(mayCarrySignatures(JSON.stringify({ tool_call_id: encodeToolCallId('c1', geminiSig) }))).toBe(true);
    expect(mayCarrySignatures(JSON.stringify({ thoughtSignature: carried }))).toBe(true);
    // Serializers that escape `/` (PHP's json_encode, some Java ones).
    expect(mayCarrySignatures(`{"thoughtSignature":"${carried.replace('/', '\\/')}"}`)).toBe(true);
    expect(mayCarrySignatures(`{"thoughtSignature":"${carried.replace('/', '\\u002f')}"}`)).toBe(true);
    expect(mayCarrySignatures(JSON.stringify({ signature: 'il1a.RXFR' }))).toBe(true);
    for (const raw of GENUINE) {
      expect(mayCarrySignatures(JSON.stringify({ signature: raw, text: 'the il1 library, /2ls' }))).toBe(false);
    }
  });
});

describe('reasoning carrier', () => {
  const sig: Signature = { origin: 'anthropic', value: 'EqQB+/sig==' };

  it('carries a block whole: its text beside its signature, or redacted data as redacted', () => {
    const thinking = encodeReasoning({ text: 'Look it up.\nÉtape 2 — 🌍', signature: sig });
    expect(thinking).toMatch(/^\/2lsMm[A-Za-z0-9+/]*={0,2}$/);
    expect(decodeReasoning(thinking)).toEqual({ text: 'Look it up.\nÉtape 2 — 🌍', signature: sig });
    const redacted = encodeReasoning({ text: '', redacted: { origin: 'anthropic', value: 'REDACTED' } });
    expect(decodeReasoning(redacted)).toEqual({ text: '', redacted: { origin: 'anthropic', value: 'REDACTED' } });
    expect(decodeReasoning(encodeReasoning({ text: 't', signature: { origin: 'gemini', value: 'CiQB' } }))?.signature?.origin).toBe('gemini');
  });

  it('reads a signature-only carrier (either format) as a block with no text, and nothing else', () => {
    expect(decodeReasoning(encodeSignature(sig))).toEqual({ text: '', signature: sig });
    expect(decodeReasoning('EqQBCkgIBxABGAIqQ')).toBeUndefined(); // a vendor's own value
    expect(decodeSignature(encodeReasoning({ text: 'x', signature: sig }))).toBeUndefined(); // never read as a bare signature
  });

  it('refuses look-alikes: a broken header, bad JSON, missing fields', () => {
    const wrap = (json: string, letter = 'a') => btoa(String.fromCharCode(0xff, 0x69, 0x6c, 0x32, letter.charCodeAt(0)) + json);
    expect(decodeReasoning(wrap('{"t":"x","s":"y"}'))).toEqual({ text: 'x', signature: { origin: 'anthropic', value: 'y' } });
    expect(decodeReasoning(wrap('{"t":"x","s":"y"}', 'z'))).toBeUndefined();
    expect(decodeReasoning(wrap('{"t":"x"'))).toBeUndefined();
    expect(decodeReasoning(wrap('{"s":"y"}'))).toBeUndefined();
    expect(decodeReasoning(wrap('{"t":"x"}'))).toBeUndefined();
    expect(decodeReasoning(wrap('"x"'))).toBeUndefined();
  });

  it('mayCarrySignatures finds it in a raw body', () => {
    expect(mayCarrySignatures(JSON.stringify({ encrypted_content: encodeReasoning({ text: 'x', signature: sig }) }))).toBe(true);
  });

  it('is read URL-safe too, padded or not', () => {
    for (const block of [{ text: 'Look it up? — 🌍>>', signature: sig }, { text: '', redacted: { origin: 'anthropic' as const, value: 'RED/+' } }]) {
      const carried = encodeReasoning(block);
      const urlSafe = carried.replace(/\+/g, '-').replace(/\//g, '_');
      expect(decodeReasoning(urlSafe)).toEqual(block);
      expect(decodeReasoning(urlSafe.replace(/=+$/, ''))).toEqual(block);
    }
  });
});
