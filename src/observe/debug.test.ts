import { describe, expect, it } from 'vitest';
import { ByteParts } from '../kit/index.ts';
import { jsonOrText } from './debug.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('jsonOrText', () => {
  it('parses JSON text, keeps other text', () => {
    expect(jsonOrText('{"a":1}')).toEqual({ a: 1 });
    expect(jsonOrText('not json')).toBe('not json');
  });
  it('reads a body given as bytes or as forwarded parts', () => {
    expect(jsonOrText(bytes('{"model":"m"}'))).toEqual({ model: 'm' });
    expect(jsonOrText(new ByteParts([bytes('{"model":'), bytes('"real"'), bytes('}')]))).toEqual({ model: 'real' });
    expect(jsonOrText(bytes('plain'))).toBe('plain');
  });
  it('leaves anything else as it is', () => {
    expect(jsonOrText(undefined)).toBeUndefined();
  });
});
