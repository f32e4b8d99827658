import { describe, expect, it } from 'vitest';
import { ByteParts, jsonBody } from '../../kit/index.ts';
import { rng } from '../../../bench/agent-bodies.ts';
import { TurnMemo } from './turn-memo.ts';

const TEXTS = ['plain words ', 'quote " and \\ backslash ', 'tab\t nl\n ', 'café naïve 😀 ', '\u2028 \u0001 ', '{"json": [1, 2]} '];
const text = (r: () => number, n: number) => Array.from({ length: n }, () => TEXTS[Math.floor(r() * TEXTS.length)]).join('');

/** A message of an agent's conversation (any shape: the memo knows none). */
function message(r: () => number, i: number): unknown {
  const k = Math.floor(r() * 4);
  if (k === 0) return { role: 'user', content: text(r, 5 + Math.floor(r() * 40)) };
  if (k === 1) return { role: 'assistant', content: [{ type: 'text', text: text(r, 10) }, { type: 'tool_use', id: `call_${i}`, input: { path: `src/${i}.ts`, n: i, f: r() < 0.5, x: null, e: 1.5e-7 } }] };
  if (k === 2) return { role: 'user', content: [{ type: 'tool_result', tool_use_id: `call_${i}`, content: text(r, 50 + Math.floor(r() * 200)) }] };
  return [i, 'odd', { nested: [[[]]] }, -0.25];
}

const bytesOf = (v: unknown, r?: () => number) => {
  // Sometimes pretty-printed (whitespace between every token), sometimes compact.
  const s = r && r() < 0.2 ? JSON.stringify(v, null, r() < 0.5 ? 1 : '\t') : JSON.stringify(v);
  return Buffer.from(s);
};
const whole = (flat: Uint8Array) => JSON.parse(Buffer.from(flat).toString('utf8'));
const caller = (id: string, callerKey?: string) => ({ caller: { id }, callerKey });
const A = caller('anthropic', 'key-a');

/** In pieces, as a socket reads it. */
function pieces(b: Buffer, r: () => number): ByteParts | Buffer {
  if (r() < 0.5) return b;
  const cuts = [0, Math.floor(r() * b.length), b.length].sort((x, y) => x - y);
  return new ByteParts(cuts.slice(1).map((c, i) => b.subarray(cuts[i], c)));
}

function parse(memo: TurnMemo, who: ReturnType<typeof caller>, b: Buffer, r = rng(1)): unknown {
  return memo.parse(who, pieces(b, r), b, 'messages', whole);
}

describe('TurnMemo.parse: an agent’s turn parsed from its last one', () => {
  it('gives what JSON.parse gives, turn after turn, with edits, new fields and other conversations', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed);
      const memo = new TurnMemo(64 * 1024 * 1024, 0);
      let messages: unknown[] = Array.from({ length: 20 }, (_, i) => message(r, i));
      let system = text(r, 30);
      for (let turn = 0; turn < 25; turn++) {
        const change = r();
        if (change < 0.5) messages = [...messages, message(r, 100 + turn), message(r, 200 + turn)];
        else if (change < 0.65) messages = messages.map((m, i) => (i === Math.floor(r() * messages.length) ? message(r, 300 + turn) : m));
        else if (change < 0.72) messages = messages.slice(0, -3);
        else if (change < 0.8) system = text(r, 30);
        else if (change < 0.85) messages = [];
        const body: Record<string, unknown> = { model: 'm', system, messages, max_tokens: 100 };
        if (r() < 0.3) body.stream = r() < 0.5;
        if (r() < 0.2) body.tools = [{ name: 't', input_schema: { type: 'object' } }];
        if (r() < 0.1) body.__proto__x = 1;
        const b = bytesOf(body, r);
        const got = parse(memo, A, b, r);
        const want = JSON.parse(b.toString());
        expect(got).toStrictEqual(want);
        // (Key order too, which toStrictEqual does not look at.)
        expect(JSON.stringify(got)).toBe(JSON.stringify(want));
        if (messages.length === 0) messages = Array.from({ length: 5 }, (_, i) => message(r, i));
      }
    }
  });

  it('parses only what changed: an appended turn reuses every earlier message', () => {
    const r = rng(7);
    const memo = new TurnMemo(64 * 1024 * 1024, 0);
    const messages = Array.from({ length: 50 }, (_, i) => message(r, i));
    const first = parse(memo, A, bytesOf({ model: 'm', system: 'be brief', messages })) as { messages: unknown[]; system: string };
    const b = bytesOf({ model: 'm', system: 'be brief', messages: [...messages, message(r, 50)] });
    const next = parse(memo, A, b) as { messages: unknown[] };
    expect(next.messages.slice(0, 50).every((m, i) => m === first.messages[i])).toBe(true);
    expect(next).toStrictEqual(JSON.parse(b.toString()));
  });

  it('an edit in the middle of the history is parsed, not spliced: the edited message is the new one', () => {
    const r = rng(3);
    const memo = new TurnMemo(64 * 1024 * 1024, 0);
    const messages = Array.from({ length: 30 }, (_, i) => ({ role: 'user', content: `message ${i} ${text(r, 20)}` }));
    parse(memo, A, bytesOf({ model: 'm', messages }));
    // The same length, one character changed: the bytes around it are the last turn's.
    const edited = messages.map((m, i) => (i === 15 ? { ...m, content: m.content.replace('message', 'massage') } : m));
    const got = parse(memo, A, bytesOf({ model: 'm', messages: edited })) as { messages: Array<{ content: string }> };
    expect(got.messages[15]!.content.startsWith('massage 15')).toBe(true);
    expect(got).toStrictEqual(JSON.parse(JSON.stringify({ model: 'm', messages: edited })));
  });

  it('keeps JSON.parse’s answer for what the scan cannot vouch for: keys twice, escaped keys, bad JSON', () => {
    const memo = new TurnMemo(64 * 1024 * 1024, 0);
    const messages = Array.from({ length: 10 }, (_, i) => ({ role: 'user', content: `m${i}` }));
    const base = JSON.stringify({ model: 'm', messages });
    parse(memo, A, Buffer.from(base));
    const twice = `${base.slice(0, -1)},"model":"other","messages":[{"role":"user","content":"x"}]}`;
    expect(parse(memo, A, Buffer.from(twice))).toStrictEqual(JSON.parse(twice));
    const escaped = `${base.slice(0, -1)},"\\u006dodel2":1}`;
    expect(parse(memo, A, Buffer.from(escaped))).toStrictEqual(JSON.parse(escaped));
    const proto = `${base.slice(0, -1)},"__proto__":{"polluted":1}}`;
    const p = parse(memo, A, Buffer.from(proto)) as Record<string, unknown>;
    expect(p).toStrictEqual(JSON.parse(proto));
    expect(Object.getPrototypeOf(p)).toBe(Object.prototype);
    // Bad JSON after the kept bytes (a control character in a new string, a trailing comma): the whole parse's error.
    for (const bad of [`${base.slice(0, -2)},{"role":"user","content":"a\u0001b"}]}`, `${base.slice(0, -2)},]}`, `${base.slice(0, -2)},{"a":01}]}`]) {
      expect(() => parse(memo, A, Buffer.from(bad))).toThrow();
    }
  });

  it('freezes what it keeps, so a change to a reused value fails loudly', () => {
    const memo = new TurnMemo(64 * 1024 * 1024, 0);
    const messages = Array.from({ length: 10 }, (_, i) => ({ role: 'user', content: [{ type: 'text', text: `m${i}` }] }));
    const got = parse(memo, A, bytesOf({ model: 'm', messages })) as { messages: Array<{ content: Array<{ text: string }> }> };
    expect(() => {
      got.messages[3]!.content[0]!.text = 'changed';
    }).toThrow(TypeError);
    // The object and its array are the request's own.
    (got as Record<string, unknown>).model = 'n';
    got.messages.push(got.messages[0]!);
  });

  it('never gives one caller what another sent: other credential, other dialect', () => {
    const memo = new TurnMemo(64 * 1024 * 1024, 0);
    const messages = Array.from({ length: 10 }, (_, i) => ({ role: 'user', content: `m${i}` }));
    const b = bytesOf({ model: 'm', messages });
    const a = parse(memo, A, b) as { messages: unknown[] };
    expect((parse(memo, A, b) as { messages: unknown[] }).messages[0]).toBe(a.messages[0]);
    for (const other of [caller('anthropic', 'key-b'), caller('anthropic'), caller('openai-chat', 'key-a')]) {
      const got = parse(memo, other, b) as { messages: unknown[] };
      expect(got).toStrictEqual(a);
      expect(got.messages.some((m, i) => m === a.messages[i])).toBe(false);
    }
  });

  it('holds at most its bound, however many callers', () => {
    const max = 2 * 1024 * 1024;
    const memo = new TurnMemo(max, 0);
    const r = rng(5);
    for (let c = 0; c < 200; c++) {
      const messages = Array.from({ length: 40 }, (_, i) => message(r, i));
      parse(memo, caller('anthropic', `key-${c}`), bytesOf({ model: 'm', messages }));
      jsonBody({ model: 'm', messages: [...messages, ...messages, ...messages] }, 'messages', memo.sent(caller('anthropic', `key-${c}`), 'up\nm'));
      expect(memo.size).toBeLessThanOrEqual(max);
    }
    expect(memo.size).toBeGreaterThan(max / 2);
  });

  it('is off below its size: nothing kept', () => {
    const memo = new TurnMemo(64 * 1024 * 1024, 1024 * 1024);
    parse(memo, A, bytesOf({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    expect(memo.size).toBe(0);
  });
});
