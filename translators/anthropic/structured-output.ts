/**
 * Structured output (`responseFormat: json-schema`) to Anthropic.
 *
 * Native first: `output_config.format = {type:'json_schema', schema}` (the JSON arrives as the
 * text block; https://docs.claude.com/en/docs/build-with-claude/structured-outputs). Models
 * from before native structured outputs (Claude 2/3/3.5/3.7 and the first Claude 4 releases)
 * get a forced tool instead, `json_response`, whose input is the answer; the decoders turn that
 * tool call back into message text. A non-object schema is wrapped as `{value: schema}` (tool
 * inputs must be objects) and unwrapped on the way back.
 */
import type { ChatRequest, ResponseFormat } from '../../src/canonical/index.ts';

export const JSON_TOOL = 'json_response';

type JsonSchemaFormat = Extract<ResponseFormat, { type: 'json-schema' }>;

/** Models known to predate native structured outputs. Unknown names are assumed to support it. */
const LEGACY_MODEL = /^claude-(instant|2|3)|^claude-(sonnet|opus)-4-(0|2025)/;

export function usesJsonTool(model: string): boolean {
  return LEGACY_MODEL.test(model);
}

function isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object');
}

export function jsonToolDefinition(rf: JsonSchemaFormat): Record<string, unknown> {
  const schema = isObjectSchema(rf.schema)
    ? rf.schema
    : { type: 'object', properties: { value: rf.schema }, required: ['value'] };
  return {
    name: JSON_TOOL,
    description: rf.description ?? 'Give the final answer as this tool’s input. Call it exactly once.',
    input_schema: schema,
  };
}

/** When the decoders must read `json_response` tool calls as the answer text. */
export function jsonToolMode(req: Pick<ChatRequest, 'responseFormat' | 'tools'>):
  | { wrapped: boolean }
  | undefined {
  const rf = req.responseFormat;
  if (rf?.type !== 'json-schema') return undefined;
  if (req.tools?.some((t) => t.name === JSON_TOOL)) return undefined;
  return { wrapped: !isObjectSchema(rf.schema) };
}

/** The answer text from the tool input. */
export function answerOf(input: unknown, wrapped: boolean): string {
  const value = wrapped && input && typeof input === 'object' ? (input as { value?: unknown }).value : input;
  return JSON.stringify(value ?? {});
}
