/**
 * Caller side: `tools`, `generation_config` (with `tool_choice` and thinking) and
 * `response_format` → canonical.
 *
 * Hosted Google tools are `NativeTool`s: the ones `generateContent` also has (Google Search, code
 * execution, URL context, Maps, file search, retrieval, computer use) in that API's shape, dialect
 * `gemini` (`{"googleSearch": {…}}`), so a Gemini upstream of either API keeps them; the others
 * (`mcp_server`) as they came, dialect `gemini-interactions`. Google Search and URL context are
 * also web tools (`NativeTool.web`), which another vendor's upstream gets as its own hosted
 * search or fetch; any other upstream drops the rest with a lossy warning naming `tools[i]`
 * (refused in strict mode).
 */
import type { NativeTool, ReasoningConfig, ResponseFormat, Tool, ToolChoice, WebTool } from '../../src/canonical/index.ts';
import { invalid, isRecord, parseAt } from './decode-validate.ts';
import {
  FUNCTION_TOOL_FIELDS,
  HOSTED_TOOL_KEYS,
  FunctionToolSchema,
  GenerationConfigSchema,
  TextResponseFormatSchema,
  ToolChoiceSchema,
  ToolHeadSchema,
} from './wire.ts';
import { decodeWebTool } from '../vendor/google/index.ts';

function webOf(key: string): { web?: WebTool } {
  const web = decodeWebTool(key);
  return web ? { web } : {};
}

export function decodeTools(raw: readonly unknown[] | null | undefined): { tools?: Tool[]; nativeTools?: NativeTool[] } {
  if (!raw) return {};
  const tools: Tool[] = [];
  const nativeTools: NativeTool[] = [];
  raw.forEach((t, i) => {
    const at = `tools[${i}]`;
    const { type } = parseAt(ToolHeadSchema, t, at);
    if (type !== 'function') {
      const { type: _type, ...options } = t as Record<string, unknown>;
      const key = HOSTED_TOOL_KEYS[type];
      nativeTools.push(
        key
          ? { dialect: 'gemini', definition: { [key]: options }, path: at, ...webOf(key) }
          : { dialect: 'gemini-interactions', definition: t as Record<string, unknown>, path: at },
      );
      return;
    }
    const f = parseAt(FunctionToolSchema, t, at);
    const fields: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(f)) if (!FUNCTION_TOOL_FIELDS.has(k)) fields[k] = value; // JSON has no undefined
    tools.push({
      name: f.name,
      ...(f.description != null ? { description: f.description } : {}),
      ...(f.parameters != null ? { parameters: f.parameters } : {}),
      ...(Object.keys(fields).length > 0 ? { extras: { dialect: 'gemini-interactions' as const, fields } } : {}),
    });
  });
  return { ...(tools.length > 0 ? { tools } : {}), ...(nativeTools.length > 0 ? { nativeTools } : {}) };
}

/**
 * `tool_choice` → canonical: `any` must call a tool, `validated` may (as generateContent's
 * VALIDATED), `allowed_tools` restricts the names (one name under `any` forces that tool).
 */
export function decodeToolChoice(raw: unknown): ToolChoice | undefined {
  if (raw == null) return undefined;
  const c = parseAt(ToolChoiceSchema, raw, 'generation_config.tool_choice');
  if (typeof c === 'string') {
    return c === 'any' ? { type: 'required' } : c === 'none' ? { type: 'none' } : { type: 'auto' };
  }
  const mode = c.allowed_tools.mode; // none given: as 'auto' (neither 'none' nor 'any')
  const names = c.allowed_tools.tools ?? [];
  if (mode === 'none') return { type: 'none' };
  if (names.length === 0) return mode === 'any' ? { type: 'required' } : { type: 'auto' };
  if (mode === 'any') return names.length === 1 ? { type: 'tool', name: names[0]! } : { type: 'allowed', names, mode: 'required' };
  return { type: 'allowed', names, mode: 'auto' };
}

export interface DecodedConfig {
  maxOutputTokens?: number;
  stop?: string[];
  seed?: number;
  temperature?: number;
  topP?: number;
  toolChoice?: ToolChoice;
  reasoning?: ReasoningConfig;
  /** Keys without a canonical home, as `generation_config.<key>` extras. */
  extras: Record<string, unknown>;
}

export function decodeGenerationConfig(raw: unknown): DecodedConfig {
  const out: DecodedConfig = { extras: {} };
  if (raw == null) return out;
  const gc = parseAt(GenerationConfigSchema, raw, 'generation_config');
  if (gc.max_output_tokens != null) out.maxOutputTokens = gc.max_output_tokens;
  if (gc.stop_sequences != null) out.stop = gc.stop_sequences;
  if (gc.seed != null) out.seed = gc.seed;
  if (gc.temperature != null) out.temperature = gc.temperature;
  if (gc.top_p != null) out.topP = gc.top_p;
  const choice = decodeToolChoice(gc.tool_choice);
  if (choice) out.toolChoice = choice;
  const reasoning: ReasoningConfig = {};
  if (gc.thinking_level != null) reasoning.effort = gc.thinking_level;
  if (gc.thinking_summaries != null) reasoning.includeThoughts = gc.thinking_summaries === 'auto';
  if (Object.keys(reasoning).length > 0) out.reasoning = reasoning;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!(key in GenerationConfigSchema.entries) && value != null) out.extras[`generation_config.${key}`] = value;
  }
  return out;
}

export interface DecodedFormat {
  responseFormat?: ResponseFormat;
  modalities?: Array<'text' | 'audio' | 'image'>;
  /** The caller's own `response_format`, kept when canonical cannot say all of it. */
  raw?: unknown;
}

function textFormat(raw: unknown, at: string): { format?: ResponseFormat; exact: boolean } {
  const f = parseAt(TextResponseFormatSchema, raw, at);
  const known = Object.keys(f).every((k) => k === 'type' || k === 'mime_type' || k === 'schema');
  const mime = f.mime_type ?? undefined;
  if (mime === 'application/json') {
    return { format: f.schema ? { type: 'json-schema', schema: f.schema } : { type: 'json' }, exact: known };
  }
  if (f.schema) throw invalid(`Invalid value at '${at}.mime_type': a 'schema' needs mime_type 'application/json'.`, `${at}.mime_type`);
  return { format: mime === undefined || mime === 'text/plain' ? { type: 'text' } : undefined, exact: known && (mime === undefined || mime === 'text/plain') };
}

/** `response_format`: one format or a list (one per output modality). */
export function decodeResponseFormat(raw: unknown): DecodedFormat {
  if (raw == null) return {};
  if (!Array.isArray(raw)) {
    if (!isRecord(raw)) throw invalid(`Invalid value at 'response_format': expected an object or a list.`, 'response_format');
    if (raw['type'] !== 'text') return raw['type'] === 'image' || raw['type'] === 'audio' ? { modalities: [raw['type']], raw } : { raw };
    const { format, exact } = textFormat(raw, 'response_format');
    return { ...(format ? { responseFormat: format } : {}), ...(exact ? {} : { raw }) };
  }
  const out: DecodedFormat = {};
  const modalities: Array<'text' | 'audio' | 'image'> = [];
  let exact = true;
  raw.forEach((entry, i) => {
    const at = `response_format[${i}]`;
    const { type } = parseAt(ToolHeadSchema, entry, at);
    if (type === 'text') {
      const t = textFormat(entry, at);
      if (t.format) out.responseFormat = t.format;
      exact &&= t.exact;
      modalities.push('text');
    } else {
      if (type === 'audio' || type === 'image') modalities.push(type);
      exact = false;
    }
  });
  if (modalities.length > 0 && modalities.some((m) => m !== 'text')) out.modalities = modalities;
  if (!exact || raw.length !== 1) out.raw = raw;
  return out;
}
