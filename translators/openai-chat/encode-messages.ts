/** Canonical `system` + `messages` → Chat Completions `messages[]` (upstream side). */
import {
  assertNever,
  ProxyError,
  type ChatRequest,
  type Message,
  type Part,
  type ToolResultPart,
  type Warning,
} from '../../src/canonical/index.ts';
import { deepFreeze, isFrozenWhole } from '../../src/kit/index.ts';
import type { UpstreamOptions } from '../types.ts';
import { alphanumericIds, joinTexts } from './host-quirks.ts';
import { audioFormatOf, toDataUrl } from './media.ts';

export type OpenAIChatWireMessage = Record<string, unknown>;
type WirePart = Record<string, unknown>;

function unsupported(message: string, param: string): ProxyError {
  return new ProxyError('unsupported', message, { param });
}

/** The host's knobs for one request, with its tool-call ids mapped if the host needs that. */
interface Encoding {
  warnings: Warning[];
  options: UpstreamOptions;
  id: (id: string) => string;
  /** What a message's encoding depends on besides the message (`keepKeyOf`); none: nothing kept. */
  keepKey?: string;
}

/**
 * One text part → a string; several → an array of text parts (exact round trip), or for a host
 * that takes only strings one string with a blank line between the parts.
 */
function textContent(texts: string[], e: Encoding): string | WirePart[] {
  if (texts.length === 1) return texts[0]!;
  return e.options.textContent === 'string' ? joinTexts(texts) : texts.map((text) => ({ type: 'text', text }));
}

/** A user-message part → a wire content part, or `undefined` when it has no place there. */
function encodeUserPart(part: Part, path: string, warnings: Warning[]): WirePart | undefined {
  switch (part.type) {
    case 'text':
    case 'refusal':
      return { type: 'text', text: part.text };
    case 'image': {
      const s = part.source;
      let url: string;
      if (s.type === 'url') url = s.url;
      else if (s.type === 'base64') url = toDataUrl(s.mediaType, s.data);
      else throw unsupported('Chat Completions cannot take an image by file id.', path);
      return { type: 'image_url', image_url: { url, ...(part.detail !== undefined ? { detail: part.detail } : {}) } };
    }
    case 'audio': {
      const s = part.source;
      const format = audioFormatOf(part.format, s.mediaType);
      if (s.type !== 'base64' || !format) {
        throw unsupported('Chat Completions takes audio input only as inline base64 wav or mp3.', path);
      }
      return { type: 'input_audio', input_audio: { data: s.data, format } };
    }
    case 'file': {
      const s = part.source;
      const filename = part.filename ?? part.title;
      const named = filename !== undefined ? { filename } : {};
      if (s.type === 'base64') return { type: 'file', file: { file_data: toDataUrl(s.mediaType, s.data), ...named } };
      if (s.type === 'file-id') return { type: 'file', file: { file_id: s.id, ...named } };
      throw unsupported('Chat Completions cannot take a file by URL; send it inline.', path);
    }
    case 'tool-call':
    case 'reasoning':
      warnings.push({ code: 'dropped', path, detail: `${part.type} in a user message`, lossy: true });
      return undefined;
    case 'tool-result':
      return undefined; // handled by the caller: becomes a `tool` message
    case 'web-search':
      warnings.push({ code: 'dropped', path, detail: 'web-search' });
      return undefined;
    default:
      return assertNever(part, 'part');
  }
}

function encodeToolResult(part: ToolResultPart, path: string, e: Encoding, carryOver: WirePart[]): OpenAIChatWireMessage {
  const { warnings } = e;
  const texts: string[] = [];
  part.content.forEach((inner, k) => {
    if (inner.type === 'text') texts.push(inner.text);
    else {
      // Tool messages take only text: other parts follow in a user message.
      const wire = encodeUserPart(inner, `${path}.content[${k}]`, warnings);
      if (wire) {
        carryOver.push(wire);
        warnings.push({ code: 'approximated', path: `${path}.content[${k}]`, detail: 'moved to a user message' });
      }
    }
  });
  if (part.isError) warnings.push({ code: 'dropped', path: `${path}.isError` });
  return { role: 'tool', tool_call_id: e.id(part.callId), content: texts.length === 0 ? '' : textContent(texts, e) };
}

function encodeUser(m: Message, at: string, e: Encoding): OpenAIChatWireMessage[] {
  const { warnings } = e;
  const out: OpenAIChatWireMessage[] = [];
  const carryOver: WirePart[] = [];
  const parts: WirePart[] = [];
  m.content.forEach((part, j) => {
    const path = `${at}.content[${j}]`;
    if (part.type === 'tool-result') out.push(encodeToolResult(part, path, e, carryOver));
    else {
      const wire = encodeUserPart(part, path, warnings);
      if (wire) parts.push(wire);
    }
  });
  const all = [...carryOver, ...parts];
  if (all.length > 0 || out.length === 0) {
    const onlyText = all.every((p) => p['type'] === 'text');
    out.push({
      role: 'user',
      content: all.length === 0 ? '' : onlyText ? textContent(all.map((p) => p['text'] as string), e) : all,
      ...(m.name !== undefined ? { name: m.name } : {}),
    });
  }
  return out;
}

function encodeAssistant(m: Message, at: string, e: Encoding): OpenAIChatWireMessage {
  const { warnings } = e;
  const texts: string[] = [];
  const thoughts: string[] = [];
  const refusals: string[] = [];
  const toolCalls: WirePart[] = [];
  let audio: { id: string } | undefined;
  m.content.forEach((part, j) => {
    const path = `${at}.content[${j}]`;
    switch (part.type) {
      case 'text':
        texts.push(part.text);
        if (part.signature) warnings.push({ code: 'signature-not-replayed', path });
        break;
      case 'refusal':
        refusals.push(part.text);
        break;
      case 'tool-call':
        toolCalls.push({ id: e.id(part.id), type: 'function', function: { name: part.name, arguments: part.arguments } });
        if (part.signature) warnings.push({ code: 'signature-not-replayed', path });
        break;
      case 'reasoning':
        // OpenAI takes no reasoning back (a host that needs it gets the text: `replayReasoning`);
        // signed blocks are the vendor's to replay.
        if (e.options.replayReasoning && part.text) thoughts.push(part.text);
        if (part.signature || part.redacted) warnings.push({ code: 'signature-not-replayed', path });
        break;
      case 'audio':
        if (part.source.type === 'file-id') audio = { id: part.source.id };
        else warnings.push({ code: 'dropped', path, detail: 'audio in an assistant message', lossy: true });
        break;
      case 'image':
      case 'file':
      case 'tool-result':
        warnings.push({ code: 'dropped', path, detail: `${part.type} in an assistant message`, lossy: true });
        break;
      case 'web-search':
        // Chat has no search in its history: the answer that used it stays.
        warnings.push({ code: 'dropped', path, detail: 'web-search' });
        break;
      default:
        assertNever(part, 'part');
    }
  });
  const msg: OpenAIChatWireMessage = {
    role: 'assistant',
    content: texts.length > 0 ? textContent(texts, e) : toolCalls.length > 0 || refusals.length > 0 || audio ? null : '',
  };
  // DeepSeek thinking mode: a tool-call turn must carry its reasoning back (separate thoughts kept apart).
  if (thoughts.length > 0) msg['reasoning_content'] = joinTexts(thoughts);
  if (m.name !== undefined) msg['name'] = m.name;
  if (refusals.length > 0) msg['refusal'] = refusals.join('');
  if (toolCalls.length > 0) msg['tool_calls'] = toolCalls;
  if (audio) msg['audio'] = audio;
  return msg;
}

/** Every tool-call id of a request, calls and results, in order (for a host's id rule). */
function toolCallIds(req: ChatRequest): string[] {
  // Stryker disable next-line ArrayDeclaration: an extra id that no part has only takes a hash no other id meets (a collision of two 9-character hashes)
  const ids: string[] = [];
  for (const m of req.messages) {
    for (const p of m.content) {
      if (p.type === 'tool-call') ids.push(p.id);
      // Stryker disable next-line ConditionalExpression: another part's `callId` is undefined, which no part's id looks up
      if (p.type === 'tool-result') ids.push(p.callId);
    }
  }
  return ids;
}

/**
 * What one message's wire messages depend on besides the message: the host's knobs that
 * `encodeUser` and `encodeAssistant` read (`textContent`, `replayReasoning`). Undefined, so that
 * nothing is kept, when its tool-call ids are mapped: that mapping depends on every id of the
 * request (a hash that collides with another id is salted again).
 */
function keepKeyOf(options: UpstreamOptions): string | undefined {
  if (options.toolCallIds === 'alphanumeric-9') return undefined;
  // Stryker disable next-line EqualityOperator,StringLiteral: the key only has to tell the four combinations of knobs apart, which each such mutant still does
  return `${options.textContent === 'string' ? 'string' : 'parts'}${options.replayReasoning ? '+reasoning' : ''}`;
}

/**
 * The wire messages of canonical messages frozen whole (an Anthropic caller's kept turns decode
 * to the same frozen message turn after turn: translators/anthropic/decode-request.ts), by the
 * knobs they were made with. A message's wire messages are a function of the message and those
 * knobs when encoding it warns of nothing (`at` only names what is reported or refused), so an
 * unchanged message is encoded once and the body sent upstream holds the same objects as last
 * turn (src/kit/json-body.ts reuses their text by identity). Kept frozen, so never changed.
 */
const encodedMessages = new WeakMap<object, Map<string, readonly OpenAIChatWireMessage[]>>();

function encodeMessage(m: Message, at: string, e: Encoding): readonly OpenAIChatWireMessage[] {
  const key = e.keepKey;
  const byKey = key !== undefined && isFrozenWhole(m) ? (encodedMessages.get(m) ?? new Map()) : undefined;
  const kept = byKey?.get(key!);
  if (kept) return kept;
  const before = e.warnings.length;
  const wire = m.role === 'user' ? encodeUser(m, at, e) : [encodeAssistant(m, at, e)];
  if (byKey && e.warnings.length === before) {
    deepFreeze(wire);
    byKey.set(key!, wire);
    encodedMessages.set(m, byKey);
  }
  return wire;
}

export function encodeMessages(req: ChatRequest, warnings: Warning[], options: UpstreamOptions = {}): OpenAIChatWireMessage[] {
  const e: Encoding = {
    warnings,
    options,
    id: options.toolCallIds === 'alphanumeric-9' ? alphanumericIds(toolCallIds(req)) : (id) => id,
    keepKey: keepKeyOf(options),
  };
  const out: OpenAIChatWireMessage[] = [];
  const systemTexts: string[] = [];
  req.system.forEach((part, j) => {
    if (part.type === 'text') systemTexts.push(part.text);
    else warnings.push({ code: 'dropped', path: `system[${j}]`, detail: part.type, lossy: true });
  });
  if (systemTexts.length > 0) out.push({ role: 'system', content: textContent(systemTexts, e) });
  req.messages.forEach((m, i) => out.push(...encodeMessage(m, `messages[${i}]`, e)));
  return out;
}
