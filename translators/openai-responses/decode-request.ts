/**
 * Caller side: a `POST /v1/responses` (or `/v1/responses/input_tokens`) body → canonical
 * `ChatRequest`. Fields without a canonical home ride in extras for an openai-responses upstream:
 * `store`, `previous_response_id`, `background`, `conversation`, `prompt`, `truncation`… (the
 * tuning ones as hints, see wire.ts `HINT_FIELDS`).
 */
import {
  ProxyError,
  type ChatRequest,
  type ContextEdit,
  type Converted,
  type ReasoningConfig,
  type ResponseFormat,
  type Warning,
} from '../../src/canonical/index.ts';
import type { CallerInput } from '../types.ts';
import { decodeInput } from './decode-input.ts';
import { decodeToolChoice, decodeTools } from './decode-tools.ts';
import { invalid, parseAt } from './validate.ts';
import {
  DECODED_FIELDS,
  HINT_FIELDS,
  TextFormatSchema,
  ResponsesRequestSchema,
  type OpenAIResponsesExtras,
  type ResponsesRequest,
} from './wire.ts';

/** `include` values this dialect decodes into canonical fields. */
export const INCLUDE_ENCRYPTED = 'reasoning.encrypted_content';
export const INCLUDE_LOGPROBS = 'message.output_text.logprobs';

function decodeFormat(raw: unknown): ResponseFormat | undefined {
  if (raw == null) return undefined;
  const f = parseAt(TextFormatSchema, raw, 'text.format');
  switch (f.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema':
      return {
        type: 'json-schema',
        name: f.name,
        schema: f.schema,
        ...(f.description != null ? { description: f.description } : {}),
        ...(f.strict != null ? { strict: f.strict } : {}),
      };
  }
}

/**
 * `reasoning` → canonical. Efforts: `none` turns reasoning off; `xhigh` and `max` have no
 * canonical peer (approximated as `high`, the wire value kept in extras for this dialect).
 * A requested summary (`auto`, `concise`, `detailed`) means the caller wants thought text.
 */
function decodeReasoning(r: NonNullable<ResponsesRequest['reasoning']>, warnings: Warning[]): ReasoningConfig {
  const out: ReasoningConfig = {};
  switch (r.effort) {
    case null:
    case undefined:
      break;
    case 'none':
      out.enabled = false;
      break;
    case 'xhigh':
    case 'max':
      warnings.push({ code: 'approximated', path: 'reasoning.effort', detail: `${r.effort}→high` });
      out.effort = 'high';
      break;
    default:
      out.effort = r.effort;
  }
  if (r.summary ?? r.generate_summary) out.includeThoughts = true;
  return out;
}

/**
 * The request's references to stored state, and that it has something to answer, as OpenAI checks
 * them: a `previous_response_id` that is not a non-empty string is a 400 (never skipped: the flow
 * resolves only well-formed references from its store, src/flows/state.ts, so it runs this
 * before), and no input (absent, `""` or `[]`) is a 400 unless a previous response, a stored
 * prompt or a conversation supplies it. (`item_reference` items are checked with the input.)
 */
export function checkReferences(body: unknown): asserts body is Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProxyError('invalid-request', 'We could not parse the JSON body of your request. The body must be a JSON object.');
  }
  const b = body as Record<string, unknown>;
  const prev = b['previous_response_id'];
  if (prev === '') {
    throw invalid(`Invalid 'previous_response_id': empty string. Expected a string with minimum length 1, but got an empty string instead.`, 'previous_response_id', 'empty_string');
  }
  if (prev != null) parseAt(ResponsesRequestSchema.entries.previous_response_id, prev, 'previous_response_id');
  const input = b['input'];
  const empty = input === undefined || input === '' || (Array.isArray(input) && input.length === 0);
  if (empty && prev == null && b['prompt'] == null && b['conversation'] == null) {
    throw invalid(`One of "input" or "previous_response_id" or 'prompt' or 'conversation_id' must be provided.`, 'input', 'missing_required_parameter');
  }
}

export function decodeRequest(input: CallerInput): Converted<ChatRequest> {
  const body = input.body;
  checkReferences(body);
  const wire = parseAt(ResponsesRequestSchema, body, '');
  const warnings: Warning[] = [];
  const { system, messages, compact } = decodeInput(wire.instructions, wire.input, warnings);
  const { tools, nativeTools } = decodeTools(wire.tools);
  const toolChoice = decodeToolChoice(wire.tool_choice, (tools?.length ?? 0) > 0);
  const stream = wire.stream === true;
  const include = wire.include ?? [];

  const req: ChatRequest = { model: wire.model, system, messages, stream };
  // `POST /responses/compact` (route parameter `method`), or a `compaction_trigger` last.
  if (compact || input.params.method === 'compact') req.compact = true;
  if (tools) req.tools = tools;
  if (nativeTools) req.nativeTools = nativeTools;
  if (toolChoice.choice) req.toolChoice = toolChoice.choice;
  if (wire.parallel_tool_calls != null) req.parallelToolCalls = wire.parallel_tool_calls;
  if (wire.max_output_tokens != null) req.maxOutputTokens = wire.max_output_tokens;
  if (wire.temperature != null) req.temperature = wire.temperature;
  if (wire.top_p != null) req.topP = wire.top_p;
  const logprobs = include.includes(INCLUDE_LOGPROBS);
  if (logprobs) {
    req.logprobs = true;
    if (wire.top_logprobs != null) req.topLogprobs = wire.top_logprobs;
  }
  const responseFormat = decodeFormat(wire.text?.format);
  if (responseFormat) req.responseFormat = responseFormat;
  if (wire.reasoning) req.reasoning = decodeReasoning(wire.reasoning, warnings);
  if (stream) req.streamUsage = true;
  const user = wire.user ?? wire.safety_identifier;
  if (user != null) req.user = user;
  if (wire.metadata != null) req.metadata = wire.metadata;
  const cm = b(body)['context_management'];
  if (cm != null) req.contextManagement = { dialect: 'openai-responses', edits: decodeContextManagement(cm), raw: cm };

  const fields: Record<string, unknown> = {};
  const hints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (DECODED_FIELDS.has(key) || value == null) continue;
    (HINT_FIELDS.has(key) ? hints : fields)[key] = value;
  }
  if (toolChoice.native !== undefined) fields['tool_choice'] = toolChoice.native;
  // A forced web search: neutral for other upstreams, as written for a Responses one.
  if (toolChoice.hint !== undefined) hints['tool_choice'] = toolChoice.hint;
  if (wire.user != null && wire.safety_identifier != null) hints['safety_identifier'] = wire.safety_identifier;
  if (wire.top_logprobs != null && !logprobs) hints['top_logprobs'] = wire.top_logprobs;
  const otherIncludes = include.filter((x) => x !== INCLUDE_ENCRYPTED && x !== INCLUDE_LOGPROBS);
  if (otherIncludes.length > 0) hints['include'] = otherIncludes;
  if (wire.text?.verbosity != null) hints['text'] = { verbosity: wire.text.verbosity };
  const { effort, summary, generate_summary, ...reasoningRest } = wire.reasoning ?? {};
  if (effort === 'xhigh' || effort === 'max' || summary === 'concise' || summary === 'detailed' || generate_summary || Object.keys(reasoningRest).length > 0) {
    hints['reasoning'] = wire.reasoning;
  }
  const encrypted = include.includes(INCLUDE_ENCRYPTED);
  if (Object.keys(fields).length > 0 || Object.keys(hints).length > 0 || encrypted) {
    const extras: OpenAIResponsesExtras = { dialect: 'openai-responses', fields };
    if (Object.keys(hints).length > 0) extras.hints = hints;
    if (encrypted) extras.encryptedReasoning = true;
    req.extras = extras;
  }
  return { value: req, warnings };
}

const b = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});

/** `context_management: [{type: "compaction", compact_threshold}]` → canonical compact edits. */
function decodeContextManagement(raw: unknown): ContextEdit[] {
  if (!Array.isArray(raw)) throw invalid(`Invalid type for 'context_management': expected an array.`, 'context_management', 'invalid_type');
  return raw.map((e, i): ContextEdit => {
    const at = `context_management[${i}]`;
    const entry = b(e);
    if (entry['type'] !== 'compaction') throw invalid(`Invalid value for '${at}.type': only 'compaction' is supported.`, `${at}.type`, 'invalid_value');
    const threshold = entry['compact_threshold'];
    if (threshold != null && (typeof threshold !== 'number' || !Number.isInteger(threshold) || threshold < 1)) {
      throw invalid(`Invalid value for '${at}.compact_threshold': expected a positive integer.`, `${at}.compact_threshold`, 'invalid_value');
    }
    return { type: 'compact', ...(typeof threshold === 'number' && { trigger: threshold }) };
  });
}

/** This dialect's extras of a request, when the caller spoke it. */
export function responsesExtras(req: Pick<ChatRequest, 'extras'>): OpenAIResponsesExtras | undefined {
  return req.extras?.dialect === 'openai-responses' ? (req.extras as OpenAIResponsesExtras) : undefined;
}
