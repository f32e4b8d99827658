/**
 * Upstream side: canonical `system` + `messages` → `instructions` + `input` items.
 *
 * - One system text part is `instructions`; several are a leading `system` message (exact).
 * - User parts → `input_text` / `input_image` / `input_file`; tool results → `function_call_output`
 *   or `custom_tool_call_output` linked by `call_id`.
 * - Assistant parts in order: text and refusals gather in `message` items, tool calls are
 *   `function_call` / `custom_tool_call` items, reasoning signed by OpenAI is a `reasoning` item
 *   carrying its `encrypted_content` (the only form a stateless request can replay); reasoning
 *   signed by another vendor is not replayed (`signature-not-replayed`), unsigned thought text
 *   has no input form and is left out.
 */
import {
  assertNever,
  ownWebSearch,
  ProxyError,
  type ChatRequest,
  type Message,
  type Part,
  type ToolResultPart,
  type Warning,
} from '../../src/canonical/index.ts';
import { deepFreeze, isFrozenWhole } from '../../src/kit/index.ts';
import type { Wire } from './encode-settings.ts';

function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

function unsupported(message: string, param: string): ProxyError {
  return new ProxyError('unsupported', message, { param });
}

/** A part of a user message (or of a tool result) → an input content part. */
function inputPart(p: Part, path: string, warnings: Warning[]): Wire | undefined {
  switch (p.type) {
    case 'text':
    case 'refusal':
      return { type: 'input_text', text: p.text };
    case 'image': {
      const s = p.source;
      const detail = p.detail ?? 'auto';
      if (s.type === 'url') return { type: 'input_image', image_url: s.url, detail };
      if (s.type === 'base64') return { type: 'input_image', image_url: dataUrl(s.mediaType, s.data), detail };
      return { type: 'input_image', file_id: s.id, detail };
    }
    case 'file': {
      const s = p.source;
      const filename = p.filename ?? p.title;
      const named = filename !== undefined ? { filename } : {};
      if (s.type === 'base64') return { type: 'input_file', file_data: dataUrl(s.mediaType, s.data), filename: filename ?? 'file' };
      if (s.type === 'url') return { type: 'input_file', file_url: s.url, ...named };
      return { type: 'input_file', file_id: s.id, ...named };
    }
    case 'audio':
      throw unsupported('The Responses API takes no audio input.', path);
    case 'tool-call':
    case 'reasoning':
    case 'tool-result':
      warnings.push({ code: 'dropped', path, detail: `${p.type} in a user message`, lossy: true });
      return undefined;
    case 'web-search':
      warnings.push({ code: 'dropped', path, detail: 'web-search' });
      return undefined;
    default:
      return assertNever(p, 'part');
  }
}

function toolOutput(p: ToolResultPart, path: string, warnings: Warning[]): Wire {
  const parts = p.content.map((c, k) => inputPart(c, `${path}.content[${k}]`, warnings)).filter((w): w is Wire => w !== undefined);
  const onlyText = parts.every((w) => w['type'] === 'input_text');
  if (p.isError) warnings.push({ code: 'dropped', path: `${path}.isError` });
  return {
    type: p.custom ? 'custom_tool_call_output' : 'function_call_output',
    call_id: p.callId,
    // Several text parts (blocks of one tool result) keep their separation in the one string.
    output: onlyText ? parts.map((w) => w['text'] as string).join('\n') : parts,
  };
}

export function userItems(content: readonly Part[], at: string, warnings: Warning[]): Wire[] {
  const items: Wire[] = [];
  let message: Wire[] | undefined;
  content.forEach((p, j) => {
    const path = `${at}.content[${j}]`;
    if (p.type === 'tool-result') {
      message = undefined;
      items.push(toolOutput(p, path, warnings));
      return;
    }
    const part = inputPart(p, path, warnings);
    if (!part) return;
    if (!message) {
      message = [];
      items.push({ type: 'message', role: 'user', content: message });
    }
    message.push(part);
  });
  if (items.length === 0) items.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '' }] });
  return items;
}

/**
 * An assistant turn's items. Its words are one message with text content (`EasyInputMessage`):
 * the input shape OpenAI's document gives an assistant turn without an id the service issued
 * (an output message needs its `id` and `status`; parts of an input message are input types).
 */
function assistantItems(content: readonly Part[], at: string, warnings: Warning[]): Wire[] {
  const items: Wire[] = [];
  let message: { item: Wire; texts: string[] } | undefined;
  const say = (text: string) => {
    if (!message) {
      message = { item: { type: 'message', role: 'assistant', content: '' }, texts: [] };
      items.push(message.item);
    }
    // Separate parts stay apart, as a Chat Completions host that takes one string is sent them.
    message.texts.push(text);
    message.item['content'] = message.texts.join('\n\n');
  };
  content.forEach((p, j) => {
    const path = `${at}.content[${j}]`;
    switch (p.type) {
      case 'text':
        say(p.text);
        if (p.signature) warnings.push({ code: 'signature-not-replayed', path });
        return;
      case 'refusal':
        // Its words, as the model said them: a refusal part belongs to an output message only.
        say(p.text);
        warnings.push({ code: 'approximated', path, detail: 'refusal as text' });
        return;
      case 'tool-call':
        message = undefined;
        if (p.signature) warnings.push({ code: 'signature-not-replayed', path });
        items.push(
          p.custom
            ? { type: 'custom_tool_call', call_id: p.id, name: p.name, input: p.arguments }
            : { type: 'function_call', call_id: p.id, name: p.name, arguments: p.arguments },
        );
        return;
      case 'reasoning': {
        const sig = p.signature ?? p.redacted;
        if (sig?.origin !== 'openai') {
          if (sig) warnings.push({ code: 'signature-not-replayed', path });
          return;
        }
        message = undefined;
        items.push({ type: 'reasoning', summary: p.text ? [{ type: 'summary_text', text: p.text }] : [], encrypted_content: sig.value });
        return;
      }
      case 'image':
      case 'file':
      case 'audio':
      case 'tool-result':
        warnings.push({ code: 'dropped', path, detail: `${p.type} in an assistant message`, lossy: true });
        return;
      case 'web-search': {
        const own = ownWebSearch(p, 'openai-responses');
        if (own) {
          message = undefined;
          items.push(own as Wire);
        } else warnings.push({ code: 'dropped', path, detail: 'web-search' });
        return;
      }
      default:
        assertNever(p, 'part');
    }
  });
  return items;
}

/**
 * The input items of canonical messages frozen whole (an Anthropic caller's kept turns decode to
 * the same frozen message turn after turn: translators/anthropic/decode-request.ts). A message's
 * items are a function of the message alone when encoding it warns of nothing (`at` only names
 * what is reported or refused; no host knob, no other message is read), so an unchanged message
 * is encoded once and the body sent upstream holds the same objects as last turn
 * (src/kit/json-body.ts reuses their text by identity). Kept frozen, so never changed.
 */
const encodedMessages = new WeakMap<object, readonly Wire[]>();

function messageItems(m: Message, at: string, warnings: Warning[]): readonly Wire[] {
  const whole = isFrozenWhole(m);
  const kept = whole ? encodedMessages.get(m) : undefined;
  if (kept) return kept;
  const before = warnings.length;
  const items: Wire[] =
    m.sealed?.dialect === 'openai-responses'
      ? [{ type: 'compaction', encrypted_content: m.sealed.data }]
      : m.role === 'user'
        ? userItems(m.content, at, warnings)
        : assistantItems(m.content, at, warnings);
  if (whole && warnings.length === before) {
    deepFreeze(items);
    encodedMessages.set(m, items);
  }
  return items;
}

export function encodeInput(req: ChatRequest, warnings: Warning[]): { instructions?: string; input: Wire[] } {
  const texts: string[] = [];
  req.system.forEach((p, j) => {
    if (p.type === 'text') texts.push(p.text);
    else warnings.push({ code: 'dropped', path: `system[${j}]`, detail: p.type, lossy: true });
  });
  const input: Wire[] = [];
  let instructions: string | undefined;
  if (texts.length === 1) instructions = texts[0];
  else if (texts.length > 1) input.push({ type: 'message', role: 'system', content: texts.map((text) => ({ type: 'input_text', text })) });
  req.messages.forEach((m, i) => input.push(...messageItems(m, `messages[${i}]`, warnings)));
  return { ...(instructions !== undefined ? { instructions } : {}), input };
}

