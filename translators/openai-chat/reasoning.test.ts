import { expect, test } from 'vitest';
import { encodeSignature } from '../../src/canonical/index.ts';
import { attachTextSignature, decodeReasoning, encodeReasoning, textSignature } from './reasoning.ts';

const sig = { origin: 'anthropic' as const, value: 'EqQB' };

test('encode: plain text only → reasoning_content; signed → details too; round trip', () => {
  expect(encodeReasoning([])).toEqual({});
  expect(encodeReasoning([{ type: 'reasoning', text: 'a' }, { type: 'reasoning', text: 'b' }])).toEqual({ reasoning_content: 'ab' });
  const parts = [
    { type: 'reasoning' as const, text: 'a', signature: sig },
    { type: 'reasoning' as const, text: '', redacted: sig },
    { type: 'reasoning' as const, text: 'c' },
  ];
  const wire = encodeReasoning(parts);
  expect(wire).toEqual({
    reasoning_content: 'ac',
    reasoning_details: [
      { type: 'reasoning.text', text: 'a', signature: encodeSignature(sig) },
      { type: 'reasoning.encrypted', data: encodeSignature(sig) },
      { type: 'reasoning.text', text: 'c' },
    ],
  });
  expect(decodeReasoning(wire.reasoning_details, wire.reasoning_content)).toEqual(parts);
});

test('decode: OpenRouter raw details tagged by format, summaries, junk skipped, text fallback', () => {
  expect(
    decodeReasoning(
      [
        { type: 'reasoning.text', text: 't', signature: 'raw', format: 'anthropic-claude-v1' },
        { type: 'reasoning.summary', summary: 's' },
        { type: 'reasoning.encrypted', data: 'opaque', format: 'unknown' },
        { type: 'reasoning.text', text: 'u', signature: 'raw2' },
        null,
        'junk',
        { type: 'other' },
      ],
      'ignored',
    ),
  ).toEqual([
    { type: 'reasoning', text: 't', signature: { origin: 'anthropic', value: 'raw' } },
    { type: 'reasoning', text: 's' },
    { type: 'reasoning', text: 'u' },
  ]);
  expect(decodeReasoning(undefined, 'plain')).toEqual([{ type: 'reasoning', text: 'plain' }]);
  expect(decodeReasoning([], '')).toEqual([]);
});

test('a Gemini signature on answer text rides as an empty signed detail and goes back onto the text', () => {
  const gsig = { origin: 'gemini' as const, value: 'EtoFCtcF' };
  const text = { type: 'text' as const, text: 'There are 3.', signature: gsig };
  const wire = encodeReasoning([{ type: 'reasoning', text: 'counting' }, textSignature(text)!]);
  expect(wire.reasoning_content).toBe('counting');
  expect(wire.reasoning_details?.[1]).toEqual({ type: 'reasoning.text', text: '', signature: encodeSignature(gsig) });
  const decoded = decodeReasoning(wire.reasoning_details, wire.reasoning_content);
  expect(attachTextSignature([...decoded, { type: 'text', text: 'There are 3.' }])).toEqual([{ type: 'reasoning', text: 'counting' }, text]);
  // Without answer text, or for another vendor's empty block, nothing moves.
  expect(attachTextSignature(decoded)).toEqual(decoded);
  const foreign = [{ type: 'reasoning' as const, text: '', signature: sig }, { type: 'text' as const, text: 'x' }];
  expect(attachTextSignature(foreign)).toEqual(foreign);
  expect(textSignature({ type: 'text', text: 'plain' })).toBeUndefined();
});

test("OpenRouter's raw details: the format names the vendor (anthropic, google, openai); an unknown one is unsigned", () => {
  const detail = (format: string) => ({ type: 'reasoning.text', text: 't', signature: 'RAW', format });
  expect(decodeReasoning([detail('anthropic-claude-v1'), detail('google-gemini-v1'), detail('openai-responses-v1'), detail('xai-v1'), detail('v1-openai')], undefined)).toEqual([
    { type: 'reasoning', text: 't', signature: { origin: 'anthropic', value: 'RAW' } },
    { type: 'reasoning', text: 't', signature: { origin: 'gemini', value: 'RAW' } },
    { type: 'reasoning', text: 't', signature: { origin: 'openai', value: 'RAW' } },
    { type: 'reasoning', text: 't' },
    { type: 'reasoning', text: 't' },
  ]);
  // Summaries, an encrypted detail without a known vendor (dropped), and unknown detail types.
  expect(decodeReasoning([{ type: 'reasoning.summary', summary: 's' }, { type: 'reasoning.encrypted', data: 'opaque', format: 'unknown' }, { type: 'reasoning.other' }], 'ignored')).toEqual([{ type: 'reasoning', text: 's' }]);
});

test('signed thoughts without text send details only; a Gemini text signature goes back onto the last unsigned text', () => {
  expect(encodeReasoning([{ type: 'reasoning', text: '', signature: sig }])).toEqual({ reasoning_details: [{ type: 'reasoning.text', text: '', signature: encodeSignature(sig) }] });
  const gem = { origin: 'gemini' as const, value: 'G' };
  const parts = [
    { type: 'reasoning' as const, text: 'thought', signature: gem },
    { type: 'text' as const, text: 'a' },
    { type: 'reasoning' as const, text: '', signature: gem },
    { type: 'text' as const, text: 'b' },
    { type: 'text' as const, text: 'c', signature: sig },
  ];
  expect(attachTextSignature(parts)).toEqual([parts[0], parts[1], { type: 'text', text: 'b', signature: gem }, parts[4]]);
  // Not Gemini's, or no unsigned text to carry it: left as it is.
  const foreign = [{ type: 'reasoning' as const, text: '', signature: sig }, { type: 'text' as const, text: 'a' }];
  expect(attachTextSignature(foreign)).toBe(foreign);
  const noText = [{ type: 'reasoning' as const, text: '', signature: gem }];
  expect(attachTextSignature(noText)).toBe(noText);
  expect(attachTextSignature([{ type: 'text', text: 'first' }, { type: 'reasoning', text: '', signature: gem }])).toEqual([{ type: 'text', text: 'first', signature: gem }]);
});

test('a detail without its text or summary is an empty thought (a signed one keeps its signature)', () => {
  expect(decodeReasoning([{ type: 'reasoning.text', signature: encodeSignature(sig) }, { type: 'reasoning.summary', summary: null }], undefined)).toStrictEqual([
    { type: 'reasoning', text: '', signature: sig },
    { type: 'reasoning', text: '' },
  ]);
});

test('a Gemini text signature first in the list still goes onto the text; an unsigned empty thought is no signature', () => {
  const gem = { origin: 'gemini' as const, value: 'G' };
  expect(attachTextSignature([{ type: 'reasoning', text: '', signature: gem }, { type: 'text', text: 'a' }])).toEqual([{ type: 'text', text: 'a', signature: gem }]);
  const unsigned = [{ type: 'reasoning' as const, text: '' }, { type: 'text' as const, text: 'a' }];
  expect(attachTextSignature(unsigned)).toBe(unsigned);
});

test('a Gemini-signed text is an empty signed reasoning part; an unsigned one is none', () => {
  const sig = { origin: 'gemini' as const, value: 'G' };
  expect(textSignature({ type: 'text', text: 'Hi', signature: sig })).toStrictEqual({ type: 'reasoning', text: '', signature: sig });
  expect(textSignature({ type: 'text', text: 'Hi' })).toBeUndefined();
});

test('only an empty signed reasoning part goes onto the text: an empty signed text is not one', () => {
  const sig = { origin: 'gemini' as const, value: 'G' };
  const parts = [
    { type: 'text' as const, text: '', signature: sig },
    { type: 'text' as const, text: 'Hi' },
  ];
  expect(attachTextSignature(parts)).toBe(parts);
});
