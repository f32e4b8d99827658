/**
 * The registry: the only file that imports every dialect. Caller dialects by id; upstream
 * dialects by the config's `dialect` value (an `openai` upstream serves chat and images).
 */
import type { DialectId } from '../src/canonical/index.ts';
import { anthropic } from './anthropic/index.ts';
import { gemini, geminiImages } from './gemini/index.ts';
import { openaiChat } from './openai-chat/index.ts';
import { openaiImages, readImageForm } from './openai-images/index.ts';
import { openaiResponses } from './openai-responses/index.ts';
import { geminiInteractions } from './gemini-interactions/index.ts';
import type { ChatCaller, ChatUpstream, ImageCaller, ImageUpstream } from './types.ts';

export type UpstreamDialect = 'openai' | 'anthropic' | 'gemini' | 'openai-responses' | 'gemini-interactions';

export interface Registry {
  chatCallers: Record<Exclude<DialectId, 'openai-images'>, ChatCaller>;
  chatUpstreams: Record<UpstreamDialect, ChatUpstream>;
  imageCaller: ImageCaller;
  imageUpstreams: Partial<Record<UpstreamDialect, ImageUpstream>>;
  /** Read a multipart images form into plain fields and byte arrays. */
  readImageForm(form: FormData): Promise<unknown>;
}

export const registry: Registry = {
  chatCallers: { 'openai-chat': openaiChat, anthropic, gemini, 'openai-responses': openaiResponses, 'gemini-interactions': geminiInteractions },
  chatUpstreams: { openai: openaiChat, anthropic, gemini, 'openai-responses': openaiResponses, 'gemini-interactions': geminiInteractions },
  imageCaller: openaiImages,
  imageUpstreams: { openai: openaiImages, ...(geminiImages ? { gemini: geminiImages } : {}) },
  readImageForm,
};

/** Every chat dialect, for suites that run against all of them. */
export const chatDialects = [openaiChat, anthropic, gemini, openaiResponses, geminiInteractions] as const;
