/**
 * Wire shapes of the OpenAI Responses API, as narrow loose valibot schemas: what this dialect
 * reads is validated, unknown fields pass. Source of truth: the `openai` SDK's
 * `resources/responses/responses.d.ts` and https://platform.openai.com/docs/api-reference/responses.
 */
import * as v from 'valibot';
import { isJsonObject } from '../../src/kit/index.ts';
import { type Extras } from '../../src/canonical/index.ts';

const str = v.string();
const nullishStr = v.nullish(str);

/** A JSON object, never a list (valibot's record would copy `[1]` as `{"0": 1}`). */
const JsonObject = v.custom<Record<string, unknown>>(isJsonObject, "Invalid type for '{param}': expected an object, but got {got} instead.");

// ---- request (caller side) -----------------------------------------------------------------

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export const REASONING_SUMMARIES = ['auto', 'concise', 'detailed'] as const;

export const ResponsesRequestSchema = v.looseObject({
  model: str,
  input: v.optional(v.union([str, v.array(v.unknown())])),
  instructions: nullishStr,
  previous_response_id: nullishStr,
  tools: v.nullish(v.array(v.unknown())),
  tool_choice: v.nullish(v.unknown()),
  parallel_tool_calls: v.nullish(v.boolean()),
  max_output_tokens: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(1))),
  temperature: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(2))),
  top_p: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  top_logprobs: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20))),
  reasoning: v.nullish(
    v.looseObject({
      effort: v.nullish(v.picklist(REASONING_EFFORTS)),
      summary: v.nullish(v.picklist(REASONING_SUMMARIES)),
      generate_summary: v.nullish(v.picklist(REASONING_SUMMARIES)),
    }),
  ),
  text: v.nullish(v.looseObject({ format: v.nullish(v.unknown()), verbosity: v.nullish(v.picklist(['low', 'medium', 'high'])) })),
  include: v.nullish(v.array(str)),
  stream: v.nullish(v.boolean()),
  stream_options: v.nullish(v.looseObject({})),
  metadata: v.nullish(v.record(str, str)),
  user: nullishStr,
  safety_identifier: nullishStr,
});
export type ResponsesRequest = v.InferOutput<typeof ResponsesRequestSchema>;

/** Request fields decoded into canonical ones; everything else rides in extras. */
export const DECODED_FIELDS = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'temperature',
  'top_p',
  'top_logprobs',
  'reasoning',
  'text',
  'include',
  'stream',
  'metadata',
  'user',
  'safety_identifier',
  'context_management',
]);

/** Fields that tune rather than change the answer: `Extras.hints` (dropped elsewhere, not lossy). */
export const HINT_FIELDS = new Set(['store', 'prompt_cache_key', 'prompt_cache_retention', 'prompt_cache_options', 'service_tier', 'stream_options', 'truncation']);

/** Input items: every item has a `type` (a message may omit it). */
export const InputItemHeadSchema = v.looseObject({ type: v.optional(str), role: v.optional(str) });
/** `{"type": "item_reference", "id"}`: an earlier item by its id. */
export const ItemReferenceSchema = v.looseObject({ id: str });
/** A `compaction` item the caller brings back (`encrypted_content`: OpenAI's, or our carrier). */
export const CompactionItemSchema = v.looseObject({ encrypted_content: str });

export const MessageItemSchema = v.looseObject({
  role: v.picklist(['user', 'assistant', 'system', 'developer']),
  content: v.union([str, v.array(v.unknown())]),
});

export const InputPartSchema = v.variant('type', [
  v.looseObject({ type: v.literal('input_text'), text: str }),
  v.looseObject({ type: v.literal('output_text'), text: str }),
  v.looseObject({ type: v.literal('refusal'), refusal: str }),
  v.looseObject({ type: v.literal('input_image'), image_url: nullishStr, file_id: nullishStr, detail: nullishStr }),
  v.looseObject({ type: v.literal('input_file'), file_data: nullishStr, file_id: nullishStr, file_url: nullishStr, filename: nullishStr }),
  v.looseObject({ type: v.literal('input_audio'), input_audio: v.looseObject({ data: str, format: v.picklist(['wav', 'mp3']) }) }),
]);
export type ResponsesInputPart = v.InferOutput<typeof InputPartSchema>;

export const FunctionCallItemSchema = v.looseObject({ call_id: str, name: str, arguments: str });
export const CustomToolCallItemSchema = v.looseObject({ call_id: str, name: str, input: str });
export const ToolOutputItemSchema = v.looseObject({ call_id: str, output: v.union([str, v.array(v.unknown())]) });
export const ReasoningItemSchema = v.looseObject({
  summary: v.array(v.looseObject({ text: str })),
  encrypted_content: nullishStr,
  content: v.nullish(v.array(v.looseObject({ text: str }))),
});

export const FunctionToolSchema = v.looseObject({
  type: v.literal('function'),
  name: str,
  description: nullishStr,
  parameters: v.nullish(JsonObject),
  strict: v.nullish(v.boolean()),
});
/** Function-tool fields decoded into `Tool`; the rest become the tool's extras. */
export const FUNCTION_TOOL_FIELDS = new Set(['type', 'name', 'description', 'parameters', 'strict']);

export const CustomFormatSchema = v.variant('type', [
  v.looseObject({ type: v.literal('text') }),
  v.looseObject({ type: v.literal('grammar'), syntax: v.picklist(['lark', 'regex']), definition: str }),
]);
export const CustomToolSchema = v.looseObject({
  type: v.literal('custom'),
  name: str,
  description: nullishStr,
  format: v.nullish(CustomFormatSchema),
});
export const CUSTOM_TOOL_FIELDS = new Set(['type', 'name', 'description', 'format']);

export const HostedToolSchema = v.looseObject({ type: str });

export const ToolChoiceSchema = v.union([
  v.picklist(['none', 'auto', 'required']),
  v.looseObject({ type: v.picklist(['function', 'custom']), name: str }),
  v.looseObject({
    type: v.literal('allowed_tools'),
    mode: v.picklist(['auto', 'required']),
    tools: v.array(v.looseObject({ type: str, name: v.optional(str) })),
  }),
  v.looseObject({ type: str }),
]);

export const TextFormatSchema = v.variant('type', [
  v.looseObject({ type: v.literal('text') }),
  v.looseObject({ type: v.literal('json_object') }),
  v.looseObject({
    type: v.literal('json_schema'),
    name: str,
    schema: JsonObject,
    description: nullishStr,
    strict: v.nullish(v.boolean()),
  }),
]);

/**
 * This dialect's extras, plus what only the caller side reads back (never sent upstream, like
 * `OpenAIChatExtras.legacyFunctions`): whether the caller asked for encrypted reasoning content.
 */
export interface OpenAIResponsesExtras extends Extras {
  dialect: 'openai-responses';
  /** `include` held `reasoning.encrypted_content`. */
  encryptedReasoning?: true;
}

// ---- response body and stream events (upstream side) ---------------------------------------

const UsageSchema = v.looseObject({
  input_tokens: v.nullish(v.number()),
  output_tokens: v.nullish(v.number()),
  total_tokens: v.nullish(v.number()),
  input_tokens_details: v.nullish(v.looseObject({ cached_tokens: v.nullish(v.number()), cache_write_tokens: v.nullish(v.number()) })),
  output_tokens_details: v.nullish(v.looseObject({ reasoning_tokens: v.nullish(v.number()) })),
});
export type ResponsesUsage = v.InferOutput<typeof UsageSchema>;

export const ResponseErrorSchema = v.looseObject({ code: v.nullish(v.union([str, v.number()])), message: nullishStr, type: nullishStr, param: nullishStr });

export const ResponseBodySchema = v.looseObject({
  object: v.literal('response'),
  id: nullishStr,
  created_at: v.nullish(v.number()),
  model: nullishStr,
  status: nullishStr,
  output: v.array(v.unknown()),
  incomplete_details: v.nullish(v.looseObject({ reason: nullishStr })),
  error: v.nullish(ResponseErrorSchema),
  usage: v.nullish(UsageSchema),
});
export type ResponsesResponseBody = v.InferOutput<typeof ResponseBodySchema>;

/** An output item as this dialect reads it (hosted tool items pass as other types). */
export const OutputItemSchema = v.looseObject({
  type: str,
  id: nullishStr,
  status: nullishStr,
  role: nullishStr,
  content: v.nullish(v.array(v.looseObject({ type: str, text: nullishStr, refusal: nullishStr, annotations: v.nullish(v.array(v.unknown())), logprobs: v.nullish(v.array(v.unknown())) }))),
  call_id: nullishStr,
  name: nullishStr,
  arguments: nullishStr,
  input: nullishStr,
  summary: v.nullish(v.array(v.looseObject({ text: nullishStr }))),
  encrypted_content: nullishStr,
});
export type ResponsesOutputItem = v.InferOutput<typeof OutputItemSchema>;

/** A stream event: every one has a `type`; the fields below are read where present. */
export const StreamEventSchema = v.looseObject({
  type: str,
  response: v.nullish(v.looseObject({ id: nullishStr, model: nullishStr, created_at: v.nullish(v.number()), status: nullishStr, incomplete_details: v.nullish(v.looseObject({ reason: nullishStr })), error: v.nullish(ResponseErrorSchema), usage: v.nullish(UsageSchema) })),
  item: v.nullish(OutputItemSchema),
  output_index: v.nullish(v.number()),
  content_index: v.nullish(v.number()),
  summary_index: v.nullish(v.number()),
  part: v.nullish(v.looseObject({ type: str })),
  delta: v.nullish(str),
  text: nullishStr,
  arguments: nullishStr,
  input: nullishStr,
  refusal: nullishStr,
  logprobs: v.nullish(v.array(v.unknown())),
  code: v.nullish(v.union([str, v.number()])),
  message: nullishStr,
  param: nullishStr,
  error: v.nullish(v.union([ResponseErrorSchema, str])),
});
export type ResponsesStreamEvent = v.InferOutput<typeof StreamEventSchema>;
