/**
 * The neutral conversation model every dialect decodes into and encodes from.
 */
import type { CacheHint, Logprobs } from './logprobs.ts';
import type { DialectId, Vendor } from './dialects.ts';
import type { Part } from './parts.ts';
import type { WebTool } from './web-tools.ts';


export interface Message {
  role: 'user' | 'assistant';
  content: Part[];
  /** OpenAI `name` on a message (participant name). */
  name?: string;
  /**
   * A user turn that stands for the conversation before it: a compaction the proxy made, brought
   * back by the caller (a Responses `compaction` item), its summary as the text.
   */
  summary?: true;
  /**
   * A compaction only the service of `dialect` can read (OpenAI's `compaction.encrypted_content`),
   * in a message with no content: replayed to that dialect's upstream, refused toward any other
   * (src/flows/plan.ts), never dropped.
   */
  sealed?: { dialect: DialectId; data: string };
}

export interface Tool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (object schema); absent means no parameters. */
  parameters?: Record<string, unknown>;
  /** OpenAI `strict`. */
  strict?: boolean;
  /**
   * A freeform tool (OpenAI Responses `custom`): the model writes its input as raw text, not as
   * JSON arguments, optionally constrained by a grammar; `parameters` is then absent. Calls to it
   * are `tool-call` parts marked `custom`. An upstream without freeform tools gets it as a
   * function taking one string (`lowerCustomTools`, src/flows/custom-tools.ts).
   */
  custom?: { format?: CustomToolFormat };
  cache?: CacheHint;
  /**
   * Fields of the caller's tool definition with no canonical home (Anthropic `defer_loading`,
   * `input_examples`…): replayed only to an upstream of that dialect (see `toolExtrasFor`).
   */
  extras?: Extras;
}

/** What a freeform tool's input must look like: any text, or text a grammar accepts. */
export type CustomToolFormat =
  | { type: 'text' }
  | { type: 'grammar'; syntax: 'lark' | 'regex'; definition: string };

/**
 * A built-in / server tool of one dialect (Anthropic computer/bash/text-editor, Gemini
 * codeExecution / googleSearch, OpenAI web_search_options). Sent only to that dialect, except a
 * hosted web search or fetch (`web`), which every dialect with one writes in its own form.
 */
export interface NativeTool {
  dialect: DialectId;
  /** The tool definition exactly as the wire had it. */
  definition: Record<string, unknown>;
  /** Where the caller's request had it (`tools[2]`), for loss reports and strict-mode errors. */
  path?: string;
  /** A hosted web search or fetch, in neutral terms: another dialect writes its own tool from it. */
  web?: WebTool;
}

/** What a built-in tool is called in a loss report: its name, else its `type` (`web_search`), else its key (`googleSearch`). */
export function nativeToolLabel(t: NativeTool): string {
  const d = t.definition;
  return typeof d.name === 'string' ? d.name : typeof d.type === 'string' ? d.type : (Object.keys(d)[0] ?? t.dialect);
}

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  /** Force this one function. */
  | { type: 'tool'; name: string }
  /** Gemini `ANY` with `allowedFunctionNames`: must call one of these. */
  | { type: 'allowed'; names: string[]; mode: 'auto' | 'required' }
  /**
   * Use the hosted web search or fetch (a `NativeTool.web`), as Claude Code's WebSearch forces
   * Anthropic's `web_search` by name. Vendors that cannot force their hosted tool search when
   * asked to (the request says why); their encoders approximate.
   */
  | { type: 'web'; kind: 'search' | 'fetch' };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | {
      type: 'json-schema';
      name?: string;
      description?: string;
      schema: Record<string, unknown>;
      strict?: boolean;
    };

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

export interface ReasoningConfig {
  /** `false` turns reasoning off explicitly (Anthropic `disabled`, Gemini budget 0). */
  enabled?: boolean;
  effort?: ReasoningEffort;
  /** Token budget (Anthropic `budget_tokens`, Gemini `thinkingBudget`; -1 = dynamic). */
  budgetTokens?: number;
  /** Return thought text/summaries to the caller. */
  includeThoughts?: boolean;
}

export interface Extras {
  /** The dialect these fields belong to: replayed only to an upstream speaking it. */
  dialect: DialectId;
  fields: Record<string, unknown>;
  /**
   * Fields that tune how the answer is made, not what it means (cache keys, `store`, verbosity):
   * replayed like `fields` to an upstream of the dialect, and elsewhere reported dropped without
   * being lossy, so strict mode does not refuse a request for them.
   */
  hints?: Record<string, unknown>;
}

export interface ChatRequest {
  /** The model the caller named (routing may rename it for the upstream). */
  model: string;
  system: Part[];
  messages: Message[];
  tools?: Tool[];
  nativeTools?: NativeTool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** Number of choices / candidates. */
  candidateCount?: number;
  /** Return log probabilities; `topLogprobs` alternatives per token. */
  logprobs?: boolean;
  topLogprobs?: number;
  responseFormat?: ResponseFormat;
  reasoning?: ReasoningConfig;
  /** Output modalities (`text`, `audio`, `image`). */
  modalities?: Array<'text' | 'audio' | 'image'>;
  stream: boolean;
  /** The caller asked for usage in the stream (OpenAI `stream_options.include_usage`). */
  streamUsage?: boolean;
  /** End-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  /** String key/value metadata (OpenAI `metadata`). */
  metadata?: Record<string, string>;
  extras?: Extras;
  /**
   * Answer a compaction of the conversation instead of a turn (Responses `compaction_trigger` as
   * the last input item, `POST /responses/compact`): an upstream of the caller's dialect gets the
   * request as it is; toward any other the proxy makes the summary (src/flows/compaction.ts).
   */
  compact?: true;
  /**
   * Context editing the caller asked of the upstream (Anthropic `context_management.edits`), and
   * the wire object as it came (`raw`), replayed as it is to an upstream of `dialect`; toward any
   * other the proxy applies the edits to the history itself (src/flows/context-edits.ts).
   */
  contextManagement?: { dialect: DialectId; edits: ContextEdit[]; raw: unknown };
  /** What the proxy's context editing cleared from this request (Anthropic `applied_edits`). */
  appliedEdits?: AppliedEdit[];
  /**
   * A compaction the proxy made of this request's conversation before answering it (the caller
   * asked for server-side compaction and the conversation reached its threshold): the caller is
   * shown it ahead of the turn's output (Responses: a `compaction` item first).
   */
  compacted?: Compaction;
}

/** A token threshold, or a count of tool uses. */
export interface EditTrigger {
  unit: 'input-tokens' | 'tool-uses';
  value: number;
}

/**
 * One context edit (Anthropic context editing): `clear-tool-uses` replaces the results of the
 * oldest tool uses (and their inputs, `clearToolInputs`) with a placeholder once the context
 * reaches `trigger`, keeping the last `keep` uses and those of `excludeTools`, and only when at
 * least `clearAtLeast` tokens go; `clear-thinking` removes reasoning from all but the last `keep`
 * assistant turns; `compact` summarises the conversation once the input reaches `trigger` tokens.
 */
export type ContextEdit =
  | { type: 'clear-tool-uses'; trigger?: EditTrigger; keep?: number; clearAtLeast?: number; excludeTools?: string[]; clearToolInputs?: boolean | string[] }
  | { type: 'clear-thinking'; keep?: number | 'all' }
  | { type: 'compact'; trigger?: number; instructions?: string; pause?: boolean };

/** What one edit cleared: tool uses or thinking turns, and the input tokens that went with them. */
export interface AppliedEdit {
  type: 'clear-tool-uses' | 'clear-thinking';
  cleared: number;
  clearedInputTokens: number;
}

/**
 * A compaction the proxy made: one summarising turn's summary, which the caller brings back in
 * place of the conversation it stands for (`Message.summary`).
 */
export interface Compaction {
  /** What any upstream is sent in the conversation's place, framed as a hand-over. */
  summary: string;
  /** The vendor whose model wrote it. */
  origin: Vendor;
  /** The model that wrote it. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** The summarising turn's usage. */
  usage?: Usage;
}

/**
 * Why generation stopped. `raw` keeps the wire value; `stopSequence` the matched sequence.
 * See each dialect's `finish-reason.ts` for its table.
 */
export interface FinishReason {
  unified:
    | 'stop'
    | 'stop-sequence'
    | 'length'
    | 'tool-calls'
    | 'content-filter'
    | 'refusal'
    | 'pause'
    | 'error'
    | 'other';
  raw?: string;
  stopSequence?: string;
}

/**
 * Token usage. Semantics follow OpenAI: `inputTokens` includes cached and cache-written input,
 * `outputTokens` includes reasoning tokens. Dialects with other conventions convert.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  /** The part of `cacheWriteTokens` written to live an hour (Anthropic's 1-hour TTL), when the upstream says. */
  cacheWrite1hTokens?: number;
  reasoningTokens?: number;
  /** What the call cost as the upstream bills it (OpenRouter's `usage.cost`, in its credits). */
  cost?: number;
  /** Set when the numbers are an estimate, not the upstream's count. */
  estimated?: boolean;
}

export interface Choice {
  index: number;
  content: Part[];
  finishReason: FinishReason;
  /** Per-token log probabilities of this choice. */
  logprobs?: Logprobs;
  /** Dialect-specific per-choice fields (safety ratings, annotations…), same-dialect only. */
  extras?: Extras;
}

export interface ChatResponse {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  choices: Choice[];
  usage?: Usage;
  /** Prompt-level block (Gemini `promptFeedback.blockReason`) with no choices. */
  promptBlocked?: { reason: string; raw?: unknown };
  extras?: Extras;
}

/** The result of a conversion: the value plus what it could not carry. */
export interface Converted<T> {
  value: T;
  warnings: Warning[];
}

/**
 * A feature dropped or approximated in translation. `code` is short and stable
 * (`dropped`, `approximated`, `clamped`, `signature-not-replayed`, `estimated`), `path` the field;
 * `not-stored` (path: the store's kind, `memory`, `redis` or `kv`): the answer was served but the
 * state store failed to keep it, so a later reference to it will not resolve.
 */
export interface Warning {
  code: 'dropped' | 'approximated' | 'clamped' | 'signature-not-replayed' | 'estimated' | 'not-stored';
  path: string;
  detail?: string;
  /** Whether strict mode must refuse this (a loss of meaning, not a cosmetic change). */
  lossy?: boolean;
}

/**
 * The request settings an upstream encoder reports by their canonical name when it cannot carry
 * them (`dropped:topK`, `clamped:topLogprobs=20`): the encoder does not know who asked. Each caller
 * dialect says how its wire spells them (`ChatCaller.settingNames`: `top_k`,
 * `generationConfig.topK`), and `inCallerTerms` renames the report so the caller reads its own field.
 */
export type SettingName =
  | 'toolChoice'
  | 'parallelToolCalls'
  | 'maxOutputTokens'
  | 'temperature'
  | 'topP'
  | 'topK'
  | 'stop'
  | 'seed'
  | 'presencePenalty'
  | 'frequencyPenalty'
  | 'candidateCount'
  | 'logprobs'
  | 'topLogprobs'
  | 'responseFormat'
  | 'responseFormat.strict'
  | 'reasoning'
  | 'reasoning.enabled'
  | 'reasoning.effort'
  | 'reasoning.budgetTokens'
  | 'reasoning.includeThoughts'
  | 'modalities'
  | 'user'
  | 'metadata';

/**
 * How one dialect's wire names the settings it has, where it names them otherwise (a setting its
 * wire lacks cannot come from its callers; one it spells as the canonical name is left as it is).
 */
export type SettingNames = Readonly<Partial<Record<SettingName, string>>>;

/** The warnings with every canonical setting name replaced by the caller's own (others unchanged). */
export function inCallerTerms(warnings: readonly Warning[], names: SettingNames): Warning[] {
  return warnings.map((w) => {
    const name = Object.hasOwn(names, w.path) ? names[w.path as SettingName] : undefined;
    return name === undefined ? w : { ...w, path: name };
  });
}

/** Render a warning as its header token, e.g. `dropped:logit_bias`. */
export function warningToken(w: Warning): string {
  return w.detail ? `${w.code}:${w.path}=${w.detail}` : `${w.code}:${w.path}`;
}
