/** Caller side: a Chat Completions request body → canonical `ChatRequest`. */
import {
  ProxyError,
  type ChatRequest,
  type Converted,
  type ReasoningConfig,
  type ResponseFormat,
  type Tool,
  type ToolChoice,
  type Warning,
} from '../../src/canonical/index.ts';
import type { CallerInput, TranslateContext } from '../types.ts';
import { decodeMessages } from './decode-messages.ts';
import type { OpenAIChatExtras } from './legacy.ts';
import { parseAt } from './validate.ts';
import {
  KNOWN_REQUEST_FIELDS,
  OpenAIChatFunctionCallChoiceSchema,
  OpenAIChatFunctionSchema,
  OpenAIChatRequestSchema,
  OpenAIChatResponseFormatSchema,
  OpenAIChatToolChoiceSchema,
  OpenAIChatToolSchema,
  type OpenAIChatRequest,
} from './wire-request.ts';
import { decodeWebSearchOptions } from './web-tools.ts';

function invalid(message: string, param: string): ProxyError {
  return new ProxyError('invalid-request', message, { param });
}

function decodeTools(wire: OpenAIChatRequest): Tool[] | undefined {
  if (wire.tools) {
    return wire.tools.map((raw, i) => {
      const { function: f } = parseAt(OpenAIChatToolSchema, raw, `tools[${i}]`);
      return {
        name: f.name,
        ...(f.description !== undefined ? { description: f.description } : {}),
        ...(f.parameters !== undefined ? { parameters: f.parameters } : {}),
        ...(f.strict != null ? { strict: f.strict } : {}),
      };
    });
  }
  if (wire.functions) {
    return wire.functions.map((raw, i) => {
      const f = parseAt(OpenAIChatFunctionSchema, raw, `functions[${i}]`);
      return {
        name: f.name,
        ...(f.description !== undefined ? { description: f.description } : {}),
        ...(f.parameters !== undefined ? { parameters: f.parameters } : {}),
      };
    });
  }
  return undefined;
}

function decodeToolChoice(wire: OpenAIChatRequest, hasTools: boolean): ToolChoice | undefined {
  if (wire.tool_choice != null) {
    if (!hasTools) {
      throw invalid(
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        'tool_choice',
      );
    }
    const c = parseAt(OpenAIChatToolChoiceSchema, wire.tool_choice, 'tool_choice');
    if (typeof c === 'string') return { type: c };
    if (c.type === 'function') return { type: 'tool', name: c.function.name };
    return {
      type: 'allowed',
      mode: c.allowed_tools.mode,
      names: c.allowed_tools.tools.flatMap((t) => (t.function ? [t.function.name] : [])),
    };
  }
  if (wire.function_call != null) {
    if (!hasTools) {
      throw invalid(
        "Invalid value for 'function_call': 'function_call' is only allowed when 'functions' are specified.",
        'function_call',
      );
    }
    const c = parseAt(OpenAIChatFunctionCallChoiceSchema, wire.function_call, 'function_call');
    return typeof c === 'string' ? { type: c } : { type: 'tool', name: c.name };
  }
  return undefined;
}

function decodeResponseFormat(raw: unknown): ResponseFormat | undefined {
  if (raw == null) return undefined;
  const f = parseAt(OpenAIChatResponseFormatSchema, raw, 'response_format');
  switch (f.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json' };
    case 'json_schema': {
      const s = f.json_schema;
      return {
        type: 'json-schema',
        name: s.name,
        ...(s.description !== undefined ? { description: s.description } : {}),
        schema: s.schema ?? {},
        ...(s.strict != null ? { strict: s.strict } : {}),
      };
    }
  }
}

function decodeReasoningEffort(
  effort: OpenAIChatRequest['reasoning_effort'],
  warnings: Warning[],
): ReasoningConfig | undefined {
  switch (effort) {
    case null:
    case undefined:
      return undefined;
    case 'none':
      return { enabled: false };
    case 'xhigh':
      warnings.push({ code: 'approximated', path: 'reasoning_effort', detail: 'xhigh→high' });
      return { effort: 'high' };
    default:
      return { effort };
  }
}

export function decodeRequest(input: CallerInput, ctx: TranslateContext): Converted<ChatRequest> {
  const body = input.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ProxyError(
      'invalid-request',
      'We could not parse the JSON body of your request. The body must be a JSON object.',
    );
  }
  const wire = parseAt(OpenAIChatRequestSchema, body, '');
  const warnings: Warning[] = [];

  if (wire.top_logprobs != null && wire.logprobs !== true) {
    throw invalid("The 'top_logprobs' parameter is only allowed when 'logprobs' is enabled.", 'top_logprobs');
  }
  if (wire.stream_options != null && wire.stream !== true) {
    throw invalid("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  }

  const { system, messages } = decodeMessages(wire.messages, ctx, warnings);
  const tools = decodeTools(wire);
  const toolChoice = decodeToolChoice(wire, tools !== undefined);
  const stream = wire.stream === true;

  const req: ChatRequest = { model: wire.model, system, messages, stream };
  if (tools) req.tools = tools;
  if (toolChoice) req.toolChoice = toolChoice;
  const webSearch = decodeWebSearchOptions((body as Record<string, unknown>)['web_search_options']);
  if (webSearch) req.nativeTools = [webSearch];
  if (wire.parallel_tool_calls != null) req.parallelToolCalls = wire.parallel_tool_calls;
  const maxOutput = wire.max_completion_tokens ?? wire.max_tokens;
  if (maxOutput != null) req.maxOutputTokens = maxOutput;
  if (wire.temperature != null) req.temperature = wire.temperature;
  if (wire.top_p != null) req.topP = wire.top_p;
  if (wire.stop != null) req.stop = typeof wire.stop === 'string' ? [wire.stop] : wire.stop;
  if (wire.seed != null) req.seed = wire.seed;
  if (wire.presence_penalty != null) req.presencePenalty = wire.presence_penalty;
  if (wire.frequency_penalty != null) req.frequencyPenalty = wire.frequency_penalty;
  if (wire.n != null) req.candidateCount = wire.n;
  if (wire.logprobs != null) req.logprobs = wire.logprobs;
  if (wire.top_logprobs != null) req.topLogprobs = wire.top_logprobs;
  const responseFormat = decodeResponseFormat(wire.response_format);
  if (responseFormat) req.responseFormat = responseFormat;
  const reasoning = decodeReasoningEffort(wire.reasoning_effort, warnings);
  if (reasoning) req.reasoning = reasoning;
  if (wire.modalities != null) req.modalities = wire.modalities;
  if (stream && wire.stream_options?.include_usage === true) req.streamUsage = true;
  if (wire.user != null) req.user = wire.user;
  if (wire.metadata != null) req.metadata = wire.metadata;

  // Everything without a canonical home (logit_bias, service_tier, store, prediction, audio,
  // unknown fields) rides in extras, replayed only to an OpenAI upstream.
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!KNOWN_REQUEST_FIELDS.has(key) && value != null) fields[key] = value;
  }
  if (wire.stream_options) {
    const { include_usage: _, ...rest } = wire.stream_options;
    if (Object.keys(rest).length > 0) fields['stream_options'] = rest;
  }
  const legacyFunctions = wire.functions != null && wire.tools == null;
  if (Object.keys(fields).length > 0 || legacyFunctions) {
    const extras: OpenAIChatExtras = { dialect: 'openai-chat', fields };
    if (legacyFunctions) extras.legacyFunctions = true;
    req.extras = extras;
  }
  return { value: req, warnings };
}
