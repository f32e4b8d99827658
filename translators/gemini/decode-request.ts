/**
 * Caller side: a Gemini generateContent / streamGenerateContent / countTokens request →
 * canonical `ChatRequest`. Spec: shared/spec/generate-content-and-messages.md part A.
 *
 * Fields without a canonical home (safetySettings, cachedContent, speechConfig, mediaResolution,
 * …) go to `extras` (dialect `gemini`) under dotted keys (`generationConfig.speechConfig`), so a
 * non-Gemini upstream reports each one as a dropped warning and a Gemini upstream replays it.
 */
import * as v from 'valibot';
import {
  asSentence,
  describeIssue,
  ownMessage,
  safeParseAsIs,
} from '../../src/kit/index.ts';
import {
  ProxyError,
  type ChatRequest,
  type Converted,
  type NativeTool,
  type Part,
  type ReasoningConfig,
  type ReasoningEffort,
  type ResponseFormat,
  type Tool,
  type ToolChoice,
  type Warning,
} from '../../src/canonical/index.ts';
import type { CallerInput } from '../types.ts';
import { decodeContents } from './decode-contents.ts';
import { isRecord } from './json.ts';
import { normalizeRequest } from './keys.ts';
import { geminiSchemaToJsonSchema } from './decode-schema.ts';
import { GeminiGenerateContentRequestSchema, issuePath, type GeminiGenerateContentRequest } from './wire.ts';
import { decodeWebTool } from '../vendor/google/index.ts';

const invalid = (message: string, param: string) => new ProxyError('invalid-request', message, { param });

/** Generation-config keys decoded into canonical fields; any other key goes to extras. */
const GENERATION_KEYS = new Set([
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'thinkingConfig',
]);

const TOP_KEYS = new Set(['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig', 'model', 'generateContentRequest']);

export function modelFromParams(params: Record<string, string>): string {
  const model = (params.model ?? '').replace(/^models\//, '');
  if (!model) throw invalid('model is required in the request path.', 'model');
  return model;
}

export function decodeRequest(input: CallerInput): Converted<ChatRequest> {
  const model = modelFromParams(input.params);
  const method = input.params.method ?? 'generateContent';
  if (!isRecord(input.body)) throw invalid('Invalid JSON payload received. Expected an object.', 'body');
  let normalized = normalizeRequest(input.body) as Record<string, unknown>;
  if (method === 'countTokens' && isRecord(normalized.generateContentRequest) && normalized.contents === undefined) {
    normalized = normalized.generateContentRequest;
  }
  const body = checked(normalized);
  const warnings: Warning[] = [];
  const extras: Record<string, unknown> = {};

  const req: ChatRequest = {
    model,
    system: decodeSystem(body.systemInstruction),
    messages: decodeContents(body.contents),
    stream: method === 'streamGenerateContent',
  };
  // Gemini streams always end with usageMetadata: ask other upstreams for stream usage too.
  if (req.stream) req.streamUsage = true;

  decodeTools(body, req, extras, warnings);
  decodeGenerationConfig(body.generationConfig, req, extras);

  if (body.safetySettings !== undefined) extras.safetySettings = body.safetySettings;
  if (body.cachedContent !== undefined) extras.cachedContent = body.cachedContent;
  for (const [key, value] of Object.entries(body)) {
    if (!TOP_KEYS.has(key) && key !== 'safetySettings' && key !== 'cachedContent' && value !== undefined) {
      extras[key] = value;
    }
  }
  if (Object.keys(extras).length > 0) req.extras = { dialect: 'gemini', fields: extras };
  return { value: req, warnings };
}

/** The body as it is when it passes (no copy), else valibot's first issue as Gemini words it. */
function checked(normalized: Record<string, unknown>): GeminiGenerateContentRequest {
  const parsed = safeParseAsIs(v.safeParse, GeminiGenerateContentRequestSchema, normalized);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const param = issuePath(issue) || 'body';
  const own = ownMessage(issue);
  throw invalid(own !== undefined ? `Invalid value at '${param}': ${own}` : asSentence(describeIssue(GeminiGenerateContentRequestSchema, issue, { whole: 'the request body' })), param);
}

function decodeSystem(system: GeminiGenerateContentRequest['systemInstruction']): Part[] {
  if (system === undefined) return [];
  if (typeof system === 'string') return system ? [{ type: 'text', text: system }] : [];
  const out: Part[] = [];
  (system.parts ?? []).forEach((p, i) => {
    if (typeof p.text !== 'string') {
      throw invalid('systemInstruction accepts text parts only.', `systemInstruction.parts[${i}]`);
    }
    if (p.text !== '') out.push({ type: 'text', text: p.text });
  });
  return out;
}

function decodeTools(
  body: GeminiGenerateContentRequest,
  req: ChatRequest,
  extras: Record<string, unknown>,
  warnings: Warning[],
): void {
  const tools: Tool[] = [];
  const nativeTools: NativeTool[] = [];
  (body.tools ?? []).forEach((tool, ti) => {
    for (const [key, value] of Object.entries(tool)) {
      if (value === undefined) continue;
      if (key !== 'functionDeclarations') {
        const web = decodeWebTool(key);
        nativeTools.push({ dialect: 'gemini', definition: { [key]: value }, path: `tools[${ti}].${key}`, ...(web ? { web } : {}) });
        continue;
      }
      (tool.functionDeclarations ?? []).forEach((fd, fi) => {
        const t: Tool = { name: fd.name };
        if (fd.description !== undefined) t.description = fd.description;
        // Both forms may carry OpenAPI habits (upper-case types, nullable): decode-schema.ts.
        const schema = fd.parametersJsonSchema ?? fd.parameters;
        if (schema !== undefined) t.parameters = geminiSchemaToJsonSchema(schema);
        for (const k of ['response', 'responseJsonSchema', 'behavior']) {
          if ((fd as Record<string, unknown>)[k] !== undefined) {
            warnings.push({ code: 'dropped', path: `tools[${ti}].functionDeclarations[${fi}].${k}` });
          }
        }
        tools.push(t);
      });
    }
  });
  if (tools.length > 0) req.tools = tools;
  if (nativeTools.length > 0) req.nativeTools = nativeTools;

  const fcc = body.toolConfig?.functionCallingConfig;
  if (fcc) {
    const choice = decodeToolChoice(fcc.mode, fcc.allowedFunctionNames);
    if (choice) req.toolChoice = choice;
  }
  if (body.toolConfig) {
    for (const [key, value] of Object.entries(body.toolConfig)) {
      if (key !== 'functionCallingConfig' && value !== undefined) extras[`toolConfig.${key}`] = value;
    }
  }
}

function decodeToolChoice(mode: string | undefined, names: string[] | undefined): ToolChoice | undefined {
  const allowed = names && names.length > 0 ? names : undefined;
  switch (mode) {
    case 'NONE':
      return { type: 'none' };
    case 'ANY':
      if (allowed?.length === 1) return { type: 'tool', name: allowed[0]! };
      return allowed ? { type: 'allowed', names: allowed, mode: 'required' } : { type: 'required' };
    case 'AUTO':
    case 'VALIDATED':
      return allowed ? { type: 'allowed', names: allowed, mode: 'auto' } : { type: 'auto' };
    default:
      return undefined;
  }
}

const EFFORTS: Record<string, ReasoningEffort> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

function decodeGenerationConfig(
  gc: GeminiGenerateContentRequest['generationConfig'],
  req: ChatRequest,
  extras: Record<string, unknown>,
): void {
  if (!gc) return;
  if (gc.stopSequences !== undefined) req.stop = gc.stopSequences;
  if (gc.candidateCount !== undefined) req.candidateCount = gc.candidateCount;
  if (gc.maxOutputTokens !== undefined) req.maxOutputTokens = gc.maxOutputTokens;
  if (gc.temperature !== undefined) req.temperature = gc.temperature;
  if (gc.topP !== undefined) req.topP = gc.topP;
  if (gc.topK !== undefined) req.topK = gc.topK;
  if (gc.seed !== undefined) req.seed = gc.seed;
  if (gc.presencePenalty !== undefined) req.presencePenalty = gc.presencePenalty;
  if (gc.frequencyPenalty !== undefined) req.frequencyPenalty = gc.frequencyPenalty;
  if (gc.responseLogprobs !== undefined) req.logprobs = gc.responseLogprobs;
  if (gc.logprobs !== undefined) req.topLogprobs = gc.logprobs;

  const format = decodeResponseFormat(gc);
  if (format) req.responseFormat = format;
  else {
    if (gc.responseMimeType !== undefined) extras['generationConfig.responseMimeType'] = gc.responseMimeType;
    if (gc.responseSchema !== undefined) extras['generationConfig.responseSchema'] = gc.responseSchema;
  }

  if (gc.responseModalities !== undefined) {
    const modalities: Array<'text' | 'audio' | 'image'> = [];
    gc.responseModalities.forEach((m, i) => {
      const lower = m.toLowerCase();
      if (lower === 'text' || lower === 'audio' || lower === 'image') modalities.push(lower);
      else throw invalid(`Invalid responseModalities value '${m}'.`, `generationConfig.responseModalities[${i}]`);
    });
    req.modalities = modalities;
  }

  const tc = gc.thinkingConfig;
  if (tc) {
    const reasoning: ReasoningConfig = {};
    if (tc.includeThoughts !== undefined) reasoning.includeThoughts = tc.includeThoughts;
    if (tc.thinkingBudget !== undefined) {
      if (tc.thinkingBudget === 0) reasoning.enabled = false;
      else reasoning.budgetTokens = tc.thinkingBudget;
    }
    const effort = tc.thinkingLevel ? EFFORTS[tc.thinkingLevel.toUpperCase()] : undefined;
    if (effort) reasoning.effort = effort;
    if (Object.keys(reasoning).length > 0) req.reasoning = reasoning;
  }

  for (const [key, value] of Object.entries(gc)) {
    if (!GENERATION_KEYS.has(key) && value !== undefined) extras[`generationConfig.${key}`] = value;
  }
}

function decodeResponseFormat(gc: NonNullable<GeminiGenerateContentRequest['generationConfig']>): ResponseFormat | undefined {
  if (gc.responseJsonSchema !== undefined) return { type: 'json-schema', schema: geminiSchemaToJsonSchema(gc.responseJsonSchema) };
  if (gc.responseSchema !== undefined) {
    if (gc.responseMimeType === 'text/x.enum') return undefined;
    return { type: 'json-schema', schema: geminiSchemaToJsonSchema(gc.responseSchema) };
  }
  if (gc.responseMimeType === 'application/json') return { type: 'json' };
  if (gc.responseMimeType === 'text/plain') return { type: 'text' };
  return undefined;
}
