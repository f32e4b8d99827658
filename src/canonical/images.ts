/**
 * Image generation: one request/response model for generate, edit and variation.
 */

import { sumOf } from './usage.ts';

export interface ImageInput {
  /** Raw bytes; never round-tripped through strings. */
  data: Uint8Array;
  mediaType: string;
  filename?: string;
}

export interface ImageRequest {
  op: 'generate' | 'edit' | 'variation';
  model: string;
  prompt?: string;
  images: ImageInput[];
  mask?: ImageInput;
  n?: number;
  /** `WxH` or `auto`. */
  size?: string;
  quality?: string;
  style?: string;
  responseFormat?: 'url' | 'b64_json';
  user?: string;
  /** gpt-image fields (background, output_format, output_compression, moderation…). */
  extras?: Record<string, unknown>;
}

export interface GeneratedImage {
  url?: string;
  b64?: string;
  mediaType?: string;
  revisedPrompt?: string;
}

export interface ImageUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  inputTextTokens?: number;
  inputImageTokens?: number;
}

export interface ImageResponse {
  /** Unix seconds. */
  created: number;
  images: GeneratedImage[];
  usage?: ImageUsage;
  /** gpt-image top-level fields (background, output_format, quality, size). */
  extras?: Record<string, unknown>;
}

/** Usage of several image calls as one (undefined when none reported any). */
export function sumImageUsage(list: ReadonlyArray<ImageUsage | undefined>): ImageUsage | undefined {
  const present = list.filter((u): u is ImageUsage => !!u);
  if (present.length === 0) return undefined;
  const out: ImageUsage = {
    inputTokens: sumOf(present, 'inputTokens') ?? 0,
    outputTokens: sumOf(present, 'outputTokens') ?? 0,
    totalTokens: sumOf(present, 'totalTokens') ?? 0,
  };
  for (const k of ['inputTextTokens', 'inputImageTokens'] as const) {
    const v = sumOf(present, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
