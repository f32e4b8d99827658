import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { passesAsIs, safeParseAsIs } from './as-is.ts';
import { deepFreeze, isJsonObject } from './json.ts';

const Block = v.variant('type', [
  v.looseObject({ type: v.literal('text'), text: v.string() }),
  v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.pipe(v.string(), v.minLength(1)), input: v.record(v.string(), v.unknown()) }),
  v.looseObject({ type: v.literal('tool_result'), tool_use_id: v.string(), content: v.optional(v.union([v.string(), v.array(v.unknown())])) }),
]);
const Request = v.looseObject({
  model: v.pipe(v.string(), v.minLength(1), v.maxLength(16)),
  max_tokens: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  temperature: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  stream: v.nullish(v.boolean()),
  role: v.optional(v.picklist(['user', 'assistant'])),
  system: v.nullish(v.union([v.string(), v.array(v.looseObject({ text: v.string() }))])),
  messages: v.array(v.looseObject({ role: v.string(), content: v.union([v.string(), v.array(Block)]) })),
  meta: v.optional(v.object({ user: v.nullable(v.string()) })),
  stops: v.optional(v.pipe(v.array(v.string()), v.length(2))),
  even: v.optional(v.pipe(v.number(), v.check((n) => n % 2 === 0))),
});

const good = {
  model: 'claude',
  max_tokens: 100,
  temperature: 0.5,
  stream: null,
  system: [{ text: 'be brief', cache: 1 }],
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'tool_use', id: 't', name: 'f', input: { a: [1] } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'x' }] }], extra: true },
  ],
  meta: { user: null },
  stops: ['a', 'b'],
  even: 4,
  unknown_field: { kept: true },
};

describe('passesAsIs', () => {
  it('accepts a request valibot accepts unchanged, nested variants, unions, records and pipes included', () => {
    expect(passesAsIs(Request, good)).toBe(true);
    expect(v.parse(Request, good)).toEqual(good);
  });

  it('refuses what valibot rejects', () => {
    const bad: unknown[] = [
      { ...good, model: '' },
      { ...good, model: 'x'.repeat(17) },
      { ...good, max_tokens: 1.5 },
      { ...good, max_tokens: 0 },
      { ...good, temperature: 2 },
      { ...good, temperature: Number.NaN },
      { ...good, role: 'system' },
      { ...good, system: 3 },
      { ...good, messages: [{ role: 'user' }] },
      { ...good, messages: [{ role: 'user', content: [{ type: 'image' }] }] },
      { ...good, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: '', input: {} }] }] },
      { ...good, messages: [{ role: 'user', content: [{ type: 'tool_use', id: 't', name: 'f', input: [] }] }] },
      { ...good, stops: ['a'] },
      { ...good, even: 3 },
      [good],
      null,
      'text',
    ];
    for (const b of bad) expect(passesAsIs(Request, b), JSON.stringify(b)).toBe(false);
  });

  it('refuses what valibot would change: keys a strict or plain object drops, arrays as objects, defaults, transformations, dropped keys', () => {
    expect(passesAsIs(Request, { ...good, meta: { user: 'u', other: 1 } })).toBe(false);
    expect(v.safeParse(Request, { ...good, meta: { user: 'u', other: 1 } }).success).toBe(true);
    expect(passesAsIs(v.looseObject({ a: v.string() }), ['x'])).toBe(false);
    expect(passesAsIs(v.record(v.string(), v.unknown()), [1])).toBe(false);
    expect(passesAsIs(v.looseObject({ a: v.optional(v.string(), 'd') }), {})).toBe(false);
    expect(passesAsIs(v.pipe(v.string(), v.transform((s) => s.trim())), ' a ')).toBe(false);
    expect(passesAsIs(v.pipe(v.string(), v.regex(/a/)), 'a')).toBe(false);
    expect(passesAsIs(v.looseObject({}), JSON.parse('{"__proto__": 1}'))).toBe(false);
    expect(passesAsIs(v.lazy(() => v.string()), 'a')).toBe(false);
  });

  it('knows a custom schema by its own check (what a JSON-object field is made with)', () => {
    const JsonObject = v.custom<Record<string, unknown>>(isJsonObject, (issue) => `Invalid type: Expected Object but received ${issue.received}`);
    const schema = v.object({ args: v.optional(JsonObject) });
    for (const ok of [{}, { args: {} }, { args: { a: [1] } }]) {
      expect(passesAsIs(schema, ok)).toBe(true);
      expect(v.parse(schema, ok)).toEqual(ok);
    }
    for (const bad of [{ args: [] }, { args: [1] }, { args: null }, { args: 'x' }]) {
      expect(passesAsIs(schema, bad)).toBe(false);
      expect(v.safeParse(schema, bad).success).toBe(false);
    }
    expect(v.safeParse(schema, { args: [1] }).issues?.[0]?.message).toBe('Invalid type: Expected Object but received Array');
  });

  it('takes a union option only when every earlier one surely fails', () => {
    const u = v.union([v.pipe(v.string(), v.transform((s) => s.length)), v.string()]);
    expect(passesAsIs(u, 'abc')).toBe(false);
    expect(passesAsIs(u, 3)).toBe(false);
    const w = v.union([v.number(), v.array(v.string()), v.string()]);
    expect(passesAsIs(w, 'abc')).toBe(true);
    expect(passesAsIs(w, ['a'])).toBe(true);
    expect(passesAsIs(w, [1])).toBe(false);
  });

  it('never says yes where valibot fails or would build a different value (property)', () => {
    const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -2, max: 20 }), fc.double({ noNaN: false }), fc.boolean(), fc.constant(null), fc.constantFrom('text', 'tool_use', 'tool_result', 'user', 'claude', 'f', 't'));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('model', 'type', 'text', 'id', 'name', 'input', 'content', 'role', 'messages', 'user', 'x'), tie('v'), { maxKeys: 4 })),
    })).v;
    // Mutations of the good request: one field replaced by an arbitrary value.
    const paths = ['model', 'max_tokens', 'temperature', 'system', 'messages', 'meta', 'stops', 'even', 'role'];
    fc.assert(
      fc.property(fc.constantFrom(...paths), value, fc.nat(2), (path, x, at) => {
        const body = structuredClone(good) as Record<string, unknown>;
        if (path === 'messages' && Array.isArray(x)) (body.messages as unknown[])[at] = x;
        else body[path] = x;
        const r = v.safeParse(Request, body);
        if (passesAsIs(Request, body)) {
          expect(r.success).toBe(true);
          expect(r.output).toEqual(body);
        }
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(value, (x) => {
        if (passesAsIs(Block, x)) {
          const r = v.safeParse(Block, x);
          expect(r.success).toBe(true);
          expect(r.output).toEqual(x);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('safeParseAsIs', () => {
  const schema = v.looseObject({ id: v.string(), n: v.optional(v.number()) });

  it('a value that passes as it is is the output itself: no copy', () => {
    const value = { id: 'a', n: 1, extra: [1] };
    const r = safeParseAsIs(v.safeParse, schema, value);
    expect(r.success).toBe(true);
    expect(r.output).toBe(value);
    expect(r).toEqual({ ...v.safeParse(schema, value), output: value });
  });

  it("anything else is valibot's own result: its copy, or its issues", () => {
    const transformed = v.object({ id: v.pipe(v.string(), v.transform((s) => s.toUpperCase())) });
    const copied = safeParseAsIs(v.safeParse, transformed, { id: 'a' });
    expect(copied.output).toEqual({ id: 'A' });
    const bad = safeParseAsIs(v.safeParse, schema, { id: 1 });
    expect(bad.success).toBe(false);
    expect(bad.issues).toEqual(v.safeParse(schema, { id: 1 }).issues);
  });
});

describe('passesAsIs: items frozen whole (the turn memo’s)', () => {
  it('checks an item frozen whole once, any other every time, and never passes one that fails', () => {
    let calls = 0;
    const schema = v.array(v.object({ n: v.custom<number>((x) => (calls++, typeof x === 'number')) }));
    const kept = { n: 1 };
    deepFreeze(kept);
    const bad = { n: 'x' };
    deepFreeze(bad);
    const fresh = { n: 2 };
    expect(passesAsIs(schema, [kept, fresh])).toBe(true);
    expect(calls).toBe(2);
    expect(passesAsIs(schema, [kept, fresh])).toBe(true);
    expect(calls).toBe(3);
    expect(passesAsIs(schema, [kept, bad])).toBe(false);
    expect(passesAsIs(schema, [bad])).toBe(false);
  });
});
