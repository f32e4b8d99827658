import { describe, expect, it } from 'vitest';
import { CallSignatureLender, lendCallSignatures, lendingCallSignatures, withoutLentSignatures } from './lent-signatures.ts';
import type { Part, Signature } from './parts.ts';
import type { StreamEvent } from './stream.ts';

const gem: Signature = { origin: 'gemini', value: 'CiQBsig' };
const thought: Part = { type: 'reasoning', text: 'Let me look.' };
const call: Part = { type: 'tool-call', id: 'c1', name: 'f', arguments: '{}', signature: gem };

describe('lendCallSignatures / withoutLentSignatures', () => {
  it('the unsigned reasoning right before a Gemini-signed call shows its signature; back again it is unsigned', () => {
    const parts = [thought, call, { type: 'tool-call', id: 'c2', name: 'g', arguments: '{}' } as Part];
    const lent = lendCallSignatures(parts);
    expect(lent).toEqual([{ ...thought, signature: gem }, call, parts[2]]);
    expect(withoutLentSignatures(lent)).toEqual(parts);
  });

  it('lends nothing to a signed or redacted block, across other parts, or from an unsigned or non-Gemini call', () => {
    const signed: Part = { type: 'reasoning', text: 't', signature: { origin: 'anthropic', value: 'Eq' } };
    const redacted: Part = { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'x' } };
    const openaiCall: Part = { ...call, signature: { origin: 'openai', value: 'enc' } } as Part;
    for (const parts of [[signed, call], [redacted, call], [thought, { type: 'text', text: 'a' } as Part, call], [thought, { ...call, signature: undefined } as Part], [thought, openaiCall], [call, thought]]) {
      expect(lendCallSignatures(parts)).toEqual(parts);
    }
  });

  it('keeps a reasoning signature that is not the next call\'s, and returns the same array when nothing changes', () => {
    const own: Part = { type: 'reasoning', text: 't', signature: { origin: 'gemini', value: 'other' } };
    const parts = [own, call];
    expect(withoutLentSignatures(parts)).toBe(parts);
  });
});

describe('CallSignatureLender', () => {
  const run = (events: StreamEvent[]) => {
    const l = new CallSignatureLender();
    return [...events.flatMap((e) => l.push(e)), ...l.finish()];
  };
  const start: StreamEvent = { type: 'tool-call-start', index: 0, id: 'c1', name: 'f', signature: gem };

  it('holds an unsigned reasoning-end for one event and signs it with the Gemini call that follows', () => {
    const out = run([{ type: 'reasoning-start' }, { type: 'reasoning-delta', text: 'x' }, { type: 'reasoning-end' }, start, { type: 'tool-call-end', index: 0 }]);
    expect(out).toEqual([{ type: 'reasoning-start' }, { type: 'reasoning-delta', text: 'x' }, { type: 'reasoning-end', signature: gem }, start, { type: 'tool-call-end', index: 0 }]);
  });

  it('releases it unchanged before anything else, and at the end of the stream', () => {
    const text: StreamEvent = { type: 'text-start' };
    expect(run([{ type: 'reasoning-end' }, text])).toEqual([{ type: 'reasoning-end' }, text]);
    expect(run([{ type: 'reasoning-end' }])).toEqual([{ type: 'reasoning-end' }]);
    expect(run([{ type: 'reasoning-end', choice: 1 }, start])).toEqual([{ type: 'reasoning-end', choice: 1 }, start]);
    const unsigned: StreamEvent = { type: 'tool-call-start', index: 0, id: 'c1', name: 'f' };
    expect(run([{ type: 'reasoning-end' }, unsigned])).toEqual([{ type: 'reasoning-end' }, unsigned]);
  });

  it('never lends to redacted reasoning, and passes signed ends at once', () => {
    const redacted: StreamEvent = { type: 'reasoning-start', redacted: { origin: 'anthropic', value: 'x' } };
    expect(run([redacted, { type: 'reasoning-end' }, start])).toEqual([redacted, { type: 'reasoning-end' }, start]);
    const l = new CallSignatureLender();
    expect(l.push({ type: 'reasoning-end', signature: gem })).toEqual([{ type: 'reasoning-end', signature: gem }]);
  });

  it('lendingCallSignatures shows a step the lent stream and keeps its forwarded', () => {
    const seen: StreamEvent[] = [];
    const frames: string[] = [];
    const step = { push: (e: StreamEvent) => (seen.push(e), [e.type]), finish: () => ['end'], forwarded: (f: { data: string }) => void frames.push(f.data) };
    const wrapped = lendingCallSignatures(step);
    expect([...wrapped.push({ type: 'reasoning-end' }), ...wrapped.push(start), ...wrapped.finish()]).toEqual(['reasoning-end', 'tool-call-start', 'end']);
    expect(seen[0]).toEqual({ type: 'reasoning-end', signature: gem });
    wrapped.forwarded!({ data: 'x' });
    expect(frames).toEqual(['x']);
  });
});
