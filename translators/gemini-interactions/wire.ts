/**
 * Request-side wire shapes of the Gemini Interactions API (`POST /v1beta/interactions`): the
 * contents, the typed steps, tools, `generation_config`, `response_format` and the create body.
 * Source of truth: `@google/genai` 2.32.0 `dist/node/node.d.ts` (`CreateModelInteraction`,
 * `Step`, `Content_2`, `Tool_2`, `GenerationConfig_2`, `ToolChoice`, `TextResponseFormat_2`) and
 * /work/shared/spec/interactions-api.md. Plain types are what encoders write; the loose valibot
 * schemas are what decoders read (unknown fields pass).
 */
import * as v from 'valibot';
import { isJsonObject } from '../../src/kit/index.ts';
import { type Extras } from '../../src/canonical/index.ts';

const str = v.string();
const nullishStr = v.nullish(str);

/** A JSON object, never a list (valibot's record would copy `[1]` as `{"0": 1}`). */
const JsonObject = v.custom<Record<string, unknown>>(isJsonObject, "Invalid value at '{param}': expected an object, got {got}.");

// ---- contents ------------------------------------------------------------------------------

export interface TextContent { type: 'text'; text: string; annotations?: unknown[] }
/** `image`, `audio`, `document`, `video`: inline `data` (base64) + `mime_type`, or a `uri`. */
export interface MediaContent {
  type: 'image' | 'audio' | 'document' | 'video';
  data?: string;
  uri?: string;
  mime_type?: string;
  [k: string]: unknown;
}
export type InteractionsContent = TextContent | MediaContent;
export const MEDIA_CONTENT_TYPES = ['image', 'audio', 'document', 'video'] as const;

export const TextContentSchema = v.looseObject({ type: v.literal('text'), text: str });
export const MediaContentSchema = v.looseObject({
  type: v.picklist(MEDIA_CONTENT_TYPES),
  data: nullishStr,
  uri: nullishStr,
  mime_type: nullishStr,
});
export const ContentSchema = v.variant('type', [TextContentSchema, MediaContentSchema]);

// ---- steps ---------------------------------------------------------------------------------

export interface UserInputStep { type: 'user_input'; content?: InteractionsContent[] }
export interface ModelOutputStep { type: 'model_output'; content?: InteractionsContent[]; error?: unknown }
/** `signature` always present on a model's thought; `summary` only with `thinking_summaries: "auto"`. */
export interface ThoughtStep { type: 'thought'; signature?: string; summary?: InteractionsContent[] }
export interface FunctionCallStep { type: 'function_call'; id: string; name: string; arguments: Record<string, unknown> }
export interface FunctionResultStep {
  type: 'function_result';
  call_id: string;
  name?: string;
  result: string | Record<string, unknown> | InteractionsContent[];
  is_error?: boolean;
}
/** Hosted-tool steps (`google_search_call`, `code_execution_result`, …): kept opaque. */
export interface HostedToolStep { type: string; signature?: string; [k: string]: unknown }
export type InteractionsStep = UserInputStep | ModelOutputStep | ThoughtStep | FunctionCallStep | FunctionResultStep;
export type AnyStep = InteractionsStep | HostedToolStep;

export const STEP_TYPES = ['user_input', 'model_output', 'thought', 'function_call', 'function_result'] as const;

export const UserInputStepSchema = v.looseObject({ type: v.literal('user_input'), content: v.nullish(v.array(v.unknown())) });
export const ModelOutputStepSchema = v.looseObject({ type: v.literal('model_output'), content: v.nullish(v.array(v.unknown())) });
export const ThoughtStepSchema = v.looseObject({
  type: v.literal('thought'),
  signature: nullishStr,
  summary: v.nullish(v.array(v.unknown())),
});
export const FunctionCallStepSchema = v.looseObject({
  type: v.literal('function_call'),
  id: str,
  name: str,
  arguments: v.nullish(JsonObject),
});
export const FunctionResultStepSchema = v.looseObject({
  type: v.literal('function_result'),
  call_id: str,
  name: nullishStr,
  result: v.union([str, v.array(v.unknown()), v.record(str, v.unknown())]),
  is_error: v.nullish(v.boolean()),
});
export const StepHeadSchema = v.looseObject({ type: str });

// ---- tools ---------------------------------------------------------------------------------

export interface FunctionTool { type: 'function'; name?: string; description?: string; parameters?: unknown }
/** Hosted Google tools: executed by Google, meaningless to another vendor. */
export const HOSTED_TOOL_TYPES = [
  'google_search',
  'code_execution',
  'url_context',
  'file_search',
  'google_maps',
  'mcp_server',
  'computer_use',
  'retrieval',
] as const;

/** Hosted tool type ↔ its `generateContent` tool key. */
export const HOSTED_TOOL_KEYS: Readonly<Record<string, string>> = {
  google_search: 'googleSearch',
  code_execution: 'codeExecution',
  url_context: 'urlContext',
  google_maps: 'googleMaps',
  file_search: 'fileSearch',
  retrieval: 'retrieval',
  computer_use: 'computerUse',
};

export interface HostedTool { type: string; [k: string]: unknown }
export type InteractionsTool = FunctionTool | HostedTool;

export const FunctionToolSchema = v.looseObject({
  type: v.literal('function'),
  name: str,
  description: nullishStr,
  parameters: v.nullish(JsonObject),
});
export const FUNCTION_TOOL_FIELDS = new Set(['type', 'name', 'description', 'parameters']);
export const ToolHeadSchema = v.looseObject({ type: str });

// ---- generation_config, tool_choice, response_format ---------------------------------------

export const THINKING_LEVELS = ['minimal', 'low', 'medium', 'high'] as const;
export type ThinkingLevel = (typeof THINKING_LEVELS)[number];
export const TOOL_CHOICE_MODES = ['auto', 'any', 'none', 'validated'] as const;
export type ToolChoiceMode = (typeof TOOL_CHOICE_MODES)[number];

export type InteractionsToolChoice = ToolChoiceMode | { allowed_tools: { mode?: ToolChoiceMode; tools?: string[] } };

export const ToolChoiceSchema = v.union([
  v.picklist(TOOL_CHOICE_MODES),
  v.looseObject({
    allowed_tools: v.looseObject({ mode: v.nullish(v.picklist(TOOL_CHOICE_MODES)), tools: v.nullish(v.array(str)) }),
  }),
]);

export interface GenerationConfig {
  max_output_tokens?: number;
  stop_sequences?: string[];
  seed?: number;
  thinking_level?: ThinkingLevel;
  thinking_summaries?: 'auto' | 'none';
  tool_choice?: InteractionsToolChoice;
  temperature?: number;
  top_p?: number;
  [k: string]: unknown;
}

const Int = v.pipe(v.number(), v.integer());
export const GenerationConfigSchema = v.looseObject({
  max_output_tokens: v.nullish(v.pipe(Int, v.minValue(1))),
  stop_sequences: v.nullish(v.array(str)),
  seed: v.nullish(Int),
  thinking_level: v.nullish(v.picklist(THINKING_LEVELS)),
  thinking_summaries: v.nullish(v.picklist(['auto', 'none'])),
  tool_choice: v.nullish(v.unknown()),
  temperature: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(2))),
  top_p: v.nullish(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
});
/** generation_config keys decoded into canonical ones; the rest ride in extras. */
export const DECODED_CONFIG_FIELDS = new Set([
  'max_output_tokens',
  'stop_sequences',
  'seed',
  'thinking_level',
  'thinking_summaries',
  'tool_choice',
  'temperature',
  'top_p',
]);

export interface TextResponseFormat { type: 'text'; mime_type?: string; schema?: Record<string, unknown> }
export type ResponseFormat = TextResponseFormat | { type: string; [k: string]: unknown };
export const TextResponseFormatSchema = v.looseObject({
  type: v.literal('text'),
  mime_type: nullishStr,
  schema: v.nullish(JsonObject),
});

// ---- the create body -----------------------------------------------------------------------

/** `CreateModelInteraction` (the model variant; the agent variant has `agent`/`agent_config`). */
export interface InteractionsCreateBody {
  model: string;
  input?: string | InteractionsContent | InteractionsContent[] | AnyStep[];
  system_instruction?: string;
  tools?: InteractionsTool[];
  generation_config?: GenerationConfig;
  response_format?: ResponseFormat | ResponseFormat[];
  store?: boolean;
  stream?: boolean;
  background?: boolean;
  previous_interaction_id?: string;
  [k: string]: unknown;
}

export const CreateBodySchema = v.looseObject({
  model: str,
  input: v.optional(v.union([str, v.array(v.unknown()), v.looseObject({ type: str })])),
  system_instruction: nullishStr,
  tools: v.nullish(v.array(v.unknown())),
  generation_config: v.nullish(v.looseObject({})),
  response_format: v.nullish(v.union([v.array(v.unknown()), v.looseObject({ type: str })])),
  store: v.nullish(v.boolean()),
  stream: v.nullish(v.boolean()),
  background: v.nullish(v.boolean()),
  previous_interaction_id: nullishStr,
});
export type CreateBody = v.InferOutput<typeof CreateBodySchema>;

/** Body fields decoded into canonical ones; everything else rides in extras. */
export const DECODED_FIELDS = new Set([
  'model',
  'input',
  'system_instruction',
  'tools',
  'generation_config',
  'response_format',
  'stream',
]);

/** Fields that tune rather than change the answer: `Extras.hints` (dropped elsewhere, not lossy). */
export const HINT_FIELDS = new Set(['store', 'service_tier', 'labels']);

/** Stateful / Google-only parameters: the flow's business (state.ts), refused by decodeRequest. */
export const STATEFUL_FIELDS = ['background', 'agent', 'agent_config', 'previous_interaction_id'] as const;

export interface GeminiInteractionsExtras extends Extras {
  dialect: 'gemini-interactions';
}
