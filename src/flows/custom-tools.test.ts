import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse } from '../canonical/chat.ts';
import { CustomInputExtractor, customInputOf } from './custom-input.ts';
import { lowerCustomTools, raiseCustomToolCalls, raiseCustomToolStream } from './custom-tools.ts';
import type { StreamEvent } from '../canonical/stream.ts';

/** A patch in the shape Codex's freeform `apply_patch` takes (hand-written). */
const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@ function greet()',
  '-  return "hi\\n";',
  '+  return `héllo ${name} 😀\t`; // \u2028 and "quotes"',
  '*** End Patch',
  '',
].join('\n');

const GRAMMAR = 'start: "*** Begin Patch" LF body "*** End Patch" LF?\nbody: /(.|\\n)*/\n%import common.LF';

const req = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'm',
  system: [],
  stream: true,
  tools: [
    { name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: { command: { type: 'array' } } } },
    { name: 'apply_patch', description: 'Edit files.', custom: { format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR } } },
    { name: 'note', custom: {} },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'fix it' }] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'apply_patch', arguments: PATCH, custom: true }] },
    { role: 'user', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'Done!' }], custom: true }] },
  ],
  ...over,
});

/** Every prefix cut into pieces: all single cuts, then a few random many-way splits. */
function splits(text: string): string[][] {
  const out: string[][] = [[text]];
  for (let cut = 1; cut < text.length; cut++) out.push([text.slice(0, cut), text.slice(cut)]);
  out.push([...text]);
  return out;
}

function extract(pieces: string[]): { deltas: string[]; text: string } {
  const x = new CustomInputExtractor();
  const deltas = pieces.map((p) => x.push(p)).filter((d) => d !== '');
  const rest = x.end();
  if (rest) deltas.push(rest);
  return { deltas, text: deltas.join('') };
}

/** JSON with every non-ASCII character written as `\uXXXX` (surrogate pairs as two escapes). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const wellFormed = (s: string) => {
  expect(() => encodeURIComponent(s), JSON.stringify(s)).not.toThrow();
};

describe('lowerCustomTools', () => {
  it('turns each freeform tool into a function of one string, and history calls into JSON', () => {
    const original = req();
    const snapshot = JSON.stringify(original);
    const { value, warnings } = lowerCustomTools(original);
    expect(JSON.stringify(original)).toBe(snapshot);
    expect(value.tools![0]).toBe(original.tools![0]);
    const patch = value.tools![1]!;
    expect(patch.custom).toBeUndefined();
    expect(patch.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: expect.stringContaining('Lark grammar') } },
      required: ['input'],
      additionalProperties: false,
    });
    expect(patch.description).toContain('Edit files.');
    expect(patch.description).toContain(GRAMMAR);
    expect(value.tools![2]!.description).toContain('any text');
    const call = value.messages[1]!.content[0]!;
    expect(call).toEqual({ type: 'tool-call', id: 'call_1', name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) });
    expect(value.messages[2]!.content[0]).toEqual({ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'Done!' }] });
    expect(warnings).toEqual([
      { code: 'approximated', path: 'tools[1]', detail: 'custom→function' },
      { code: 'approximated', path: 'tools[2]', detail: 'custom→function' },
    ]);
  });

  it('leaves a request without freeform tools as it is', () => {
    const plain = req({ tools: [req().tools![0]!] });
    expect(lowerCustomTools(plain).value).toBe(plain);
  });
});

describe('customInputOf', () => {
  it.each([
    [JSON.stringify({ input: PATCH }), PATCH],
    ['{"input": 12}', '12'],
    ['{"patch":"x","n":1}', 'x'],
    ['"just a string"', 'just a string'],
    ['{}', ''],
    ['*** Begin Patch\nraw', '*** Begin Patch\nraw'],
    ['{"a":1,"b":2}', '{"a":1,"b":2}'],
  ])('%s', (args, input) => {
    expect(customInputOf(args)).toBe(input);
  });
});

describe('raiseCustomToolCalls', () => {
  it('turns calls to the caller’s freeform tools back into freeform calls with the raw input', () => {
    const res: ChatResponse = {
      id: 'r',
      model: 'm',
      created: 1,
      choices: [
        {
          index: 0,
          finishReason: { unified: 'tool-calls' },
          content: [
            { type: 'text', text: 'Patching.' },
            { type: 'tool-call', id: 'c1', name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) },
            { type: 'tool-call', id: 'c2', name: 'shell', arguments: '{"command":["ls"]}' },
          ],
        },
      ],
    };
    const out = raiseCustomToolCalls(res, req());
    expect(out.choices[0]!.content).toEqual([
      { type: 'text', text: 'Patching.' },
      { type: 'tool-call', id: 'c1', name: 'apply_patch', arguments: PATCH, custom: true },
      { type: 'tool-call', id: 'c2', name: 'shell', arguments: '{"command":["ls"]}' },
    ]);
    expect(res.choices[0]!.content[1]).not.toHaveProperty('custom');
  });
});

describe('CustomInputExtractor', () => {
  const bodies = [
    JSON.stringify({ input: PATCH }),
    asciiJson({ input: PATCH }),
    `{ "other": {"input": "nested, not this", "list": [1, "]}", {"x": "\\""}]}, "n": -1.5e3, "t": true,\n  "input" : ${asciiJson(PATCH)} , "after": "ignored" }`,
    `{"inp\\u0075t":${JSON.stringify(PATCH)}}`,
  ];

  it.each(bodies.map((b, i) => [i, b] as const))('decodes body %i the same for every split', (_i, body) => {
    for (const pieces of splits(body)) {
      const { deltas, text } = extract(pieces);
      expect(text).toBe(PATCH);
      deltas.forEach(wellFormed);
    }
  });

  it('holds a high surrogate until its low half arrives, raw or escaped', () => {
    const x = new CustomInputExtractor();
    expect(x.push('{"input":"a\\ud83d')).toBe('a');
    expect(x.push('\\ude00b')).toBe('😀b');
    expect(x.push('\uD83D')).toBe('');
    expect(x.push('\uDE01"}')).toBe('😁');
    expect(x.end()).toBe('');
  });

  it('replaces a lone surrogate instead of emitting half a character', () => {
    const { deltas, text } = extract(['{"input":"x\\ud83d', '"}']);
    expect(text).toBe('x\uFFFD');
    deltas.forEach(wellFormed);
  });

  it('falls back to the whole arguments when they have another shape', () => {
    expect(extract(['*** Begin', ' Patch']).text).toBe('*** Begin Patch');
    expect(extract(['{"patch":', '"a b"}']).text).toBe('a b');
    expect(extract(['{"input": {"a":', '1}}']).text).toBe('{"a":1}');
    expect(extract(['{}']).text).toBe('');
    expect(extract([]).text).toBe('');
  });

  it('streams any text through any split (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (input, cuts, ascii) => {
        const body = ascii ? asciiJson({ input }) : JSON.stringify({ input });
        const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let prev = 0;
        for (const c of at) {
          pieces.push(body.slice(prev, c));
          prev = c;
        }
        pieces.push(body.slice(prev));
        const { deltas, text } = extract(pieces);
        expect(text).toBe(input);
        deltas.forEach(wellFormed);
      }),
      { numRuns: 300 },
    );
  });

  it('does linear work: a 2 MB input in 1-byte deltas', () => {
    const big = 'x'.repeat(2_000_000);
    const body = JSON.stringify({ input: big });
    const x = new CustomInputExtractor();
    let n = 0;
    const t0 = Date.now();
    for (let i = 0; i < body.length; i += 1) n += x.push(body[i]!).length;
    expect(n).toBe(big.length);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});

describe('raiseCustomToolStream', () => {
  const body = JSON.stringify({ input: PATCH });
  const stream = (args: string[], name = 'apply_patch'): StreamEvent[] => [
    { type: 'message-start', id: 'x', model: 'm', created: 1 },
    { type: 'tool-call-start', index: 0, id: 'call_9', name },
    ...args.map((a): StreamEvent => ({ type: 'tool-call-delta', index: 0, argumentsDelta: a })),
    { type: 'tool-call-end', index: 0 },
    { type: 'finish', reason: { unified: 'tool-calls' } },
  ];
  const run = (events: StreamEvent[], r = req()) => {
    const step = raiseCustomToolStream(r);
    return [...events.flatMap((e) => step.push(e)), ...step.finish()];
  };

  it('marks the call custom and streams the raw input, for every split of the arguments', () => {
    for (const pieces of splits(body).filter((_, i) => i % 7 === 0)) {
      const out = run(stream(pieces));
      expect(out[1]).toEqual({ type: 'tool-call-start', index: 0, id: 'call_9', name: 'apply_patch', custom: true });
      const deltas = out.filter((e) => e.type === 'tool-call-delta').map((e) => (e as { argumentsDelta: string }).argumentsDelta);
      expect(deltas.join('')).toBe(PATCH);
      expect(deltas.every((d) => d !== '')).toBe(true);
      expect(out.at(-2)).toEqual({ type: 'tool-call-end', index: 0 });
    }
  });

  it('leaves other calls alone, and gives raw text written straight as arguments at the end', () => {
    const other = run(stream(['{"command":', '["ls"]}'], 'shell'));
    expect(other).toEqual(stream(['{"command":', '["ls"]}'], 'shell'));
    const raw = run(stream(['*** Begin Patch\n', '*** End Patch\n']));
    expect(raw.filter((e) => e.type === 'tool-call-delta')).toEqual([{ type: 'tool-call-delta', index: 0, argumentsDelta: '*** Begin Patch\n*** End Patch\n' }]);
  });

  it('passes everything through when the caller has no freeform tools', () => {
    const events = stream([body]);
    expect(run(events, req({ tools: [] }))).toEqual(events);
  });
});
