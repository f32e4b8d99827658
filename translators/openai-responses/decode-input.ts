/**
 * Caller side: `instructions` + `input` items → canonical `system` + `messages`.
 *
 * Items of the model's side (assistant `message`, `reasoning`, `function_call`,
 * `custom_tool_call`) that follow each other make one assistant message; tool outputs that follow
 * each other make one user message. A system/developer message after the conversation started is
 * moved into `system` (approximated: canonical has one system prompt). `item_reference` is the
 * flow's to resolve from its store before decoding; one that still arrives is a 400. Items of
 * built-in tools (web_search_call, computer_call, mcp_*, …) have no canonical home: dropped and
 * reported (a same-dialect upstream gets them through the passthrough).
 *
 * Compaction: a `compaction_trigger` (the last item only) asks for a compaction instead of a turn
 * (`compact`); a `compaction` item the proxy made (our carrier, src/canonical/carrier.ts) is its
 * summary, as a user turn in its place (`Message.summary`), and what came before it is gone but
 * for the caller's own messages (a stored compaction continued by `previous_response_id` brings
 * its trigger and the history it compacted: they are history, not a new ask). One OpenAI made is readable only by
 * a Responses upstream (`Message.sealed`): encoded back for it, refused for any other.
 */
import {
  decodeCompaction,
  decodeReasoning,
  decodeToolCallId,
  type Message,
  type Part,
  type ReasoningPart,
  type Signature,
  type Warning,
  withoutLentSignatures,
} from '../../src/canonical/index.ts';
import {
  parseDataUrl,
} from '../../src/kit/index.ts';
import { invalid, parseAt } from './validate.ts';
import {
  CompactionItemSchema,
  CustomToolCallItemSchema,
  FunctionCallItemSchema,
  InputItemHeadSchema,
  ItemReferenceSchema,
  InputPartSchema,
  MessageItemSchema,
  ReasoningItemSchema,
  ToolOutputItemSchema,
  type ResponsesInputPart,
} from './wire.ts';

/** The vendor a reasoning item's `encrypted_content` came from: a carrier names it, else OpenAI. */
export function signatureOfEncrypted(value: string): Signature {
  const carried = decodeReasoning(value);
  return carried?.signature ?? carried?.redacted ?? { origin: 'openai', value };
}

const MEDIA_BY_EXTENSION: Record<string, string> = { pdf: 'application/pdf', txt: 'text/plain', md: 'text/markdown', csv: 'text/csv', json: 'application/json', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function mediaTypeOf(filename: string | null | undefined): string {
  return MEDIA_BY_EXTENSION[filename?.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** One content part of a message (or of a tool output) → canonical. */
export function decodeInputPart(p: ResponsesInputPart, param: string): Part {
  switch (p.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: p.text };
    case 'refusal':
      return { type: 'refusal', text: p.refusal };
    case 'input_image': {
      const detail = p.detail ? { detail: p.detail } : {};
      if (p.image_url) {
        const inline = parseDataUrl(p.image_url);
        return { type: 'image', source: inline ? { type: 'base64', ...inline } : { type: 'url', url: p.image_url }, ...detail };
      }
      if (p.file_id) {
        throw invalid(`Invalid value for '${param}.file_id': images by file id are not supported through this proxy; send 'image_url' (a URL or a data URL).`, `${param}.file_id`, 'unsupported_value');
      }
      throw invalid(`Missing required parameter: '${param}.image_url'.`, `${param}.image_url`, 'missing_required_parameter');
    }
    case 'input_file': {
      const named = p.filename ? { filename: p.filename } : {};
      if (p.file_data) {
        const inline = parseDataUrl(p.file_data);
        return { type: 'file', source: inline ? { type: 'base64', ...inline } : { type: 'base64', mediaType: mediaTypeOf(p.filename), data: p.file_data }, ...named };
      }
      if (p.file_url) return { type: 'file', source: { type: 'url', url: p.file_url, mediaType: mediaTypeOf(p.filename ?? p.file_url) }, ...named };
      if (p.file_id) {
        throw invalid(`Invalid value for '${param}.file_id': files by file id are not supported through this proxy; send 'file_data' (a data URL) or 'file_url'.`, `${param}.file_id`, 'unsupported_value');
      }
      throw invalid(`Invalid value for '${param}': expected one of 'file_data', 'file_url' or 'file_id'.`, param);
    }
    case 'input_audio':
      return {
        type: 'audio',
        source: { type: 'base64', mediaType: p.input_audio.format === 'wav' ? 'audio/wav' : 'audio/mpeg', data: p.input_audio.data },
        format: p.input_audio.format,
      };
  }
}

function contentParts(content: string | unknown[], param: string): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((raw, j) => decodeInputPart(parseAt(InputPartSchema, raw, `${param}[${j}]`), `${param}[${j}]`));
}

/**
 * A reasoning item → one part. Another vendor's block comes back whole from its carrier (its own
 * text, which that vendor may have signed, and its signature or redacted data); otherwise the
 * summaries joined, and OpenAI's encrypted content as the signature.
 */
export function reasoningPart(summary: ReadonlyArray<{ text?: string | null }>, encrypted: string | null | undefined, raw?: ReadonlyArray<{ text?: string | null }> | null): ReasoningPart {
  const texts = summary.map((s) => s.text ?? '');
  const text = texts.length > 0 ? texts.join('\n\n') : (raw ?? []).map((c) => c.text ?? '').join('');
  const carried = encrypted ? decodeReasoning(encrypted) : undefined;
  if (carried?.redacted) return { type: 'reasoning', text: carried.text, redacted: carried.redacted };
  if (carried?.signature) return { type: 'reasoning', text: carried.text || text, signature: carried.signature };
  return { type: 'reasoning', text, ...(encrypted ? { signature: { origin: 'openai' as const, value: encrypted } } : {}) };
}

/** The index of the last `compaction` item the proxy made, or -1. */
function lastOwnCompaction(input: readonly unknown[]): number {
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i] as { type?: unknown; encrypted_content?: unknown } | null;
    if (item && item.type === 'compaction' && typeof item.encrypted_content === 'string' && decodeCompaction(item.encrypted_content)) return i;
  }
  return -1;
}

/** A `function_call` or `custom_tool_call` item as a tool call. */
function toolCallPart(raw: unknown, at: string, custom: boolean): Part {
  const call = custom
    ? (({ input, ...rest }) => ({ ...rest, arguments: input }))(parseAt(CustomToolCallItemSchema, raw, at))
    : parseAt(FunctionCallItemSchema, raw, at);
  const { id, signature } = decodeToolCallId(call.call_id);
  return {
    type: 'tool-call',
    id,
    name: call.name,
    arguments: call.arguments,
    ...(custom ? { custom: true as const } : {}),
    ...(signature ? { signature } : {}),
  };
}

/** A `function_call_output` or `custom_tool_call_output` item as a tool result. */
function toolResultPart(raw: unknown, at: string, custom: boolean): Part {
  const out = parseAt(ToolOutputItemSchema, raw, at);
  const content = contentParts(out.output, `${at}.output`);
  return { type: 'tool-result', callId: decodeToolCallId(out.call_id).id, content, ...(custom ? { custom: true as const } : {}) };
}

/** A `compaction` item: ours, as the summary it carries; another's, sealed (only a Responses upstream can read it). */
function compactionMessage(raw: unknown, at: string): Message {
  const item = parseAt(CompactionItemSchema, raw, at);
  const carried = decodeCompaction(item.encrypted_content);
  if (carried) return { role: 'user', content: [{ type: 'text', text: carried.summary }], summary: true };
  return { role: 'user', content: [], sealed: { dialect: 'openai-responses', data: item.encrypted_content } };
}

export interface DecodedInput {
  system: Part[];
  messages: Message[];
  /** The last item is a `compaction_trigger`. */
  compact?: true;
}

export function decodeInput(instructions: string | null | undefined, input: string | unknown[] | undefined, warnings: Warning[]): DecodedInput {
  const system: Part[] = instructions ? [{ type: 'text', text: instructions }] : [];
  const messages: Message[] = [];
  const append = (role: Message['role'], parts: Part[], merge: boolean) => {
    const last = messages.at(-1);
    if (merge && last?.role === role && lastKind === role) last.content.push(...parts);
    else messages.push({ role, content: parts });
  };
  /** What the last message collects: model-side items, or tool outputs (merged), or a plain message. */
  let lastKind: 'assistant' | 'user' | 'message' | undefined;

  if (typeof input === 'string') return { system, messages: [{ role: 'user', content: [{ type: 'text', text: input }] }] };
  let compact: true | undefined;
  // Our last compaction stands for what came before it: of that, only the caller's own messages
  // (user, system, developer) are kept, as a compaction's output lists them.
  const compactedBefore = lastOwnCompaction(input ?? []);

  (input ?? []).forEach((raw, i) => {
    const at = `input[${i}]`;
    const head = parseAt(InputItemHeadSchema, raw, at);
    const type = head.type ?? (head.role !== undefined ? 'message' : undefined);
    if (i < compactedBefore && !(type === 'message' && head.role !== 'assistant')) return;
    switch (type) {
      case 'message': {
        const m = parseAt(MessageItemSchema, raw, at);
        const parts = contentParts(m.content, `${at}.content`);
        if (m.role === 'system' || m.role === 'developer') {
          if (messages.length > 0) warnings.push({ code: 'approximated', path: at, detail: `${m.role} message moved into the system prompt` });
          system.push(...parts);
          return;
        }
        if (m.role === 'assistant') {
          append('assistant', parts, true);
          lastKind = 'assistant';
        } else {
          append('user', parts, false);
          lastKind = 'message';
        }
        return;
      }
      case 'reasoning': {
        const r = parseAt(ReasoningItemSchema, raw, at);
        append('assistant', [reasoningPart(r.summary, r.encrypted_content, r.content)], true);
        lastKind = 'assistant';
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
        append('assistant', [toolCallPart(raw, at, type === 'custom_tool_call')], true);
        lastKind = 'assistant';
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        append('user', [toolResultPart(raw, at, type === 'custom_tool_call_output')], lastKind === 'user');
        lastKind = 'user';
        return;
      case 'compaction_trigger':
        if (i !== input!.length - 1) {
          throw invalid(`Invalid value for '${at}': a 'compaction_trigger' item must be the last input item.`, at, 'invalid_value');
        }
        compact = true;
        return;
      case 'compaction':
        messages.push(compactionMessage(raw, at));
        lastKind = 'message';
        return;
      case 'item_reference':
        // Toward a stateless upstream the flow resolves references before decoding (or refuses
        // them: src/flows/state.ts); one still here is bound for a Responses upstream, which
        // gets the request byte for byte and resolves it itself. One without a string id is
        // malformed wherever it goes (the flow leaves it here unresolved).
        parseAt(ItemReferenceSchema, raw, at);
        return;
      case undefined:
        throw invalid(`Missing required parameter: '${at}.type'.`, `${at}.type`, 'missing_required_parameter');
      default:
        warnings.push({ code: 'dropped', path: at, detail: type, lossy: true });
    }
  });
  // A reasoning item carrying the signature of the call after it was lent it (lent-signatures.ts).
  for (const m of messages) if (m.role === 'assistant') m.content = withoutLentSignatures(m.content);
  return compact ? { system, messages, compact } : { system, messages };
}
