/**
 * Image sizes (`WxH`) ⇄ aspect ratios (`16:9`), for dialects that name one or the other.
 */

export function parseSize(size: string): { width: number; height: number } | undefined {
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  if (!m) return undefined;
  const width = Number(m[1]);
  const height = Number(m[2]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

/**
 * The ratios image APIs take (Gemini `imageConfig.aspectRatio`: 1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4,
 * 9:16, 16:9, 21:9), with a nominal pixel size of about one megapixel for each.
 */
export const ASPECT_RATIOS: ReadonlyArray<{ ratio: string; value: number; size: string }> = [
  { ratio: '1:1', value: 1, size: '1024x1024' },
  { ratio: '16:9', value: 16 / 9, size: '1792x1024' },
  { ratio: '9:16', value: 9 / 16, size: '1024x1792' },
  { ratio: '3:2', value: 3 / 2, size: '1536x1024' },
  { ratio: '2:3', value: 2 / 3, size: '1024x1536' },
  { ratio: '4:3', value: 4 / 3, size: '1184x888' },
  { ratio: '3:4', value: 3 / 4, size: '888x1184' },
  { ratio: '21:9', value: 21 / 9, size: '1568x672' },
  { ratio: '5:4', value: 5 / 4, size: '1120x896' },
  { ratio: '4:5', value: 4 / 5, size: '896x1120' },
];

/**
 * Aspect ratio of a size (`1792x1024` → `16:9`: 1.75 is within 0.04 of 1.78, which is what
 * dall-e-3 means by it). Sizes that are no common ratio give `undefined`, as do `auto` and
 * malformed strings.
 */
export function sizeToAspectRatio(size: string): string | undefined {
  const dims = parseSize(size);
  if (!dims) return undefined;
  const ratio = dims.width / dims.height;
  for (const r of ASPECT_RATIOS) if (Math.abs(ratio - r.value) < 0.04) return r.ratio;
  return undefined;
}

/** The listed ratio closest to a size's (by log distance), for sizes that are no common ratio. */
export function nearestAspectRatio(size: string): string | undefined {
  const dims = parseSize(size);
  if (!dims) return undefined;
  const ratio = dims.width / dims.height;
  let best = ASPECT_RATIOS[0]!;
  for (const r of ASPECT_RATIOS) {
    if (Math.abs(Math.log(r.value / ratio)) < Math.abs(Math.log(best.value / ratio))) best = r;
  }
  return best.ratio;
}

/** A nominal `WxH` for a ratio (`16:9` → `1792x1024`); image encoders fit it to their model. */
export function aspectRatioToSize(ratio: string): string | undefined {
  const known = ASPECT_RATIOS.find((r) => r.ratio === ratio);
  if (known) return known.size;
  const m = /^(\d{1,3}):(\d{1,3})$/.exec(ratio.trim());
  if (!m || Number(m[1]) === 0 || Number(m[2]) === 0) return undefined;
  const value = Number(m[1]) / Number(m[2]);
  const height = Math.round(Math.sqrt((1024 * 1024) / value));
  return `${Math.round(height * value)}x${height}`;
}
