/**
 * isImageFormFields decides whether an edit / variation body is an already-read multipart form
 * or JSON parameters: only the complete shape readImageForm produces counts as a form.
 */
import { describe, expect, it } from 'vitest';
import { isImageFormFields } from './read-form.ts';

describe('isImageFormFields', () => {
  it('accepts the shape readImageForm produces', () => {
    expect(isImageFormFields({ fields: {}, images: [], files: {} })).toBe(true);
  });

  it('rejects anything with a part missing or of the wrong type, without throwing', () => {
    for (const body of [
      null,
      undefined,
      'form',
      {},
      { fields: null, images: [], files: {} },
      { fields: 'x', images: [], files: {} },
      { fields: {}, images: {}, files: {} },
      { fields: {}, images: [], files: null },
      { fields: {}, images: [], files: 'x' },
      { fields: {}, images: [] },
      { images: [], files: {} },
    ]) {
      expect(isImageFormFields(body), JSON.stringify(body)).toBe(false);
    }
  });
});
