import type { CacheHint } from './logprobs.ts';
import type { Citation } from './citation.ts';
import type { DialectId, Vendor } from './dialects.ts';

/**
 * Content parts: the building blocks of every message, response choice and tool result.
 * Discriminant is always `type`; values are kebab-case.
 */


/**
 * An opaque, vendor-issued value that must be replayed unchanged to the vendor that issued it
 * (Anthropic thinking signatures, Gemini thought signatures) and never sent to another vendor.
 */
export interface Signature {
  origin: Vendor;
  value: string;
}

/** Binary data either inline (base64) or by reference (URL / file URI). */
export type MediaSource =
  | { type: 'base64'; mediaType: string; data: string }
  | { type: 'url'; url: string; mediaType?: string }
  /** A provider-side file handle (OpenAI `file_id`, Gemini `fileData.fileUri`, Anthropic `file_id`). */
  | { type: 'file-id'; id: string; mediaType?: string };

/** Hints on a part that vendors without the feature drop (with a warning). */
export interface PartHints {
  /** A prompt-caching breakpoint after this part. */
  cache?: CacheHint;
}

export interface TextPart extends PartHints {
  type: 'text';
  text: string;
  /** Gemini may attach a thought signature to a text part. */
  signature?: Signature;
  /** The sources this text cites (Chat and Responses annotations, Anthropic citations). */
  citations?: Citation[];
}

export interface ImagePart extends PartHints {
  type: 'image';
  source: MediaSource;
  /** OpenAI `image_url.detail` (`auto` | `low` | `high`). */
  detail?: string;
}

export interface AudioPart extends PartHints {
  type: 'audio';
  source: MediaSource;
  /** Short format name (`wav`, `mp3`…), when the source dialect gave one. */
  format?: string;
}

/** A document or arbitrary file (PDF, text…). */
export interface FilePart extends PartHints {
  type: 'file';
  source: MediaSource;
  filename?: string;
  title?: string;
}

export interface ToolCallPart extends PartHints {
  type: 'tool-call';
  /** Call id; always set (decoders synthesize one where the wire has none). */
  id: string;
  name: string;
  /**
   * Arguments as JSON text, exactly as generated (may be invalid JSON); for a `custom` call, the
   * raw input text.
   */
  arguments: string;
  /** A call to a freeform tool (`Tool.custom`): `arguments` is raw text, not JSON. */
  custom?: true;
  /** Gemini thought signature attached to the functionCall part. */
  signature?: Signature;
}

export interface ToolResultPart extends PartHints {
  type: 'tool-result';
  callId: string;
  /** Tool name when the wire carries it (Gemini functionResponse, OpenAI `function` role). */
  name?: string;
  content: Part[];
  isError?: boolean;
  /** The result of a freeform tool's call (OpenAI Responses `custom_tool_call_output`). */
  custom?: true;
}

/** Model reasoning: visible thought text, or an opaque redacted block. */
export interface ReasoningPart {
  type: 'reasoning';
  text: string;
  signature?: Signature;
  /** Anthropic `redacted_thinking.data`: opaque, only meaningful to its origin. */
  redacted?: Signature;
}

export interface RefusalPart {
  type: 'refusal';
  text: string;
}

/**
 * A web search or page fetch the upstream ran itself (a hosted tool), with what it found:
 * Anthropic `server_tool_use` + `web_search_tool_result`, a Responses `web_search_call`, Gemini's
 * `groundingMetadata` queries and chunks. The text that uses it cites it (`TextPart.citations`).
 * `raw` keeps it as its dialect wrote it (encrypted results and all), replayed only to that
 * dialect; another dialect shows it in its own shape, never with the first one's opaque values.
 */
export interface WebSearchPart {
  type: 'web-search';
  /** The call's id (made by the decoder where the wire has none). */
  id: string;
  kind: 'search' | 'fetch';
  /** What was searched, in order (Gemini may run several queries for one answer). */
  queries?: string[];
  /** The page read, for a fetch. */
  url?: string;
  /** The pages found or read, in order. */
  results: WebResult[];
  /** The search failed: the vendor's error code (Anthropic `max_uses_exceeded`, `unavailable`…). */
  error?: string;
  raw?: { dialect: DialectId; value: unknown };
}

export interface WebResult {
  url: string;
  title?: string;
  /** How old the page is, as the vendor says it (`"2 days ago"`, a date). */
  pageAge?: string;
}

export type Part =
  | WebSearchPart
  | TextPart
  | ImagePart
  | AudioPart
  | FilePart
  | ToolCallPart
  | ToolResultPart
  | ReasoningPart
  | RefusalPart;

export type PartType = Part['type'];

/** Compile-time exhaustiveness guard for switches over canonical unions. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}

/** Concatenate the text parts of a list (other parts are ignored). */
export function textOf(parts: readonly Part[]): string {
  let out = '';
  for (const p of parts) if (p.type === 'text') out += p.text;
  return out;
}

/**
 * A hosted search in a conversation's history, for an upstream of `dialect`: its own blocks or
 * item when it ran there (replayed as they were), else nothing (another vendor's search cannot be
 * replayed: the answer that used it stays, and the encoder reports the search dropped).
 */
export function ownWebSearch(part: WebSearchPart, dialect: DialectId): unknown {
  return part.raw?.dialect === dialect ? part.raw.value : undefined;
}
