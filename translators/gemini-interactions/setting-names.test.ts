import { describe, expect, it } from 'vitest';
import { inCallerTerms, type ChatRequest } from '../../src/canonical/index.ts';
import { decodeRequest } from './decode-request.ts';
import { settingNames } from './setting-names.ts';

/** A value the caller may send at each setting's field. */
const SAMPLES: Record<string, unknown> = {
  toolChoice: 'any',
  maxOutputTokens: 5,
  temperature: 0.5,
  topP: 0.5,
  stop: ['END'],
  seed: 7,
  responseFormat: { type: 'text', mime_type: 'application/json' },
  reasoning: 'high',
  'reasoning.enabled': 'minimal',
  'reasoning.effort': 'low',
  'reasoning.includeThoughts': 'auto',
  modalities: [{ type: 'text' }, { type: 'image' }],
};

/** A request body with `value` at the dotted `path`. */
function bodyWith(path: string, value: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = { model: 'm', input: 'x' };
  const [head, tail] = path.split('.');
  body[head!] = tail === undefined ? value : { [tail]: value };
  return body;
}

describe('settingNames: a loss report names the caller’s own field', () => {
  it.each(Object.entries(settingNames))('%s is read from %s', (setting, path) => {
    const req = decodeRequest({ body: bodyWith(path, SAMPLES[setting]), headers: {}, params: {}, query: {} }).value;
    expect(req[setting.split('.')[0] as keyof ChatRequest]).toBeDefined();
    expect(inCallerTerms([{ code: 'dropped', path: setting }], settingNames)).toEqual([{ code: 'dropped', path }]);
  });
});
