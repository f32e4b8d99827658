import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { asSentence, describeIssue, expectedOf, ownMessage, reasonOf, ruleOf } from './issues.ts';

function issueOf(schema: v.GenericSchema, value: unknown) {
  const r = v.safeParse(schema, value);
  if (r.success) throw new Error('valid');
  return r.issues[0];
}

const S = v.object({
  part: v.variant('type', [v.object({ type: v.literal('text'), text: v.string() }), v.variant('type', [v.object({ type: v.picklist(['image', 'audio']) })])]),
  n: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  name: v.optional(v.pipe(v.string(), v.regex(/^a/))),
  said: v.optional(v.pipe(v.string(), v.check(() => false, 'Input should start with a'))),
});

describe('valibot issues in plain words (for callers and config alike)', () => {
  it('a missing field, within a prefix', () => {
    expect(describeIssue(S, issueOf(S, {}))).toBe('missing field `part`');
    expect(describeIssue(S, issueOf(S, { part: { type: 'text' } }), { prefix: 'body' })).toBe('missing field `text` at body.part');
  });

  it('a variant tag: every tag its options take, nested ones included', () => {
    const i = issueOf(S, { part: { type: 'video' } });
    expect(expectedOf(S, i)).toBe('one of "text", "image", "audio"');
    expect(describeIssue(S, i)).toBe('`part.type` must be one of "text", "image", "audio"');
  });

  it('rules, without the field for a dialect that puts the path first', () => {
    const part = { type: 'text', text: 'x' };
    expect(reasonOf(S, issueOf(S, { part, n: 'two' }))).toBe('must be a whole number of at least 1, not a string');
    expect(ruleOf(issueOf(S, { part, n: 0 }))).toBe('must be at least 1');
    expect(ruleOf(issueOf(S, { part, n: 1.5 }))).toBe('must be a whole number');
    expect(describeIssue(S, issueOf(S, { part, name: 'bob' }))).toBe('`name` is not in the expected form');
  });

  it("a schema's own words are kept, valibot's defaults never (they quote the value)", () => {
    const part = { type: 'text', text: 'x' };
    const own = issueOf(S, { part, said: 'b' });
    expect(ownMessage(own)).toBe('Input should start with a');
    expect(describeIssue(S, own)).toBe('`said`: Input should start with a');
    const secret = 'sk-SECRET';
    const dflt = issueOf(S, { part, name: secret });
    expect(ownMessage(dflt)).toBeUndefined();
    expect(describeIssue(S, dflt)).not.toContain(secret);
    expect(describeIssue(S, issueOf(S, 'x'), { whole: 'the request body' })).toBe('the request body must be an object ({ … }), not a string');
  });

  it('as a sentence', () => {
    expect(asSentence('missing field `contents`')).toBe('Missing field `contents`.');
    expect(asSentence('`n` must be at least 1')).toBe('`n` must be at least 1.');
  });
});
