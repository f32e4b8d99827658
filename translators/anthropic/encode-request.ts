/**
 * Upstream side: canonical ChatRequest → POST `${baseUrl}/v1/messages`.
 * https://docs.claude.com/en/api/messages
 */
import {
  nativeToolLabel,
  extrasFor,
  ProxyError,
  toolExtrasFor,
  type ChatRequest,
  type Converted,
  type Tool,
  type Warning,
} from '../../src/canonical/index.ts';
import {
  jsonBody,
} from '../../src/kit/index.ts';
import type { TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { encodeCache } from './cache.ts';
import { BETA_EXTRA, BETA_QUERY_EXTRA } from './decode-request.ts';
import { callerBetas, forHost, upstreamHeaders } from './host.ts';
import { encodeMessages, encodeSystem } from './encode-messages.ts';
import { encodeWebTool, webToolBetas } from './web-tools.ts';
import { budgetOfEffort, MIN_THINKING_BUDGET } from './reasoning.ts';
import { JSON_TOOL, jsonToolDefinition, jsonToolMode, usesJsonTool } from './structured-output.ts';

/** `max_tokens` when neither the caller nor the route gives one. */
export const DEFAULT_MAX_TOKENS = 4096;
/** Instruction standing in for OpenAI's `json_object` mode (Anthropic has no JSON-only switch). */
export const JSON_INSTRUCTION = 'Respond with a single valid JSON object and nothing else.';

/** Tools: custom tools from canonical, built-in ones only when they were Anthropic's. */
function encodeTools(req: ChatRequest, warnings: Warning[]): Record<string, unknown>[] | undefined {
  const tools: Record<string, unknown>[] = (req.tools ?? []).map((t: Tool, i) => {
    const extras = toolExtrasFor(t, i, 'anthropic');
    warnings.push(...extras.warnings);
    return {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      input_schema: t.parameters?.type ? t.parameters : { type: 'object', properties: {}, ...t.parameters },
      ...(t.strict !== undefined ? { strict: t.strict } : {}),
      ...(t.cache ? { cache_control: encodeCache(t.cache) } : {}),
      ...extras.fields,
    };
  });
  (req.nativeTools ?? []).forEach((t, i) => {
    if (t.dialect === 'anthropic') tools.push(t.definition);
    else if (t.web) tools.push(encodeWebTool(t.web, t.path ?? `nativeTools[${i}]`, warnings));
    else warnings.push({ code: 'dropped', path: t.path ?? `nativeTools[${i}]`, detail: nativeToolLabel(t), lossy: true });
  });
  return tools.length ? tools : undefined;
}

/**
 * Thinking: explicit budget, else the effort table (reasoning.ts). The budget must be ≥ 1024
 * and < max_tokens (both count thinking): a budget that does not fit a caller's max_tokens of
 * ≥ 2048 is halved into it; below that, max_tokens is raised by the budget. Without a caller
 * max_tokens the default is raised to budget + default.
 */
function encodeThinking(
  req: ChatRequest,
  maxTokens: number,
  callerMax: boolean,
  warnings: Warning[],
): { thinking?: Record<string, unknown>; maxTokens: number } {
  const r = req.reasoning;
  if (!r) return { maxTokens };
  if (r.enabled === false || r.budgetTokens === 0) return { thinking: { type: 'disabled' }, maxTokens };
  if (r.budgetTokens === -1 && !r.effort) return { thinking: { type: 'adaptive' }, maxTokens };
  let budget =
    r.budgetTokens !== undefined && r.budgetTokens > 0
      ? r.budgetTokens
      : r.effort
        ? budgetOfEffort[r.effort]
        : r.enabled
          ? budgetOfEffort.medium
          : undefined;
  if (budget === undefined) return { maxTokens };
  if (budget < MIN_THINKING_BUDGET) {
    warnings.push({ code: 'clamped', path: 'reasoning.budgetTokens', detail: String(MIN_THINKING_BUDGET) });
    budget = MIN_THINKING_BUDGET;
  }
  if (budget >= maxTokens) {
    if (!callerMax) maxTokens = budget + maxTokens;
    else if (maxTokens >= 2 * MIN_THINKING_BUDGET) {
      budget = Math.floor(maxTokens / 2);
      warnings.push({ code: 'clamped', path: 'reasoning.budgetTokens', detail: String(budget) });
    } else {
      maxTokens = budget + maxTokens;
      warnings.push({ code: 'clamped', path: 'maxOutputTokens', detail: String(maxTokens) });
    }
  }
  return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens };
}

/**
 * Whether a Claude model refuses `temperature` and `top_p` together ("`temperature` and `top_p`
 * cannot both be specified for this model"): Claude 4.1 and later (Opus 4.1, Sonnet 4.5, Haiku
 * 4.5, Opus 4.5…), by their names on every host (`claude-sonnet-4-5-20250929`,
 * `claude-opus-4-1@20250805` on Vertex AI, `us.anthropic.claude-haiku-4-5-…-v1:0` on Bedrock).
 * Claude 4 (`claude-sonnet-4-20250514`) and the 3.x models take both. Callers such as qwen-code
 * always send both; `top_p` then goes (reported), `temperature` stays.
 */
export function refusesBothSamplers(model: string): boolean {
  const m = /claude-(?:opus|sonnet|haiku)-(\d{1,2})(?:[-.](\d{1,2}))?(?![\d])/.exec(model);
  if (!m) return false;
  const major = Number(m[1]);
  const minor = m[2] === undefined ? 0 : Number(m[2]);
  return major > 4 || (major === 4 && minor >= 1);
}

/** The Messages body (shared by create and count_tokens). */
export function encodeBody(req: ChatRequest, target: UpstreamTarget): Converted<Record<string, unknown>> {
  const warnings: Warning[] = [];
  const callerMax = req.maxOutputTokens !== undefined;
  const rf = req.responseFormat;
  const jsonHint = rf?.type === 'json' ? JSON_INSTRUCTION : undefined;
  if (jsonHint) warnings.push({ code: 'approximated', path: 'responseFormat', detail: 'json_object' });

  const body: Record<string, unknown> = { model: target.model };
  const system = encodeSystem(req.system, jsonHint, warnings);
  body.messages = encodeMessages(req.messages, warnings);
  if (system !== undefined) body.system = system;

  const thinking = encodeThinking(
    req,
    req.maxOutputTokens ?? target.options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS,
    callerMax,
    warnings,
  );
  body.max_tokens = thinking.maxTokens;
  const thinkingOn = thinking.thinking !== undefined && thinking.thinking.type !== 'disabled';
  if (thinking.thinking) body.thinking = thinking.thinking;

  if (req.modalities?.some((m) => m !== 'text')) {
    throw new ProxyError('unsupported', 'Anthropic models produce text only (no audio or image output)', {
      param: 'modalities',
    });
  }
  if (req.temperature !== undefined) {
    if (thinkingOn && req.temperature !== 1) {
      warnings.push({ code: 'dropped', path: 'temperature', detail: 'thinking' });
    } else if (req.temperature > 1) {
      warnings.push({ code: 'clamped', path: 'temperature', detail: '1' });
      body.temperature = 1;
    } else body.temperature = req.temperature;
  }
  if (req.topP !== undefined) {
    if (thinkingOn && req.topP < 0.95) warnings.push({ code: 'dropped', path: 'topP', detail: 'thinking' });
    else if (body.temperature !== undefined && refusesBothSamplers(target.model)) warnings.push({ code: 'dropped', path: 'topP', detail: 'temperature' });
    else body.top_p = req.topP;
  }
  if (req.topK !== undefined) {
    if (thinkingOn) warnings.push({ code: 'dropped', path: 'topK', detail: 'thinking' });
    else body.top_k = req.topK;
  }
  if (req.stop?.length) body.stop_sequences = req.stop;
  if (req.user) {
    if (req.user.length <= 256) body.metadata = { user_id: req.user };
    else warnings.push({ code: 'dropped', path: 'user', detail: 'longer than 256' });
  }
  if (req.metadata && Object.keys(req.metadata).length) warnings.push({ code: 'dropped', path: 'metadata' });
  if (req.seed !== undefined) warnings.push({ code: 'dropped', path: 'seed' });
  if (req.presencePenalty !== undefined) warnings.push({ code: 'dropped', path: 'presencePenalty' });
  if (req.frequencyPenalty !== undefined) warnings.push({ code: 'dropped', path: 'frequencyPenalty' });
  if (req.logprobs) warnings.push({ code: 'dropped', path: 'logprobs', lossy: true });
  if (req.topLogprobs !== undefined) warnings.push({ code: 'dropped', path: 'topLogprobs' });

  const tools = encodeTools(req, warnings);
  if (tools) {
    body.tools = tools;
    const choice = encodeToolChoice(req, thinkingOn, warnings);
    if (choice) body.tool_choice = choice;
  }
  if (rf?.type === 'json-schema') {
    if (usesJsonTool(target.model) && jsonToolMode(req)) {
      // Forced tool for models without native structured outputs (structured-output.ts).
      body.tools = [...(tools ?? []), jsonToolDefinition(rf)];
      if (!tools && !thinkingOn) body.tool_choice = { type: 'tool', name: JSON_TOOL };
      else warnings.push({ code: 'approximated', path: 'responseFormat', detail: 'json tool not forced' });
    } else {
      // Native structured outputs: the JSON arrives as the text block.
      body.output_config = { format: { type: 'json_schema', schema: rf.schema } };
      if (rf.strict === false) warnings.push({ code: 'approximated', path: 'responseFormat.strict' });
    }
  }

  const extras = extrasFor(req, 'anthropic');
  warnings.push(...extras.warnings);
  for (const [key, value] of Object.entries(extras.fields)) {
    if (key === BETA_EXTRA || key === BETA_QUERY_EXTRA) continue;
    if (key === 'output_config' && body.output_config && value && typeof value === 'object') {
      body.output_config = { ...value, ...(body.output_config as object) };
    } else if (key === 'metadata' && value && typeof value === 'object') {
      body.metadata = { ...value, ...(body.metadata as object | undefined) };
    } else body[key] = value;
  }
  // Context editing an Anthropic caller asked for, as it asked (elsewhere the flow applies it).
  if (req.contextManagement?.dialect === 'anthropic') body.context_management = req.contextManagement.raw;
  if (req.stream) body.stream = true;
  return { value: body, warnings };
}

function encodeToolChoice(
  req: ChatRequest,
  thinkingOn: boolean,
  warnings: Warning[],
): Record<string, unknown> | undefined {
  const tc = req.toolChoice;
  const noParallel = req.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  let out: Record<string, unknown> | undefined;
  switch (tc?.type) {
    case undefined:
      out = req.parallelToolCalls === false ? { type: 'auto', ...noParallel } : undefined;
      break;
    case 'auto':
      out = { type: 'auto', ...noParallel };
      break;
    case 'none':
      out = { type: 'none' };
      break;
    case 'required':
      out = { type: 'any', ...noParallel };
      break;
    case 'tool':
      out = { type: 'tool', name: tc.name, ...noParallel };
      break;
    case 'web': {
      // The hosted tool by its name: the caller's own, else the one encodeWebTool wrote.
      const own = req.nativeTools?.find((t) => t.dialect === 'anthropic' && t.web?.kind === tc.kind)?.definition.name;
      out = { type: 'tool', name: typeof own === 'string' ? own : tc.kind === 'search' ? 'web_search' : 'web_fetch', ...noParallel };
      break;
    }
    case 'allowed':
      // No allow-list in Anthropic's tool_choice: all tools stay callable.
      warnings.push({ code: 'approximated', path: 'toolChoice', detail: 'allowed_tools' });
      out = { type: tc.mode === 'required' ? 'any' : 'auto', ...noParallel };
      break;
  }
  if (thinkingOn && out && (out.type === 'any' || out.type === 'tool')) {
    // Extended thinking accepts only auto/none tool choice.
    warnings.push({ code: 'approximated', path: 'toolChoice', detail: 'auto with thinking' });
    out = { ...out, type: 'auto' };
    delete out.name;
  }
  return out;
}

export function encodeRequest(
  req: ChatRequest,
  target: UpstreamTarget,
  _ctx: TranslateContext,
): Converted<UpstreamHttpRequest> {
  const { value: encoded, warnings } = encodeBody(req, target);
  const { betas, query } = callerBetas(req);
  const needed = webToolBetas(req.nativeTools).filter((b) => !betas.includes(b));
  const [body, headers] = forHost(encoded, upstreamHeaders(target, undefined, [...betas, ...needed], warnings), target);
  return {
    value: {
      method: 'POST',
      path: `/v1/messages${query}`,
      headers,
      body: jsonBody(body, 'messages', target.sent),
      stream: req.stream,
    },
    warnings,
  };
}
