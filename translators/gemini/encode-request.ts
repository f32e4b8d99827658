/**
 * Upstream side: canonical `ChatRequest` → Gemini generateContent request.
 * URL `${baseUrl}/v1beta/models/${model}:generateContent`, or `:streamGenerateContent?alt=sse`
 * (always SSE upstream); the key goes in `x-goog-api-key`, never in the URL.
 *
 * Reasoning: `budgetTokens` → `thinkingBudget`; `enabled: false` → budget 0; an `effort` alone
 * becomes `thinkingLevel` on Gemini 3+ models and a `thinkingBudget` elsewhere, by this table:
 * minimal 512 · low 1024 · medium 8192 · high 24576.
 */
import {
  nativeToolLabel,
  cacheControlWarnings,
  extrasFor,
  toolExtrasFor,
  type ChatRequest,
  type Converted,
  type ReasoningEffort,
  type Warning,
  unsendableModel,
} from '../../src/canonical/index.ts';
import {
  modelSegment,
  jsonBody,
} from '../../src/kit/index.ts';
import type { TranslateContext, UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { encodeContents } from './encode-contents.ts';
import { compileSchema } from './schema.ts';
import { requiresCallSignatures } from './signatures.ts';
import type { GeminiOutContent } from './wire.ts';
import { encodeWebTool } from '../vendor/google/index.ts';

export const EFFORT_BUDGET: Record<ReasoningEffort, number> = {
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
};

/** The model name without the `models/` prefix Gemini callers (and configs) may write. */
export function modelName(model: string): string {
  return model.startsWith('models/') ? model.slice(7) : model;
}

/**
 * `/v1beta/models/{model}:{method}`: whatever the model is called, it stays one path segment
 * (canonical `modelSegment`), so it cannot change the path, query or origin.
 */
export function methodPath(target: UpstreamTarget, method: string): string {
  return `/v1beta/models/${modelSegment(modelName(target.model), unsendableModel)}:${method}`;
}

export function upstreamHeaders(target: UpstreamTarget): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(target.options.headers ?? {}) };
  if (target.apiKey) headers['x-goog-api-key'] = target.apiKey;
  return headers;
}

export interface GeminiRequestBody {
  contents: GeminiOutContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Record<string, unknown>[];
  toolConfig?: Record<string, unknown>;
  generationConfig?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The request body (shared by generateContent and countTokens). */
export function encodeBody(req: ChatRequest, model: string): Converted<GeminiRequestBody> {
  // Prompt-caching markers have no Gemini equivalent (its caching is `cachedContent`).
  const warnings: Warning[] = cacheControlWarnings({ ...req, tools: undefined });
  const body: GeminiRequestBody = { contents: encodeContents(req.messages, model, warnings) };
  const system = encodeSystem(req, warnings);
  if (system.length > 0) body.systemInstruction = { parts: system };
  const tools = encodeTools(req, warnings);
  if (tools.length > 0) body.tools = tools;
  const toolConfig = req.toolChoice && encodeToolChoice(req.toolChoice, warnings);
  if (toolConfig) body.toolConfig = { functionCallingConfig: toolConfig };
  if (req.parallelToolCalls === false) warnings.push({ code: 'dropped', path: 'parallelToolCalls' });
  const gc = encodeGenerationConfig(req, model, warnings);
  if (req.user !== undefined) warnings.push({ code: 'dropped', path: 'user' });
  if (req.metadata !== undefined) warnings.push({ code: 'dropped', path: 'metadata' });
  replayExtras(req, body, gc, warnings);
  if (Object.keys(gc).length > 0) body.generationConfig = gc;
  return { value: body, warnings };
}

function encodeSystem(req: ChatRequest, warnings: Warning[]): Array<{ text: string }> {
  const system: Array<{ text: string }> = [];
  req.system.forEach((p, i) => {
    if (p.type === 'text') {
      if (p.text) system.push({ text: p.text });
    } else warnings.push({ code: 'dropped', path: `system[${i}]`, detail: p.type, lossy: true });
  });
  return system;
}

/** Function declarations, then the hosted tools. */
function encodeTools(req: ChatRequest, warnings: Warning[]): Record<string, unknown>[] {
  const tools: Record<string, unknown>[] = [];
  if (req.tools && req.tools.length > 0) {
    const declarations = req.tools.map((tool, i) => {
      const fd: Record<string, unknown> = { name: tool.name };
      if (tool.description !== undefined) fd.description = tool.description;
      const params = tool.parameters;
      const empty =
        !params ||
        (Object.keys(params.properties ?? {}).length === 0 && params.$ref === undefined && params.anyOf === undefined);
      if (!empty) {
        const compiled = compileSchema(params, `tools[${i}].parameters`);
        fd.parameters = compiled.value;
        warnings.push(...compiled.warnings);
      }
      if (tool.strict) warnings.push({ code: 'dropped', path: `tools[${i}].strict` });
      if (tool.cache) warnings.push({ code: 'dropped', path: `tools[${i}].cache_control` });
      warnings.push(...toolExtrasFor(tool, i, 'gemini').warnings);
      return fd;
    });
    tools.push({ functionDeclarations: declarations });
  }
  for (const native of req.nativeTools ?? []) {
    if (native.dialect === 'gemini') tools.push(native.definition);
    else if (native.web) tools.push(encodeWebTool(native.web, native.path ?? `tools.${nativeToolLabel(native)}`, warnings));
    else {
      const label = nativeToolLabel(native);
      warnings.push(native.path ? { code: 'dropped', path: native.path, detail: label, lossy: true } : { code: 'dropped', path: `tools.${label}`, lossy: true });
    }
  }
  return tools;
}

/** `toolConfig.functionCallingConfig`; undefined when Gemini has no way to say it. */
function encodeToolChoice(tc: NonNullable<ChatRequest['toolChoice']>, warnings: Warning[]): Record<string, unknown> | undefined {
  switch (tc.type) {
    case 'auto':
      return { mode: 'AUTO' };
    case 'none':
      return { mode: 'NONE' };
    case 'required':
      return { mode: 'ANY' };
    case 'tool':
      return { mode: 'ANY', allowedFunctionNames: [tc.name] };
    case 'allowed':
      // allowedFunctionNames is only honoured with ANY (must call) or VALIDATED (may call).
      return { mode: tc.mode === 'required' ? 'ANY' : 'VALIDATED', allowedFunctionNames: tc.names };
    case 'web':
      // Google Search cannot be forced: the model searches when the prompt asks it.
      warnings.push({ code: 'approximated', path: 'toolChoice', detail: 'web search→auto' });
      return undefined;
  }
}

/** Sampling, output format and thinking: `generationConfig`. */
function encodeGenerationConfig(req: ChatRequest, model: string, warnings: Warning[]): Record<string, unknown> {
  const gc: Record<string, unknown> = {};
  if (req.maxOutputTokens !== undefined) gc.maxOutputTokens = req.maxOutputTokens;
  if (req.temperature !== undefined) gc.temperature = req.temperature;
  if (req.topP !== undefined) gc.topP = req.topP;
  if (req.topK !== undefined) gc.topK = req.topK;
  if (req.seed !== undefined) gc.seed = req.seed;
  if (req.presencePenalty !== undefined) gc.presencePenalty = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) gc.frequencyPenalty = req.frequencyPenalty;
  if (req.candidateCount !== undefined) gc.candidateCount = req.candidateCount;
  if (req.stop && req.stop.length > 0) {
    if (req.stop.length > 5) warnings.push({ code: 'clamped', path: 'stop', detail: '5', lossy: true });
    gc.stopSequences = req.stop.slice(0, 5);
  }
  if (req.logprobs !== undefined) gc.responseLogprobs = req.logprobs;
  if (req.topLogprobs !== undefined) gc.logprobs = req.topLogprobs;
  if (req.modalities && req.modalities.length > 0) gc.responseModalities = req.modalities.map((m) => m.toUpperCase());

  const rf = req.responseFormat;
  if (rf?.type === 'json') gc.responseMimeType = 'application/json';
  else if (rf?.type === 'json-schema') {
    gc.responseMimeType = 'application/json';
    const compiled = compileSchema(rf.schema, 'response_format.schema');
    gc.responseSchema = compiled.value;
    warnings.push(...compiled.warnings);
  }
  const thinking = req.reasoning && encodeThinking(req.reasoning, model);
  if (thinking && Object.keys(thinking).length > 0) gc.thinkingConfig = thinking;
  return gc;
}

function encodeThinking(r: NonNullable<ChatRequest['reasoning']>, model: string): Record<string, unknown> {
  const thinking: Record<string, unknown> = {};
  if (r.enabled === false) thinking.thinkingBudget = 0;
  else if (r.budgetTokens !== undefined) thinking.thinkingBudget = r.budgetTokens;
  else if (r.effort) {
    if (requiresCallSignatures(model)) thinking.thinkingLevel = r.effort.toUpperCase();
    else thinking.thinkingBudget = EFFORT_BUDGET[r.effort];
  }
  if (r.includeThoughts !== undefined && r.enabled !== false) thinking.includeThoughts = r.includeThoughts;
  return thinking;
}

/** Caller-dialect fields: replayed when they are Gemini's own (`generationConfig.x` into `gc`), else one warning each. */
function replayExtras(req: ChatRequest, body: GeminiRequestBody, gc: Record<string, unknown>, warnings: Warning[]): void {
  const extras = extrasFor(req, 'gemini');
  warnings.push(...extras.warnings);
  for (const [key, value] of Object.entries(extras.fields)) {
    if (value === undefined) continue;
    const dot = key.indexOf('.');
    if (dot < 0) {
      body[key] = value;
      continue;
    }
    const head = key.slice(0, dot);
    const rest = key.slice(dot + 1);
    if (head === 'generationConfig') gc[rest] = value;
    else {
      const obj = (body[head] ?? {}) as Record<string, unknown>;
      body[head] = { ...obj, [rest]: value };
    }
  }
}

export function encodeRequest(req: ChatRequest, target: UpstreamTarget, _ctx: TranslateContext): Converted<UpstreamHttpRequest> {
  const path = methodPath(target, req.stream ? 'streamGenerateContent?alt=sse' : 'generateContent');
  const { value, warnings } = encodeBody(req, modelName(target.model));
  return {
    value: {
      method: 'POST',
      path,
      headers: upstreamHeaders(target),
      body: jsonBody(value, 'contents', target.sent),
      stream: req.stream,
    },
    warnings,
  };
}
