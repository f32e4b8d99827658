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
import { audioFormatOf, toDataUrl } from './media.ts';

export type OpenAIChatWireMessage = Record<string, unknown>;
type WirePart = Record<string, unknown>;

function unsupported(message: string, param: string): ProxyError {
  return new ProxyError('unsupported', message, { param });
}

/** One text part → a string; several → an array of text parts (exact round trip). */
function textContent(texts: string[]): string | WirePart[] {
  return texts.length === 1 ? texts[0]! : texts.map((text) => ({ type: 'text', text }));
}

/** A user-message part → a wire content part, or `undefined` when it has no place there. */
function encodeUserPart(part: Part, path: string, warnings: Warning[]): WirePart | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
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
    default:
      return assertNever(part, 'part');
  }
}

function encodeToolResult(
  part: ToolResultPart,
  path: string,
  warnings: Warning[],
  carryOver: WirePart[],
): OpenAIChatWireMessage {
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
  return { role: 'tool', tool_call_id: part.callId, content: texts.length === 0 ? '' : textContent(texts) };
}

function encodeUser(m: Message, at: string, warnings: Warning[]): OpenAIChatWireMessage[] {
  const out: OpenAIChatWireMessage[] = [];
  const carryOver: WirePart[] = [];
  const parts: WirePart[] = [];
  m.content.forEach((part, j) => {
    const path = `${at}.content[${j}]`;
    if (part.type === 'tool-result') out.push(encodeToolResult(part, path, warnings, carryOver));
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
      content: all.length === 0 ? '' : onlyText && all.length === 1 ? (all[0]!['text'] as string) : all,
      ...(m.name !== undefined ? { name: m.name } : {}),
    });
  }
  return out;
}

function encodeAssistant(m: Message, at: string, warnings: Warning[]): OpenAIChatWireMessage {
  const texts: string[] = [];
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
        toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
        if (part.signature) warnings.push({ code: 'signature-not-replayed', path });
        break;
      case 'reasoning':
        // Chat Completions takes no reasoning back; signed blocks are the vendor's to replay.
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
      default:
        assertNever(part, 'part');
    }
  });
  const msg: OpenAIChatWireMessage = {
    role: 'assistant',
    content: texts.length > 0 ? textContent(texts) : toolCalls.length > 0 || refusals.length > 0 || audio ? null : '',
  };
  if (m.name !== undefined) msg['name'] = m.name;
  if (refusals.length > 0) msg['refusal'] = refusals.join('');
  if (toolCalls.length > 0) msg['tool_calls'] = toolCalls;
  if (audio) msg['audio'] = audio;
  return msg;
}

export function encodeMessages(req: ChatRequest, warnings: Warning[]): OpenAIChatWireMessage[] {
  const out: OpenAIChatWireMessage[] = [];
  const systemTexts: string[] = [];
  req.system.forEach((part, j) => {
    if (part.type === 'text') systemTexts.push(part.text);
    else warnings.push({ code: 'dropped', path: `system[${j}]`, detail: part.type, lossy: true });
  });
  if (systemTexts.length > 0) out.push({ role: 'system', content: textContent(systemTexts) });
  req.messages.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (m.role === 'user') out.push(...encodeUser(m, at, warnings));
    else out.push(encodeAssistant(m, at, warnings));
  });
  return out;
}
