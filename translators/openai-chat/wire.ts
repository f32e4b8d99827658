/**
 * Chat Completions response, chunk and error shapes. Loose valibot schemas, because an upstream
 * may be any OpenAI-compatible service (DeepSeek, OpenRouter, Azure…) that adds fields.
 * Request shapes are in wire-request.ts. Spec: /work/shared/spec/chat-completions.md.
 */
import * as v from 'valibot';

// ---- response ----------------------------------------------------------------------------

const LooseRecord = v.record(v.string(), v.unknown());

/** `content`: a string on OpenAI; some compatible servers (Mistral) send an array of parts. */
const WireContentSchema = v.nullish(v.union([v.string(), v.array(v.unknown())]));

export const OpenAIChatUsageSchema = v.looseObject({
  prompt_tokens: v.nullish(v.number()),
  completion_tokens: v.nullish(v.number()),
  total_tokens: v.nullish(v.number()),
  prompt_tokens_details: v.nullish(
    v.looseObject({
      cached_tokens: v.nullish(v.number()),
      audio_tokens: v.nullish(v.number()),
      /** OpenRouter: input written to the provider's prompt cache. */
      cache_write_tokens: v.nullish(v.number()),
    }),
  ),
  completion_tokens_details: v.nullish(
    v.looseObject({
      reasoning_tokens: v.nullish(v.number()),
      audio_tokens: v.nullish(v.number()),
      accepted_prediction_tokens: v.nullish(v.number()),
      rejected_prediction_tokens: v.nullish(v.number()),
    }),
  ),
  /** DeepSeek's cache counters. */
  prompt_cache_hit_tokens: v.nullish(v.number()),
  /** OpenRouter: what the call cost, in credits (https://openrouter.ai/docs/use-cases/usage-accounting). */
  cost: v.nullish(v.number()),
});

/** Groq puts a stream's usage in `x_groq.usage` of its last chunk (github.com/vercel/ai/issues/1651). */
const GroqExtraSchema = v.nullish(v.looseObject({ usage: v.nullish(OpenAIChatUsageSchema) }));
export type OpenAIChatUsage = v.InferOutput<typeof OpenAIChatUsageSchema>;

const WireToolCallSchema = v.looseObject({
  index: v.nullish(v.number()),
  id: v.nullish(v.string()),
  type: v.nullish(v.string()),
  function: v.nullish(
    v.looseObject({ name: v.nullish(v.string()), arguments: v.nullish(v.string()) }),
  ),
  extra_content: v.optional(v.unknown()),
});
export type OpenAIChatWireToolCall = v.InferOutput<typeof WireToolCallSchema>;

export const OpenAIChatResponseMessageSchema = v.looseObject({
  role: v.nullish(v.string()),
  content: WireContentSchema,
  refusal: v.nullish(v.string()),
  annotations: v.nullish(v.array(v.unknown())),
  audio: v.nullish(LooseRecord),
  function_call: v.nullish(
    v.looseObject({ name: v.nullish(v.string()), arguments: v.nullish(v.string()) }),
  ),
  tool_calls: v.nullish(v.array(WireToolCallSchema)),
  reasoning_content: v.nullish(v.string()),
  reasoning: v.nullish(v.string()),
  reasoning_details: v.nullish(v.array(v.unknown())),
});
export type OpenAIChatResponseMessage = v.InferOutput<typeof OpenAIChatResponseMessageSchema>;

export const OpenAIChatCompletionSchema = v.looseObject({
  id: v.nullish(v.string()),
  object: v.nullish(v.string()),
  created: v.nullish(v.number()),
  model: v.nullish(v.string()),
  choices: v.array(
    v.looseObject({
      index: v.nullish(v.number()),
      message: v.nullish(OpenAIChatResponseMessageSchema),
      logprobs: v.optional(v.unknown()),
      finish_reason: v.nullish(v.string()),
    }),
  ),
  usage: v.nullish(OpenAIChatUsageSchema),
  x_groq: GroqExtraSchema,
  system_fingerprint: v.nullish(v.string()),
  service_tier: v.nullish(v.string()),
});
export type OpenAIChatCompletion = v.InferOutput<typeof OpenAIChatCompletionSchema>;

export const OpenAIChatChunkSchema = v.looseObject({
  id: v.nullish(v.string()),
  object: v.nullish(v.string()),
  created: v.nullish(v.number()),
  model: v.nullish(v.string()),
  choices: v.nullish(
    v.array(
      v.looseObject({
        index: v.nullish(v.number()),
        delta: v.nullish(
          v.looseObject({
            role: v.nullish(v.string()),
            content: WireContentSchema,
            refusal: v.nullish(v.string()),
            tool_calls: v.nullish(v.array(WireToolCallSchema)),
            function_call: v.nullish(
              v.looseObject({ name: v.nullish(v.string()), arguments: v.nullish(v.string()) }),
            ),
            reasoning_content: v.nullish(v.string()),
            reasoning: v.nullish(v.string()),
            reasoning_details: v.nullish(v.array(v.unknown())),
            annotations: v.nullish(v.array(v.unknown())),
          }),
        ),
        logprobs: v.optional(v.unknown()),
        finish_reason: v.nullish(v.string()),
      }),
    ),
  ),
  usage: v.nullish(OpenAIChatUsageSchema),
  x_groq: GroqExtraSchema,
  error: v.optional(v.unknown()),
});
export type OpenAIChatChunk = v.InferOutput<typeof OpenAIChatChunkSchema>;

// ---- outgoing shapes (what this dialect writes) -----------------------------------------

export interface OpenAIChatWireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
  /** OpenRouter's field, where OpenAI SDK users of OpenRouter read it. */
  cost?: number;
}

export interface OpenAIChatOutToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAIChatOutReasoningDetail {
  type: 'reasoning.text' | 'reasoning.encrypted';
  text?: string;
  signature?: string;
  data?: string;
  index?: number;
}

export interface OpenAIChatOutTokenLogprob {
  token: string;
  logprob: number;
  bytes: number[] | null;
  top_logprobs?: OpenAIChatOutTokenLogprob[];
}

export interface OpenAIChatOutLogprobs {
  content: OpenAIChatOutTokenLogprob[] | null;
  refusal: OpenAIChatOutTokenLogprob[] | null;
}
