/**
 * The committed JSON Schema of the config is the one generated from the valibot schema, and every
 * example config in examples/ is valid for the proxy itself and for the JSON Schema an editor uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../scripts/config-schema.ts';
import { parseConfig } from '../src/config/load.ts';

const root = join(import.meta.dirname, '..');
const committed = readFileSync(join(root, 'config.schema.json'), 'utf8');

describe('config JSON Schema', () => {
  it('is in sync with src/config/schema.ts (run npm run schema after changing it)', () => {
    expect(committed).toBe(configJsonSchema());
  });

  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(committed));

  it.each(readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.json')))('examples/%s is valid for the editor and for the proxy', (file) => {
    const doc = JSON.parse(readFileSync(join(root, 'examples', file), 'utf8'));
    expect(doc.$schema).toBe('../config.schema.json');
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    const env = new Proxy({}, { get: (_t, name) => `value-of-${String(name)}` }) as Record<string, string>;
    expect(() => parseConfig(doc, env)).not.toThrow();
  });

  it('rejects what the proxy rejects, so the editor flags it', () => {
    expect(validate({ upstreams: { u: { dialect: 'cobol', baseUrl: 'https://x' } }, models: {} })).toBe(false);
    expect(validate({ upstreams: {}, models: {}, typo: true })).toBe(false);
  });
});
