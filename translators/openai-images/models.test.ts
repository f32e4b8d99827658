import { describe, expect, it } from 'vitest';
import { imageFamilyOf, imageLimitsOf, parseSize, sizeToAspectRatio } from './models.ts';

describe('image models', () => {
  it('maps real and neutral names to the same family', () => {
    expect(imageFamilyOf('dall-e-2')).toBe('dall-e-2');
    expect(imageFamilyOf('image-model-a')).toBe('dall-e-2');
    expect(imageFamilyOf('dall-e-3')).toBe('dall-e-3');
    expect(imageFamilyOf('image-model-b')).toBe('dall-e-3');
    for (const m of ['gpt-image-1', 'gpt-image-1.5', 'gpt-image-1-mini', 'gpt-image-1-2025-04-15', 'image-model-c']) {
      expect(imageFamilyOf(m), m).toBe('gpt-image');
    }
    for (const m of ['gpt-image-2', 'imagen-4', 'gemini-2.5-flash-image', 'dall-e-4', '', 'my-gpt-image-1', 'gpt-image-1-hd', 'gpt-image-1.5-2025-1']) {
      expect(imageFamilyOf(m), m).toBeUndefined();
      expect(imageLimitsOf(m)).toBeUndefined();
    }
  });

  it('has the documented limits', () => {
    expect(imageLimitsOf('dall-e-2')).toMatchObject({ promptMax: 1000, nMax: 10, maxImages: 1, square: true });
    expect(imageLimitsOf('dall-e-3')).toMatchObject({ promptMax: 4000, nMax: 1, ops: ['generate'] });
    expect(imageLimitsOf('gpt-image-1')).toMatchObject({ promptMax: 32000, maxImages: 16, imageMaxBytes: 25 * 1024 * 1024 });
  });

  it('turns sizes into aspect ratios', () => {
    expect(sizeToAspectRatio('1024x1024')).toBe('1:1');
    expect(sizeToAspectRatio('256x256')).toBe('1:1');
    expect(sizeToAspectRatio('512x512')).toBe('1:1');
    expect(sizeToAspectRatio('1792x1024')).toBe('16:9');
    expect(sizeToAspectRatio('1024x1792')).toBe('9:16');
    expect(sizeToAspectRatio('1536x1024')).toBe('3:2');
    expect(sizeToAspectRatio('1024x1536')).toBe('2:3');
    expect(sizeToAspectRatio('auto')).toBeUndefined();
    expect(sizeToAspectRatio('1000x100')).toBeUndefined();
    expect(sizeToAspectRatio('0x10')).toBeUndefined();
    expect(parseSize('12x34')).toEqual({ width: 12, height: 34 });
  });
});
