/**
 * Upstream side: canonical tools, tool choice, sampling, reasoning and response format →
 * `tools`, `generation_config` and `response_format` of an Interactions request.
 *
 * Reasoning → `thinking_level` (this API has no budget and no off switch): an effort is the
 * level; a budget is the lowest level whose Gemini budget covers it (minimal 512 · low 1024 ·
 * medium 8192 · high 24576, the table translators/gemini uses the other way), approximated;
 * reasoning turned off is `minimal`, approximated; a dynamic budget (-1) is the API's default.
 * `includeThoughts` → `thinking_summaries: auto | none`.
 */
import {
  assertNever,
  nativeToolLabel,
  toolExtrasFor,
  type ChatRequest,
  type ReasoningConfig,
  type ReasoningEffort,
  type ResponseFormat,
  type ToolChoice,
  type Warning,
} from '../../src/canonical/index.ts';
import { HOSTED_TOOL_KEYS, type GenerationConfig, type InteractionsTool, type InteractionsToolChoice, type ThinkingLevel } from './wire.ts';
import { encodeWebTool } from '../vendor/google/index.ts';

const LEVEL_BUDGETS: Array<[ThinkingLevel, number]> = [
  ['minimal', 512],
  ['low', 1024],
  ['medium', 8192],
  ['high', 24576],
];

const TYPE_OF_KEY: Record<string, string> = Object.fromEntries(Object.entries(HOSTED_TOOL_KEYS).map(([type, key]) => [key, type]));

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A generateContent built-in (`{"googleSearch": {…}}`) → its hosted tool here, if it has one. */
function fromGenerateContent(definition: Record<string, unknown>): InteractionsTool | undefined {
  const entries = Object.entries(definition);
  if (entries.length !== 1) return undefined;
  const [key, options] = entries[0]!;
  const type = TYPE_OF_KEY[key];
  if (!type) return undefined;
  const fields: Record<string, unknown> = {};
  if (options && typeof options === 'object' && !Array.isArray(options)) {
    for (const [k, v] of Object.entries(options)) fields[snake(k)] = v;
  }
  return { ...fields, type };
}

export function encodeTools(req: ChatRequest, warnings: Warning[]): InteractionsTool[] {
  const out: InteractionsTool[] = (req.tools ?? []).map((t, i) => {
    const extras = toolExtrasFor(t, i, 'gemini-interactions');
    warnings.push(...extras.warnings);
    if (t.strict) warnings.push({ code: 'dropped', path: `tools[${i}].strict` });
    return {
      ...extras.fields,
      type: 'function' as const,
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
    };
  });
  (req.nativeTools ?? []).forEach((t, i) => {
    const hosted =
      t.dialect === 'gemini-interactions'
        ? (t.definition as InteractionsTool)
        : t.dialect === 'gemini'
          ? fromGenerateContent(t.definition)
          : t.web && fromGenerateContent(encodeWebTool(t.web, t.path ?? `nativeTools[${i}]`, warnings));
    if (hosted) out.push(hosted);
    else warnings.push({ code: 'dropped', path: t.path ?? `nativeTools[${i}]`, detail: nativeToolLabel(t), lossy: true });
  });
  return out;
}

export function encodeToolChoice(choice: ToolChoice): InteractionsToolChoice {
  switch (choice.type) {
    case 'auto':
    case 'none':
      return choice.type;
    case 'required':
      return 'any';
    case 'tool':
      return { allowed_tools: { mode: 'any', tools: [choice.name] } };
    case 'allowed':
      // As generateContent: names are honoured with `any` (must call) or `validated` (may call).
      return { allowed_tools: { mode: choice.mode === 'required' ? 'any' : 'validated', tools: choice.names } };
    case 'web':
      return 'auto'; // Google Search cannot be forced: the model searches when the prompt asks it
    default:
      return assertNever(choice, 'tool choice');
  }
}

function levelOf(r: ReasoningConfig, warnings: Warning[]): ThinkingLevel | undefined {
  if (r.enabled === false) {
    warnings.push({ code: 'approximated', path: 'reasoning.enabled', detail: 'thinking_level=minimal' });
    return 'minimal';
  }
  if (r.effort) return r.effort satisfies ReasoningEffort;
  const b = r.budgetTokens;
  if (b === undefined || b < 0) return undefined;
  const level = LEVEL_BUDGETS.find(([, max]) => b <= max)?.[0] ?? 'high'; // 0 is within minimal's budget
  warnings.push({ code: 'approximated', path: 'reasoning.budgetTokens', detail: `thinking_level=${level}` });
  return level;
}

export function encodeGenerationConfig(req: ChatRequest, warnings: Warning[]): GenerationConfig {
  const gc: GenerationConfig = {};
  if (req.maxOutputTokens !== undefined) gc.max_output_tokens = req.maxOutputTokens;
  if (req.temperature !== undefined) gc.temperature = req.temperature;
  if (req.topP !== undefined) gc.top_p = req.topP;
  if (req.seed !== undefined) gc.seed = req.seed;
  if (req.stop && req.stop.length > 0) gc.stop_sequences = req.stop;
  if (req.toolChoice) gc.tool_choice = encodeToolChoice(req.toolChoice);
  if (req.reasoning) {
    const level = levelOf(req.reasoning, warnings);
    if (level) gc.thinking_level = level;
    if (req.reasoning.includeThoughts !== undefined && req.reasoning.enabled !== false) {
      gc.thinking_summaries = req.reasoning.includeThoughts ? 'auto' : 'none';
    }
  }
  for (const [path, value] of [['topK', req.topK], ['presencePenalty', req.presencePenalty], ['frequencyPenalty', req.frequencyPenalty], ['logprobs', req.logprobs || undefined], ['topLogprobs', req.topLogprobs]] as const) {
    if (value !== undefined) warnings.push({ code: 'dropped', path, lossy: true });
  }
  if ((req.candidateCount ?? 1) > 1) warnings.push({ code: 'dropped', path: 'candidateCount', lossy: true });
  if (req.parallelToolCalls === false) warnings.push({ code: 'dropped', path: 'parallelToolCalls' });
  return gc;
}

function textFormat(f: ResponseFormat | undefined): Record<string, unknown> {
  if (!f) return { type: 'text' };
  switch (f.type) {
    case 'text':
      return { type: 'text' };
    case 'json':
      return { type: 'text', mime_type: 'application/json' };
    case 'json-schema':
      return { type: 'text', mime_type: 'application/json', schema: f.schema };
    default:
      return assertNever(f, 'response format');
  }
}

/** `response_format`: one text format, or a list when other output modalities are asked for. */
export function encodeResponseFormat(req: ChatRequest): unknown {
  const others = (req.modalities ?? []).filter((m) => m !== 'text');
  if (others.length > 0) {
    const text = req.modalities!.includes('text') || req.responseFormat ? [textFormat(req.responseFormat)] : [];
    return [...text, ...others.map((type) => ({ type }))];
  }
  if (!req.responseFormat || req.responseFormat.type === 'text') return undefined;
  return textFormat(req.responseFormat);
}
