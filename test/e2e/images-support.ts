/**
 * Shared pieces of the images end-to-end suites: the config routing image models, and reading the
 * multipart bodies the mock upstream received.
 */
import { e2eConfig } from '../support/proxy.ts';
import type { ReceivedRequest } from '../support/mock-upstream.ts';

/** e2eConfig plus image routes and a small multipart limit (for the 413 test). */
export function imagesConfig(mockUrl: string, extra: Record<string, unknown> = {}) {
  const base = e2eConfig(mockUrl);
  return {
    ...base,
    models: {
      ...base.models,
      'dall-e-*': { upstream: 'openai' },
      'image-model-*': { upstream: 'openai' },
      'gemini-*-image': { upstream: 'gemini' },
      'nano-banana': { upstream: 'gemini', model: 'gemini-2.5-flash-image' },
      'claude-draw': { upstream: 'anthropic', model: 'claude-sonnet-4-5' },
      'gemini-draw-dalle': { upstream: 'openai', model: 'dall-e-3' },
    },
    limits: { maxMultipartBytes: 300_000 },
    ...extra,
  };
}

/**
 * The multipart form the mock received. The mock keeps bodies as UTF-8 text, so file contents
 * are compared as the same lossy text (`asMockText`), never as raw bytes.
 */
export async function receivedForm(req: ReceivedRequest): Promise<FormData> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) throw new Error(`not multipart: ${type}`);
  return new Response(req.body, { headers: { 'content-type': type } }).formData();
}

export function asMockText(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('utf8');
}

/** A tiny real PNG (1×1), as the Gemini image fixture carries. */
export const ONE_PIXEL_PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
