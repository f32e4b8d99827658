import { describe, expect, it } from 'vitest';
import { isImageFormFields, readImageForm } from './read-form.ts';
import { file, png } from './test-images.ts';

describe('readImageForm', () => {
  it('reads strings as strings and files as bytes, keeping image order across image / image[]', async () => {
    const a = png(16, 16);
    const b = png(32, 32);
    const m = png(16, 16, { colourType: 2 });
    const form = new FormData();
    form.append('prompt', 'add a hat');
    form.append('n', '2');
    form.append('image[]', file(a, 'a.png'));
    form.append('image[]', file(b, 'b.webp', 'image/webp'));
    form.append('mask', file(m, 'mask.png'));
    form.append('image', new Blob([new Uint8Array([1, 2, 3])]));
    const out = await readImageForm(form);
    expect(out.fields).toEqual({ prompt: 'add a hat', n: '2' });
    expect(out.images.map((f) => [f.filename, f.mediaType, f.data.length])).toEqual([
      ['a.png', 'image/png', a.length],
      ['b.webp', 'image/webp', b.length],
      ['blob', '', 3],
    ]);
    expect(out.images[0]!.data).toEqual(a);
    expect(out.files.mask?.[0]?.data).toEqual(m);
    expect(out.files.mask?.[0]?.filename).toBe('mask.png');
    expect(isImageFormFields(out)).toBe(true);
  });

  it('keeps the last value of a repeated text field and a string sent as image', async () => {
    const form = new FormData();
    form.append('size', '256x256');
    form.append('size', '512x512');
    form.append('image', 'https://example.com/a.png');
    const out = await readImageForm(form);
    expect(out).toEqual({ fields: { size: '512x512', image: 'https://example.com/a.png' }, images: [], files: {} });
  });

  it('tells form fields from other bodies', () => {
    expect(isImageFormFields({ prompt: 'x' })).toBe(false);
    expect(isImageFormFields(null)).toBe(false);
    expect(isImageFormFields({ fields: {}, images: {}, files: {} })).toBe(false);
  });
});

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
