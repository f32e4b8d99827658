/**
 * Anthropic Messages wire shapes. Request-side schemas are loose valibot schemas (unknown fields
 * pass through; messages mimic the real API's `field: reason` wording); response and stream
 * shapes are plain types for what we write, plus loose schemas for what we read from upstream.
 * Reference: https://docs.claude.com/en/api/messages and `@anthropic-ai/sdk` resources/messages.
 */
import * as v from 'valibot';
import { isJsonObject } from '../../src/kit/index.ts';

const str = () => v.string('Input should be a valid string');
const num = () => v.number('Input should be a valid number');
const bool = () => v.boolean('Input should be a valid boolean');
const int = () => v.pipe(num(), v.integer('Input should be a valid integer'));
const obj = <T extends v.ObjectEntries>(entries: T) =>
  v.looseObject(entries, 'Input should be a valid dictionary');
const list = <T extends v.GenericSchema>(item: T) => v.array(item, 'Input should be a valid list');
/** A JSON object, never a list (valibot's object would copy `[1]` as `{}`). */
const dict = v.custom<Record<string, unknown>>(isJsonObject, 'Input should be a valid dictionary');

export const AnthropicCacheControlSchema = v.nullish(obj({ type: str(), ttl: v.optional(v.unknown()) }));

export const AnthropicMetadataSchema = obj({
  user_id: v.nullish(v.pipe(str(), v.maxLength(256, 'String should have at most 256 characters'))),
});

/** The top-level request, checked before the content blocks are decoded one by one. */
export const AnthropicMessagesRequestSchema = obj({
  model: v.pipe(
    str(),
    v.minLength(1, 'String should have at least 1 character'),
    v.maxLength(256, 'String should have at most 256 characters'),
  ),
  max_tokens: v.optional(
    v.pipe(int(), v.minValue(1, 'Input should be greater than or equal to 1')),
  ),
  messages: list(
    obj({
      role: v.picklist(
        ['user', 'assistant', 'system'],
        "Input should be 'user', 'assistant' or 'system'",
      ),
      content: v.union([str(), list(v.unknown())], 'Input should be a valid string or list'),
    }),
  ),
  system: v.nullish(v.union([str(), list(v.unknown())], 'Input should be a valid string or list')),
  metadata: v.nullish(AnthropicMetadataSchema),
  stop_sequences: v.nullish(list(str())),
  stream: v.nullish(bool()),
  temperature: v.nullish(
    v.pipe(
      num(),
      v.minValue(0, 'Input should be greater than or equal to 0'),
      v.maxValue(1, 'Input should be less than or equal to 1'),
    ),
  ),
  top_k: v.nullish(v.pipe(int(), v.minValue(1, 'Input should be greater than 0'))),
  top_p: v.nullish(
    v.pipe(
      num(),
      v.minValue(0, 'Input should be greater than or equal to 0'),
      v.maxValue(1, 'Input should be less than or equal to 1'),
    ),
  ),
  thinking: v.nullish(obj({ type: str() })),
  tool_choice: v.nullish(obj({ type: str() })),
  tools: v.nullish(list(obj({}))),
  output_config: v.nullish(obj({})),
});
export type AnthropicMessagesRequest = v.InferOutput<typeof AnthropicMessagesRequestSchema>;

export const AnthropicThinkingSchema = v.variant('type', [
  obj({
    type: v.literal('enabled'),
    budget_tokens: v.pipe(int(), v.minValue(1024, 'Input should be greater than or equal to 1024')),
    display: v.nullish(str()),
  }),
  obj({ type: v.literal('disabled') }),
  obj({ type: v.literal('adaptive'), display: v.nullish(str()) }),
], "Input tag found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'");

export const AnthropicToolChoiceSchema = v.variant('type', [
  obj({ type: v.literal('auto'), disable_parallel_tool_use: v.nullish(bool()) }),
  obj({ type: v.literal('any'), disable_parallel_tool_use: v.nullish(bool()) }),
  obj({
    type: v.literal('tool'),
    name: v.pipe(str(), v.minLength(1, 'String should have at least 1 character')),
    disable_parallel_tool_use: v.nullish(bool()),
  }),
  obj({ type: v.literal('none') }),
], "Input tag found using 'type' does not match any of the expected tags: 'auto', 'any', 'tool', 'none'");

export const AnthropicCustomToolSchema = obj({
  type: v.nullish(v.literal('custom')),
  name: v.pipe(
    str(),
    v.minLength(1, 'String should have at least 1 character'),
    v.maxLength(64, 'String should have at most 64 characters'),
  ),
  description: v.nullish(str()),
  input_schema: dict,
  cache_control: AnthropicCacheControlSchema,
  strict: v.nullish(bool()),
});

export const AnthropicOutputConfigSchema = obj({
  effort: v.nullish(str()),
  format: v.nullish(obj({ type: v.literal('json_schema'), schema: obj({}) })),
});

const cache = { cache_control: AnthropicCacheControlSchema };

export const AnthropicImageSourceSchema = v.variant('type', [
  obj({ type: v.literal('base64'), media_type: str(), data: str() }),
  obj({ type: v.literal('url'), url: str() }),
  obj({ type: v.literal('file'), file_id: str() }),
], "Input tag found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'");

export const AnthropicDocumentSourceSchema = v.variant('type', [
  obj({ type: v.literal('base64'), media_type: str(), data: str() }),
  obj({ type: v.literal('text'), media_type: v.nullish(str()), data: str() }),
  obj({ type: v.literal('url'), url: str() }),
  obj({ type: v.literal('file'), file_id: str() }),
  obj({ type: v.literal('content'), content: v.union([str(), list(v.unknown())]) }),
], "Input tag found using 'type' does not match any of the expected tags: 'base64', 'text', 'url', 'file', 'content'");

/** Request content blocks we decode into canonical parts. Others are recognised by `type` only. */
export const AnthropicBlockSchemas = {
  text: obj({ type: v.literal('text'), text: str(), citations: v.nullish(list(v.unknown())), ...cache }),
  image: obj({ type: v.literal('image'), source: AnthropicImageSourceSchema, ...cache }),
  document: obj({
    type: v.literal('document'),
    source: AnthropicDocumentSourceSchema,
    title: v.nullish(str()),
    ...cache,
  }),
  tool_use: obj({
    type: v.literal('tool_use'),
    id: str(),
    name: str(),
    // (Given as JSON text by some clients: taken as the arguments as they are.)
    input: v.custom<Record<string, unknown> | string>((x) => typeof x === 'string' || isJsonObject(x), 'Input should be a valid dictionary'),
    ...cache,
  }),
  tool_result: obj({
    type: v.literal('tool_result'),
    tool_use_id: str(),
    content: v.nullish(v.union([str(), list(v.unknown())], 'Input should be a valid string or list')),
    is_error: v.nullish(bool()),
    ...cache,
  }),
  thinking: obj({ type: v.literal('thinking'), thinking: str(), signature: v.nullish(str()) }),
  redacted_thinking: obj({ type: v.literal('redacted_thinking'), data: str() }),
} as const;

export const AnthropicBlockTypeSchema = obj({ type: str() });

// ---- responses (what we write as a caller dialect, and read from an upstream) ----

export interface AnthropicUsage {
  input_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number } | null;
  output_tokens: number;
  output_tokens_details: { thinking_tokens: number } | null;
  server_tool_use: { web_search_requests: number; web_fetch_requests: number } | null;
  service_tier: 'standard' | 'priority' | 'batch' | null;
  inference_geo: string | null;
  speed: 'standard' | 'fast' | null;
}

/** `MessageDeltaUsage` (the `usage` of `message_delta`). */
export interface AnthropicDeltaUsage {
  input_tokens: number | null;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
  output_tokens: number;
  output_tokens_details: { thinking_tokens: number } | null;
  server_tool_use: { web_search_requests: number; web_fetch_requests: number } | null;
}

/** Tool calls this proxy writes were made by the model itself: `caller` is always `direct`. */
export const DIRECT_CALLER = { type: 'direct' } as const;

export type AnthropicResponseBlock =
  | { type: 'text'; text: string; citations: unknown[] | null }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; caller: typeof DIRECT_CALLER }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | Record<string, unknown>;

export interface AnthropicMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnthropicResponseBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  stop_details: unknown;
  container: null;
  diagnostics: null;
  usage: AnthropicUsage;
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string | null;
}

export const AnthropicUsageSchema = v.looseObject({
  input_tokens: v.nullish(v.number()),
  output_tokens: v.nullish(v.number()),
  cache_creation_input_tokens: v.nullish(v.number()),
  cache_read_input_tokens: v.nullish(v.number()),
  /** The cache writes by TTL (https://docs.claude.com/en/docs/build-with-claude/prompt-caching#1-hour-cache-duration). */
  cache_creation: v.nullish(v.looseObject({ ephemeral_5m_input_tokens: v.nullish(v.number()), ephemeral_1h_input_tokens: v.nullish(v.number()) })),
  output_tokens_details: v.nullish(v.looseObject({ thinking_tokens: v.nullish(v.number()) })),
});
export type AnthropicUsageIn = v.InferOutput<typeof AnthropicUsageSchema>;

export const AnthropicMessageSchema = v.looseObject({
  id: v.nullish(v.string()),
  model: v.nullish(v.string()),
  content: v.nullish(v.array(v.looseObject({ type: v.string() }))),
  stop_reason: v.nullish(v.string()),
  stop_sequence: v.nullish(v.string()),
  usage: v.nullish(AnthropicUsageSchema),
});
export type AnthropicMessageIn = v.InferOutput<typeof AnthropicMessageSchema>;

/** A whole response body: a `message` with its content list (what `decodeResponse` needs). */
export const AnthropicMessageResponseSchema = v.looseObject({
  ...AnthropicMessageSchema.entries,
  type: v.literal('message'),
  content: v.array(v.looseObject({ type: v.string() })),
});

export const AnthropicErrorBodySchema = v.looseObject({
  error: v.looseObject({ type: v.nullish(v.string()), message: v.nullish(v.string()) }),
  request_id: v.nullish(v.string()),
});

/** Stream events, read loosely: `type` decides, fields are checked where used. */
export const AnthropicStreamEventSchema = v.looseObject({
  type: v.string(),
  index: v.nullish(v.number()),
  message: v.nullish(AnthropicMessageSchema),
  content_block: v.nullish(v.looseObject({ type: v.string() })),
  delta: v.nullish(v.looseObject({})),
  usage: v.nullish(AnthropicUsageSchema),
  error: v.nullish(v.looseObject({ type: v.nullish(v.string()), message: v.nullish(v.string()) })),
});
export type AnthropicStreamEventIn = v.InferOutput<typeof AnthropicStreamEventSchema>;
