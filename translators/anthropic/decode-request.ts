/**
 * Caller side: an Anthropic Messages request → canonical ChatRequest.
 * https://docs.claude.com/en/api/messages
 */
import {
  type ChatRequest,
  type Converted,
  type Message,
  type NativeTool,
  type Part,
  type ReasoningConfig,
  type ResponseFormat,
  type Tool,
  type ToolChoice,
  type Warning,
} from '../../src/canonical/index.ts';
import type { CallerInput } from '../types.ts';
import { deepFreeze, isFrozenWhole } from '../../src/kit/index.ts';
import { decodeCache } from './cache.ts';
import { decodeContextEdits, fromLastCompaction } from './context-management.ts';
import { decodeContent } from './decode-blocks.ts';
import { effortOfWire } from './reasoning.ts';
import { decodeWebTool } from './web-tools.ts';
import { invalid, parseWire } from './validate.ts';
import {
  AnthropicCustomToolSchema,
  AnthropicMessagesRequestSchema,
  AnthropicOutputConfigSchema,
  AnthropicThinkingSchema,
  AnthropicToolChoiceSchema,
} from './wire.ts';

/** Body fields decoded into canonical fields; everything else goes to `extras`. */
const KNOWN = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_k',
  'top_p',
  'thinking',
  'tool_choice',
  'tools',
  'output_config',
  'context_management',
]);

/** Extras key holding the caller's `anthropic-beta` values (sent as a header, not a body field). */
export const BETA_EXTRA = 'anthropic-beta';
/**
 * Extras key marking the caller's `?beta=true` (the SDK's `client.beta.messages`, Claude Code).
 * Kept only with `anthropic-beta` values: it travels with the beta features it comes with.
 */
export const BETA_QUERY_EXTRA = '?beta';

/** `anthropic-beta` / `compat-beta`, comma lists or repeated headers (joined by the route). */
export function betasOf(headers: Record<string, string>): string[] {
  // join writes a missing header as '', an empty entry left out below.
  const raw = [headers['anthropic-beta'], headers['compat-beta']].join(',');
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function decodeRequest(input: CallerInput): Converted<ChatRequest> {
  const headers = input.headers;
  if (!headers['anthropic-version'] && !headers['compat-version']) {
    throw invalid('anthropic-version', 'header is required');
  }
  const countOnly = input.params.method === 'count_tokens' || input.params.method === 'countTokens';
  const body = parseWire(AnthropicMessagesRequestSchema, input.body, '');
  if (body.max_tokens === undefined && !countOnly) throw invalid('max_tokens', 'Field required');
  if (body.messages.length === 0) throw invalid('messages', 'at least one message is required');

  const warnings: Warning[] = [];
  const system: Part[] = decodeSystem(body.system, 'system', warnings);
  // A compaction block brought back stands for everything before it.
  const compacted = fromLastCompaction(body.messages);
  const offset = body.messages.length - compacted.messages.length;
  const messages: Message[] = compacted.summary === undefined ? [] : [{ role: 'user', content: [{ type: 'text', text: compacted.summary }], summary: true }];
  compacted.messages.forEach((m, at) => {
    const i = at + offset;
    const path = `messages.${i}`;
    if (m.role === 'system') {
      // SDK 1.x (API 2026-10-21) allows system turns inside `messages`.
      system.push(...decodeSystem(m.content, `${path}.content`, warnings));
      return;
    }
    const message = messageOf(m, m.role, `${path}.content`, warnings);
    const last = at === compacted.messages.length - 1;
    if (message.content.length === 0 && !(last && m.role === 'assistant')) {
      throw invalid(
        path,
        'all messages must have non-empty content except for the optional final assistant message',
      );
    }
    const prev = messages[messages.length - 1];
    // Consecutive same-role turns are one turn, as the API documents (a new message: either may be kept).
    if (prev && prev.role === m.role) messages[messages.length - 1] = { ...prev, content: [...prev.content, ...message.content] };
    else messages.push(message);
  });

  const req: ChatRequest = { model: body.model, system, messages, stream: body.stream === true };
  if (body.max_tokens !== undefined) req.maxOutputTokens = body.max_tokens;
  if (body.temperature != null) req.temperature = body.temperature;
  if (body.top_p != null) req.topP = body.top_p;
  if (body.top_k != null) req.topK = body.top_k;
  if (body.stop_sequences) req.stop = body.stop_sequences;
  if (body.metadata?.user_id) req.user = body.metadata.user_id;

  if (body.tools) Object.assign(req, decodeTools(body.tools));
  if (body.tool_choice) {
    const tc = parseWire(AnthropicToolChoiceSchema, body.tool_choice, 'tool_choice');
    req.toolChoice = decodeToolChoice(tc, req.nativeTools);
    if ('disable_parallel_tool_use' in tc && tc.disable_parallel_tool_use) {
      req.parallelToolCalls = false;
    }
  }

  const extras: Record<string, unknown> = {};
  if (body.thinking) {
    const reasoning = decodeThinking(body.thinking, extras);
    if (reasoning) req.reasoning = reasoning;
  }
  if (body.output_config) {
    const oc = parseWire(AnthropicOutputConfigSchema, body.output_config, 'output_config');
    const { effort, format, ...rest } = oc;
    if (format) req.responseFormat = { type: 'json-schema', schema: format.schema } satisfies ResponseFormat;
    if (effort) {
      const e = effortOfWire(effort);
      if (!e) throw invalid('output_config.effort', "Input should be 'low', 'medium', 'high', 'xhigh' or 'max'");
      if (e !== effort) warnings.push({ code: 'approximated', path: 'output_config.effort', detail: effort });
      req.reasoning = { ...req.reasoning, effort: e };
    }
    if (Object.keys(rest).length) extras.output_config = rest;
  }
  if (body.metadata) {
    const { user_id: _user, ...rest } = body.metadata;
    if (Object.keys(rest).length) extras.metadata = rest;
  }
  if (body.context_management != null) {
    req.contextManagement = { dialect: 'anthropic', edits: decodeContextEdits(body.context_management), raw: body.context_management };
  }
  for (const [key, value] of Object.entries(body)) {
    if (!KNOWN.has(key) && value !== undefined) extras[key] = value;
  }
  const betas = betasOf(headers);
  if (betas.length) {
    extras[BETA_EXTRA] = betas;
    if (input.query.beta === 'true') extras[BETA_QUERY_EXTRA] = 'true';
  }
  if (Object.keys(extras).length) req.extras = { dialect: 'anthropic', fields: extras };
  checkThinkingBudget(req);
  return { value: req, warnings };
}

/**
 * Messages the turn memo kept (frozen whole: an agent's earlier turns, the same objects from one
 * turn to the next) with their canonical message: a function of the message alone when decoding
 * it warns of nothing (the path only names what is refused), so it is decoded once, and kept
 * frozen in turn: the same canonical message object turn after turn, which an upstream encoder
 * may key its own work on (translators/openai-chat/encode-messages.ts,
 * translators/openai-responses/encode-input.ts).
 */
const decodedMessages = new WeakMap<object, Message>();

/** `role`: `m.role` (a part of `m`, so of what is kept). */
function messageOf(m: { content: unknown }, role: Message['role'], path: string, warnings: Warning[]): Message {
  const whole = isFrozenWhole(m);
  const kept = whole ? decodedMessages.get(m) : undefined;
  if (kept) return kept;
  const before = warnings.length;
  const message: Message = { role, content: decodeContent(m.content, path, warnings) };
  if (whole && warnings.length === before) {
    deepFreeze(message);
    decodedMessages.set(m, message);
  }
  return message;
}

function decodeSystem(system: unknown, path: string, warnings: Warning[]): Part[] {
  if (system == null) return [];
  const parts = decodeContent(system, path, warnings);
  parts.forEach((p, i) => {
    if (p.type !== 'text') throw invalid(`${path}.${i}.type`, "Input should be 'text'");
  });
  return parts;
}

const TOOL_FIELDS = new Set(['type', 'name', 'description', 'input_schema', 'cache_control', 'strict']);

function decodeTools(tools: Record<string, unknown>[]): Pick<ChatRequest, 'tools' | 'nativeTools'> {
  const out: Tool[] = [];
  const native: NativeTool[] = [];
  tools.forEach((raw, i) => {
    const type = raw.type;
    if (type == null || type === 'custom') {
      const t = parseWire(AnthropicCustomToolSchema, raw, `tools.${i}`);
      const tool: Tool = { name: t.name, parameters: t.input_schema };
      if (t.description) tool.description = t.description;
      if (t.strict != null) tool.strict = t.strict;
      Object.assign(tool, decodeCache(t.cache_control));
      // allowed_callers, defer_loading, input_examples…: no canonical home, replayed to
      // Anthropic upstreams only (others report each as dropped when they encode).
      const fields: Record<string, unknown> = {};
      for (const key of Object.keys(raw)) if (!TOOL_FIELDS.has(key) && raw[key] !== undefined) fields[key] = raw[key];
      if (Object.keys(fields).length) tool.extras = { dialect: 'anthropic', fields };
      out.push(tool);
    } else if (typeof type === 'string') {
      // Built-in tools (computer_*, bash_*, text_editor_*, web_search_*, code_execution_*…).
      const web = decodeWebTool(raw);
      native.push({ dialect: 'anthropic', definition: raw, path: `tools[${i}]`, ...(web ? { web } : {}) });
    } else {
      throw invalid(`tools.${i}.type`, 'Input should be a valid string');
    }
  });
  return { ...(out.length ? { tools: out } : {}), ...(native.length ? { nativeTools: native } : {}) };
}

function decodeToolChoice(tc: { type: string; name?: string }, native: readonly NativeTool[] | undefined): ToolChoice {
  switch (tc.type) {
    case 'any':
      return { type: 'required' };
    case 'tool': {
      // A hosted web tool forced by its name (Claude Code's WebSearch: `web_search`).
      const web = native?.find((t) => t.web && t.definition.name === tc.name)?.web;
      // Stryker disable next-line StringLiteral: the wire schema requires a tool choice's name
      return web ? { type: 'web', kind: web.kind } : { type: 'tool', name: tc.name ?? '' };
    }
    case 'none':
      return { type: 'none' };
    default:
      return { type: 'auto' };
  }
}

function decodeThinking(raw: Record<string, unknown>, extras: Record<string, unknown>): ReasoningConfig | undefined {
  if (raw.type !== 'enabled' && raw.type !== 'disabled' && raw.type !== 'adaptive') {
    // Newer modes (e.g. `between_tools`) have no canonical peer: replayed to Anthropic only.
    extras.thinking = raw;
    return undefined;
  }
  const t = parseWire(AnthropicThinkingSchema, raw, 'thinking');
  switch (t.type) {
    case 'disabled':
      return { enabled: false };
    // Thinking text comes back unless `display: "omitted"`: upstreams that return thoughts only
    // on request (Gemini `includeThoughts`) are asked for them.
    case 'enabled':
      return { enabled: true, budgetTokens: t.budget_tokens, includeThoughts: t.display !== 'omitted' };
    case 'adaptive':
      // Adaptive thinking: the model picks its budget, canonical "dynamic" (-1).
      return { enabled: true, budgetTokens: -1, includeThoughts: t.display !== 'omitted' };
  }
}

/** The API's cross-field rule, checked after decoding (thinking budget inside max_tokens). */
export function checkThinkingBudget(req: ChatRequest): void {
  const b = req.reasoning?.budgetTokens ?? 0;
  if (b > 0 && (req.maxOutputTokens ?? Number.POSITIVE_INFINITY) <= b) {
    throw invalid(
      'max_tokens',
      '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
    );
  }
}
