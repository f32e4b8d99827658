import { describe, expect, it } from 'vitest';
import { warningsHeader } from './reply.ts';

describe('warnings header', () => {
  it('is a valid header value whatever the paths hold', () => {
    const v = warningsHeader(['dropped:tools.f.parameters.properties.città.additionalProperties', 'dropped:seed', 'dropped:seed', 'x:%zz\n']);
    expect(() => new Headers({ 'x-interlingua-warnings': v })).not.toThrow();
    expect(v).toBe('dropped:tools.f.parameters.properties.citt%C3%A0.additionalProperties, dropped:seed, x:%25zz%0A');
  });

  it('is cut to a bounded size', () => {
    const many = Array.from({ length: 2000 }, (_, i) => `dropped:field_${i}`);
    const v = warningsHeader(many);
    expect(v.length).toBeLessThan(4200);
    expect(v.endsWith(', more')).toBe(true);
  });
});
