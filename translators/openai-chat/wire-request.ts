/**
 * Chat Completions request shapes as valibot schemas (loose: unknown fields pass through). The
 * decoder walks the body piece by piece with `parseAt` so every error names its exact param.
 * Spec: /work/shared/spec/chat-completions.md.
 */
import * as v from 'valibot';
import { isJsonObject } from '../../src/kit/index.ts';
import { decimalIn, integerIn, msg, nameSchema, oneOf } from './validate.ts';

/** A JSON object, never a list (valibot's record would copy `[1]` as `{"0": 1}`). */
const JsonObject = v.custom<Record<string, unknown>>(isJsonObject, "Invalid type for '{param}': expected an object, but got {got} instead.");

// ---- request -----------------------------------------------------------------------------

export const OPENAI_CHAT_ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'] as const;

const nullish = v.nullish;

export const OpenAIChatRequestSchema = v.looseObject({
  model: v.string(),
  messages: v.pipe(v.array(v.unknown()), v.minLength(1, msg.arrayMin(1))),
  temperature: nullish(decimalIn(0, 2)),
  top_p: nullish(decimalIn(0, 1)),
  presence_penalty: nullish(decimalIn(-2, 2)),
  frequency_penalty: nullish(decimalIn(-2, 2)),
  n: nullish(integerIn(1, 128)),
  logprobs: nullish(v.boolean()),
  top_logprobs: nullish(integerIn(0, 20)),
  stop: nullish(
    v.union(
      [v.string(), v.pipe(v.array(v.string()), v.maxLength(4, msg.arrayMax(4)))],
      `Invalid type for '{param}': expected one of a string or an array of strings, but got {got} instead.`,
    ),
  ),
  max_tokens: nullish(integerIn(1, Number.MAX_SAFE_INTEGER)),
  max_completion_tokens: nullish(integerIn(1, Number.MAX_SAFE_INTEGER)),
  seed: nullish(v.pipe(v.number(msg.integer), v.integer(msg.integer))),
  user: nullish(v.string()),
  stream: nullish(v.boolean()),
  stream_options: nullish(v.looseObject({ include_usage: v.optional(v.boolean()) })),
  parallel_tool_calls: nullish(v.boolean()),
  reasoning_effort: nullish(oneOf(['none', 'minimal', 'low', 'medium', 'high', 'xhigh'])),
  modalities: nullish(v.array(oneOf(['text', 'audio']))),
  metadata: nullish(
    v.pipe(
      v.record(
        v.pipe(v.string(), v.maxLength(64, msg.stringMax(64))),
        v.pipe(v.string(), v.maxLength(512, msg.stringMax(512))),
      ),
      v.maxEntries(
        16,
        `Invalid '{param}': too many properties. Expected an object with at most 16 properties, but got an object with {count} properties instead.`,
      ),
    ),
  ),
  logit_bias: nullish(v.record(v.string(), decimalIn(-100, 100))),
  tools: nullish(v.pipe(v.array(v.unknown()), v.maxLength(128, msg.arrayMax(128)))),
  functions: nullish(v.pipe(v.array(v.unknown()), v.maxLength(128, msg.arrayMax(128)))),
  tool_choice: v.optional(v.unknown()),
  function_call: v.optional(v.unknown()),
  response_format: v.optional(v.unknown()),
});
export type OpenAIChatRequest = v.InferOutput<typeof OpenAIChatRequestSchema>;

/** Top-level fields the decoder maps to canonical; every other field rides in `extras`. */
export const KNOWN_REQUEST_FIELDS = new Set([
  'model',
  'web_search_options',
  'messages',
  'temperature',
  'top_p',
  'presence_penalty',
  'frequency_penalty',
  'n',
  'logprobs',
  'top_logprobs',
  'stop',
  'max_tokens',
  'max_completion_tokens',
  'seed',
  'user',
  'stream',
  'stream_options',
  'parallel_tool_calls',
  'reasoning_effort',
  'modalities',
  'metadata',
  'tools',
  'functions',
  'tool_choice',
  'function_call',
  'response_format',
]);

export const OpenAIChatRoleSchema = v.looseObject({ role: oneOf(OPENAI_CHAT_ROLES) });

export const OpenAIChatTextPartSchema = v.looseObject({ type: v.literal('text'), text: v.string() });
export const OpenAIChatRefusalPartSchema = v.looseObject({
  type: v.literal('refusal'),
  refusal: v.string(),
});
export const OpenAIChatImagePartSchema = v.looseObject({
  type: v.literal('image_url'),
  image_url: v.looseObject({ url: v.string(), detail: v.optional(v.string()) }),
});
export const OpenAIChatAudioPartSchema = v.looseObject({
  type: v.literal('input_audio'),
  input_audio: v.looseObject({ data: v.string(), format: oneOf(['wav', 'mp3']) }),
});
export const OpenAIChatFilePartSchema = v.looseObject({
  type: v.literal('file'),
  file: v.looseObject({
    file_data: v.optional(v.string()),
    file_id: v.optional(v.string()),
    filename: v.optional(v.string()),
  }),
});

const partTypeMessage = (types: readonly string[]) => msg.oneOf(types);

export const OpenAIChatUserPartSchema = v.variant(
  'type',
  [OpenAIChatTextPartSchema, OpenAIChatImagePartSchema, OpenAIChatAudioPartSchema, OpenAIChatFilePartSchema],
  partTypeMessage(['text', 'image_url', 'input_audio', 'file']),
);
export type OpenAIChatUserPart = v.InferOutput<typeof OpenAIChatUserPartSchema>;

export const OpenAIChatAssistantPartSchema = v.variant(
  'type',
  [OpenAIChatTextPartSchema, OpenAIChatRefusalPartSchema],
  partTypeMessage(['text', 'refusal']),
);
export const OpenAIChatTextOnlyPartSchema = v.variant(
  'type',
  [OpenAIChatTextPartSchema],
  partTypeMessage(['text']),
);

export const OpenAIChatToolCallSchema = v.looseObject({
  id: v.string(),
  type: v.optional(v.literal('function')),
  function: v.looseObject({ name: v.string(), arguments: v.string() }),
  /** Gemini's OpenAI-compatible endpoint: `extra_content.google.thought_signature`. */
  extra_content: v.optional(v.unknown()),
});
export type OpenAIChatToolCall = v.InferOutput<typeof OpenAIChatToolCallSchema>;

export const OpenAIChatReasoningDetailSchema = v.looseObject({
  type: v.string(),
  text: v.nullish(v.string()),
  signature: v.nullish(v.string()),
  data: v.nullish(v.string()),
  summary: v.nullish(v.string()),
});
export type OpenAIChatReasoningDetail = v.InferOutput<typeof OpenAIChatReasoningDetailSchema>;

export const OpenAIChatAssistantMessageSchema = v.looseObject({
  role: v.literal('assistant'),
  content: v.nullish(v.union([v.string(), v.array(v.unknown())])),
  name: v.optional(v.string()),
  refusal: v.nullish(v.string()),
  tool_calls: v.nullish(v.array(v.unknown())),
  function_call: v.nullish(v.looseObject({ name: v.string(), arguments: v.string() })),
  audio: v.nullish(v.looseObject({ id: v.string() })),
  reasoning_content: v.nullish(v.string()),
  reasoning: v.nullish(v.string()),
  reasoning_details: v.nullish(v.array(v.unknown())),
});

export const OpenAIChatContentMessageSchema = v.looseObject({
  role: v.string(),
  content: v.union(
    [v.string(), v.array(v.unknown())],
    `Invalid type for '{param}': expected one of a string or an array of objects, but got {got} instead.`,
  ),
  name: v.optional(v.string()),
});

export const OpenAIChatToolMessageSchema = v.looseObject({
  role: v.literal('tool'),
  content: v.union(
    [v.string(), v.array(v.unknown())],
    `Invalid type for '{param}': expected one of a string or an array of objects, but got {got} instead.`,
  ),
  tool_call_id: v.string(),
});

export const OpenAIChatFunctionMessageSchema = v.looseObject({
  role: v.literal('function'),
  content: v.nullable(v.string()),
  name: v.string(),
});

export const OpenAIChatToolSchema = v.looseObject({
  type: v.literal('function', msg.oneOf(['function'])),
  function: v.looseObject({
    name: nameSchema,
    description: v.optional(v.string()),
    parameters: v.optional(JsonObject),
    strict: v.nullish(v.boolean()),
  }),
});

export const OpenAIChatFunctionSchema = v.looseObject({
  name: nameSchema,
  description: v.optional(v.string()),
  parameters: v.optional(JsonObject),
});

export const OpenAIChatToolChoiceSchema = v.union(
  [
    oneOf(['none', 'auto', 'required']),
    v.looseObject({
      type: v.literal('function'),
      function: v.looseObject({ name: v.string() }),
    }),
    v.looseObject({
      type: v.literal('allowed_tools'),
      allowed_tools: v.looseObject({
        mode: oneOf(['auto', 'required']),
        tools: v.array(v.looseObject({ type: v.string(), function: v.optional(v.looseObject({ name: v.string() })) })),
      }),
    }),
  ],
  `Invalid value for '{param}': expected 'none', 'auto', 'required' or an object naming a function.`,
);

export const OpenAIChatFunctionCallChoiceSchema = v.union(
  [oneOf(['none', 'auto']), v.looseObject({ name: v.string() })],
  `Invalid value for '{param}': expected 'none', 'auto' or an object with a name.`,
);

export const OpenAIChatResponseFormatSchema = v.variant(
  'type',
  [
    v.looseObject({ type: v.literal('text') }),
    v.looseObject({ type: v.literal('json_object') }),
    v.looseObject({
      type: v.literal('json_schema'),
      json_schema: v.looseObject({
        name: nameSchema,
        description: v.optional(v.string()),
        schema: v.optional(JsonObject),
        strict: v.nullish(v.boolean()),
      }),
    }),
  ],
  msg.oneOf(['text', 'json_object', 'json_schema']),
);

