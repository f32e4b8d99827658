/**
 * Gemini generateContent wire shapes (https://ai.google.dev/api/generate-content).
 * Request schemas validate what we read, after `normalizeRequest` has camelised the keys;
 * unknown fields pass through (`looseObject`).
 */
import * as v from 'valibot';
import { isJsonObject } from '../../src/kit/index.ts';

const Int = v.pipe(v.number(), v.integer());

/** A JSON object, never a list (valibot's record would copy `[1]` as `{"0": 1}`). */
const JsonObject = v.custom<Record<string, unknown>>(isJsonObject, 'must be an object ({ … })');

export const GeminiBlobSchema = v.looseObject({ mimeType: v.string(), data: v.string() });
export const GeminiFileDataSchema = v.looseObject({
  fileUri: v.string(),
  mimeType: v.optional(v.string()),
});

export const GeminiFunctionCallSchema = v.looseObject({
  name: v.optional(v.string()),
  id: v.optional(v.string()),
  args: v.optional(v.nullable(JsonObject)),
  partialArgs: v.optional(v.array(v.looseObject({ jsonPath: v.optional(v.string()) }))),
  willContinue: v.optional(v.boolean()),
});

export const GeminiFunctionResponseSchema = v.looseObject({
  name: v.optional(v.string()),
  id: v.optional(v.string()),
  response: v.optional(v.nullable(JsonObject)),
  parts: v.optional(
    v.array(
      v.looseObject({
        inlineData: v.optional(GeminiBlobSchema),
        fileData: v.optional(GeminiFileDataSchema),
      }),
    ),
  ),
});

export const GeminiPartSchema = v.looseObject({
  text: v.optional(v.string()),
  thought: v.optional(v.boolean()),
  thoughtSignature: v.optional(v.string()),
  inlineData: v.optional(GeminiBlobSchema),
  fileData: v.optional(GeminiFileDataSchema),
  functionCall: v.optional(GeminiFunctionCallSchema),
  functionResponse: v.optional(GeminiFunctionResponseSchema),
  executableCode: v.optional(
    v.looseObject({ language: v.optional(v.string()), code: v.optional(v.string()) }),
  ),
  codeExecutionResult: v.optional(
    v.looseObject({ outcome: v.optional(v.string()), output: v.optional(v.string()) }),
  ),
});
export type GeminiPart = v.InferOutput<typeof GeminiPartSchema>;

export const GeminiContentSchema = v.looseObject({
  role: v.optional(v.string()),
  parts: v.optional(v.array(GeminiPartSchema)),
});
export type GeminiContent = v.InferOutput<typeof GeminiContentSchema>;

export const GeminiFunctionDeclarationSchema = v.looseObject({
  name: v.pipe(v.string(), v.minLength(1, 'function name must not be empty')),
  description: v.optional(v.string()),
  parameters: v.optional(JsonObject),
  parametersJsonSchema: v.optional(JsonObject),
});

export const GeminiToolSchema = v.looseObject({
  functionDeclarations: v.optional(v.array(GeminiFunctionDeclarationSchema)),
});

export const GeminiToolConfigSchema = v.looseObject({
  functionCallingConfig: v.optional(
    v.looseObject({
      mode: v.optional(v.picklist(['MODE_UNSPECIFIED', 'AUTO', 'ANY', 'NONE', 'VALIDATED'])),
      allowedFunctionNames: v.optional(v.array(v.string())),
    }),
  ),
});

export const GeminiThinkingConfigSchema = v.looseObject({
  includeThoughts: v.optional(v.boolean()),
  thinkingBudget: v.optional(Int),
  thinkingLevel: v.optional(
    v.picklist(['THINKING_LEVEL_UNSPECIFIED', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH', 'minimal', 'low', 'medium', 'high']),
  ),
});

export const GeminiGenerationConfigSchema = v.looseObject({
  stopSequences: v.optional(
    v.pipe(v.array(v.string()), v.maxLength(5, 'at most 5 stop sequences are allowed')),
  ),
  responseMimeType: v.optional(v.string()),
  responseSchema: v.optional(JsonObject),
  responseJsonSchema: v.optional(JsonObject),
  responseModalities: v.optional(v.array(v.string())),
  candidateCount: v.optional(v.pipe(Int, v.minValue(1))),
  maxOutputTokens: v.optional(v.pipe(Int, v.minValue(1))),
  temperature: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(2))),
  topP: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  topK: v.optional(v.pipe(v.number(), v.minValue(0))),
  seed: v.optional(Int),
  presencePenalty: v.optional(v.number()),
  frequencyPenalty: v.optional(v.number()),
  responseLogprobs: v.optional(v.boolean()),
  logprobs: v.optional(v.pipe(Int, v.minValue(0))),
  thinkingConfig: v.optional(GeminiThinkingConfigSchema),
});

export const GeminiGenerateContentRequestSchema = v.looseObject({
  contents: v.pipe(
    v.array(GeminiContentSchema, 'contents must be a list of Content'),
    v.minLength(1, 'contents is not specified'),
  ),
  systemInstruction: v.optional(v.union([GeminiContentSchema, v.string()])),
  tools: v.optional(v.array(GeminiToolSchema)),
  toolConfig: v.optional(GeminiToolConfigSchema),
  safetySettings: v.optional(v.array(v.looseObject({}))),
  generationConfig: v.optional(GeminiGenerationConfigSchema),
  cachedContent: v.optional(v.string()),
});
export type GeminiGenerateContentRequest = v.InferOutput<typeof GeminiGenerateContentRequestSchema>;

/** Response side (upstream → proxy): read loosely, every field optional. */
export const GeminiUsageMetadataSchema = v.looseObject({
  promptTokenCount: v.optional(v.number()),
  candidatesTokenCount: v.optional(v.number()),
  totalTokenCount: v.optional(v.number()),
  thoughtsTokenCount: v.optional(v.number()),
  cachedContentTokenCount: v.optional(v.number()),
  toolUsePromptTokenCount: v.optional(v.number()),
});
export type GeminiUsageMetadata = v.InferOutput<typeof GeminiUsageMetadataSchema>;

export const GeminiCandidateSchema = v.looseObject({
  content: v.optional(v.looseObject({ role: v.optional(v.string()), parts: v.optional(v.array(GeminiPartSchema)) })),
  finishReason: v.optional(v.string()),
  finishMessage: v.optional(v.string()),
  index: v.optional(v.number()),
  safetyRatings: v.optional(v.array(v.unknown())),
});
export type GeminiCandidate = v.InferOutput<typeof GeminiCandidateSchema>;

export const GeminiGenerateContentResponseSchema = v.looseObject({
  candidates: v.optional(v.array(GeminiCandidateSchema)),
  promptFeedback: v.optional(v.looseObject({ blockReason: v.optional(v.string()) })),
  usageMetadata: v.optional(GeminiUsageMetadataSchema),
  modelVersion: v.optional(v.string()),
  responseId: v.optional(v.string()),
});
export type GeminiGenerateContentResponse = v.InferOutput<typeof GeminiGenerateContentResponseSchema>;


/** Output-side part as we write it (caller responses, upstream requests). */
export interface GeminiOutPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { fileUri: string; mimeType: string };
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
}

export interface GeminiOutContent {
  role?: 'user' | 'model';
  parts: GeminiOutPart[];
}

export type GeminiSchemaObject = Record<string, unknown>;

/** Turn a valibot failure into a Gemini-style INVALID_ARGUMENT message naming the field. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const key = (item as { key: unknown }).key;
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}
