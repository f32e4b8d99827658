/**
 * Caller side: Gemini `contents` → canonical messages.
 *
 * - Roles: `user` (or none) → user, `model` → assistant, `function`/`tool` → user (tool results).
 *   Consecutive contents of the same canonical role are merged into one message (the
 *   @google/genai chat history stores every streamed chunk as its own `model` content).
 * - `functionCall` without an id gets `call_<message index>_<position>`; a carrier id
 *   (`…__il1…`) is split into id and signature.
 * - `functionResponse` pairs with its call by id, else with the oldest unanswered call of the
 *   same name, and takes that call's id.
 * - `thoughtSignature` on any part → `Signature` on the canonical part (`signatureFromWire`); an
 *   empty-text part carrying only a signature → a reasoning part with empty text.
 * - `executableCode` / `codeExecutionResult` have no canonical home: they become text parts
 *   (a fenced code block / its output), so other vendors still see what happened.
 */
import {
  decodeToolCallId,
  ProxyError,
  type Message,
  type Part,
  type Signature,
  type ReasoningPart,
} from '../../src/canonical/index.ts';
import { syntheticCallId } from './ids.ts';
import { signatureFromWire } from './signatures.ts';
import type { GeminiContent, GeminiPart } from './wire.ts';

const invalid = (message: string, param: string) => new ProxyError('invalid-request', message, { param });

/** Blob → the canonical part kind its MIME type implies. */
export function mediaPart(
  mimeType: string,
  source: { type: 'base64'; data: string } | { type: 'url'; url: string } | { type: 'file-id'; id: string },
): Part {
  const src =
    source.type === 'base64'
      ? { type: 'base64' as const, mediaType: mimeType, data: source.data }
      : source.type === 'url'
        ? { type: 'url' as const, url: source.url, ...(mimeType ? { mediaType: mimeType } : {}) }
        : { type: 'file-id' as const, id: source.id, ...(mimeType ? { mediaType: mimeType } : {}) };
  const mt = mimeType.toLowerCase();
  if (mt.startsWith('image/')) return { type: 'image', source: src };
  if (mt.startsWith('audio/')) {
    const sub = mt.slice(6).split(';')[0]!;
    const format = sub === 'mpeg' ? 'mp3' : sub.replace(/^x-/, '');
    return { type: 'audio', source: src, ...(format ? { format } : {}) };
  }
  return { type: 'file', source: src };
}

/** `executableCode` → a fenced code block (no language for LANGUAGE_UNSPECIFIED; Python when absent). */
export function codeFence(part: { language?: unknown; code?: unknown }): string {
  const lang = String(part.language ?? 'PYTHON').toLowerCase();
  return `\`\`\`${lang === 'language_unspecified' ? '' : lang}\n${String(part.code ?? '')}\n\`\`\``;
}

/** `codeExecutionResult` → its output as a fenced `output` block. */
export function outputFence(part: { output?: unknown }): string {
  return `\`\`\`output\n${String(part.output ?? '')}\n\`\`\``;
}

/**
 * `fileData.fileUri`: Gemini Files API URIs and anything not http(s) (Cloud Storage `gs://`, bare
 * `files/…` names) are file handles, other http(s) URIs URLs.
 */
export function fileDataPart(fileUri: string, mimeType: string | undefined): Part {
  const isHandle = !/^https?:/i.test(fileUri) || /generativelanguage\.googleapis\.com\/.*files\//.test(fileUri);
  return mediaPart(mimeType ?? '', isHandle ? { type: 'file-id', id: fileUri } : { type: 'url', url: fileUri });
}

/** A caller's `functionResponse.response` → tool-result content and error flag. */
export function toolResultContent(response: Record<string, unknown> | null | undefined): {
  content: Part[];
  isError?: boolean;
} {
  const r = response ?? {};
  const keys = Object.keys(r);
  if (keys.length === 1 && keys[0] === 'error') {
    const e = r.error;
    return { content: [{ type: 'text', text: typeof e === 'string' ? e : JSON.stringify(e) }], isError: true };
  }
  if (keys.length === 1 && keys[0] === 'output' && typeof r.output === 'string') {
    return { content: [{ type: 'text', text: r.output }] };
  }
  return { content: [{ type: 'text', text: JSON.stringify(r) }] };
}

interface OpenCall {
  id: string;
  name: string;
}

function sigOf(part: GeminiPart): { signature?: Signature; redacted?: Signature } {
  return part.thoughtSignature ? signatureFromWire(part.thoughtSignature) : {};
}

export function decodeContents(contents: GeminiContent[]): Message[] {
  const messages: Message[] = [];
  const open: OpenCall[] = [];
  let callPosition = 0;

  contents.forEach((content, ci) => {
    const path = `contents[${ci}]`;
    const role = content.role ?? 'user';
    let canonicalRole: Message['role'];
    if (role === 'user' || role === 'function' || role === 'tool') canonicalRole = 'user';
    else if (role === 'model') canonicalRole = 'assistant';
    else throw invalid(`Please use a valid role: user, model. Got '${role}'.`, `${path}.role`);

    const parts = content.parts ?? [];
    if (parts.length === 0) throw invalid('contents.parts must not be empty.', `${path}.parts`);

    let message = messages[messages.length - 1];
    if (!message || message.role !== canonicalRole) {
      message = { role: canonicalRole, content: [] };
      messages.push(message);
      callPosition = 0;
    }
    const turn = messages.length - 1;

    const ctx: PartCtx = { nextCallId: () => syntheticCallId(turn, callPosition++), open };
    parts.forEach((part, pi) => {
      for (const d of decodePart(part, `${path}.parts[${pi}]`, canonicalRole, ctx)) appendPart(message.content, d);
    });
  });
  return messages;
}

interface PartCtx {
  nextCallId(): string;
  open: OpenCall[];
}

function decodePart(part: GeminiPart, path: string, role: Message['role'], ctx: PartCtx): Part[] {
  const { signature, redacted } = sigOf(part);
  if (redacted) return [{ type: 'reasoning', text: part.text ?? '', redacted }];

  if (part.functionCall) {
    const fc = part.functionCall;
    if (!fc.name) throw invalid('functionCall.name is required.', `${path}.functionCall.name`);
    let id: string;
    let sig = signature;
    if (fc.id) {
      const carried = decodeToolCallId(fc.id);
      id = carried.id;
      sig = sig ?? carried.signature;
    } else {
      id = ctx.nextCallId();
    }
    ctx.open.push({ id, name: fc.name });
    return [{ type: 'tool-call', id, name: fc.name, arguments: JSON.stringify(fc.args ?? {}), ...(sig ? { signature: sig } : {}) }];
  }

  if (part.functionResponse) {
    const fr = part.functionResponse;
    const callId = pairResponse(fr.id, fr.name, ctx.open, path);
    const { content, isError } = toolResultContent(fr.response);
    for (const extra of fr.parts ?? []) {
      if (extra.inlineData) content.push(mediaPart(extra.inlineData.mimeType, { type: 'base64', data: extra.inlineData.data }));
      else if (extra.fileData) content.push(fileDataPart(extra.fileData.fileUri, extra.fileData.mimeType));
    }
    return [{ type: 'tool-result', callId, ...(fr.name ? { name: fr.name } : {}), content, ...(isError ? { isError } : {}) }];
  }

  if (part.inlineData) {
    return [mediaPart(part.inlineData.mimeType, { type: 'base64', data: part.inlineData.data })];
  }
  if (part.fileData) return [fileDataPart(part.fileData.fileUri, part.fileData.mimeType)];

  if (part.executableCode) return [{ type: 'text', text: codeFence(part.executableCode) }];
  if (part.codeExecutionResult) return [{ type: 'text', text: outputFence(part.codeExecutionResult) }];

  if (typeof part.text === 'string') {
    if (part.thought === true || (part.text === '' && signature)) {
      return [{ type: 'reasoning', text: part.text, ...(signature ? { signature } : {}) }];
    }
    if (part.text === '') return [];
    return [{ type: 'text', text: part.text, ...(signature ? { signature } : {}) }];
  }
  if (signature) return [{ type: 'reasoning', text: '', signature }];
  if (role === 'assistant') return [];
  throw invalid('Part must have one of: text, inlineData, fileData, functionCall, functionResponse.', path);
}

function pairResponse(wireId: string | undefined, name: string | undefined, open: OpenCall[], path: string): string {
  let at = -1;
  if (wireId) {
    const id = decodeToolCallId(wireId).id;
    at = open.findIndex((c) => c.id === id);
  }
  if (at < 0 && name) at = open.findIndex((c) => c.name === name);
  if (at < 0) {
    if (wireId) return decodeToolCallId(wireId).id;
    throw invalid(
      'Please ensure that function response turn comes immediately after a function call turn, and that each functionResponse names a call.',
      `${path}.functionResponse`,
    );
  }
  const [call] = open.splice(at, 1);
  return call!.id;
}

/**
 * Append, merging a streamed run of thought parts into one reasoning part: Gemini chat
 * histories keep every chunk as its own part, while Anthropic needs each thinking block whole
 * with its signature. Parts carrying a Gemini signature are never merged (Gemini wants each
 * signature back on the part that carried it).
 */
function appendPart(list: Part[], part: Part): void {
  const last = list[list.length - 1];
  if (
    part.type === 'reasoning' &&
    last?.type === 'reasoning' &&
    !last.signature &&
    !last.redacted &&
    !part.redacted &&
    part.signature?.origin !== 'gemini'
  ) {
    const merged: ReasoningPart = { type: 'reasoning', text: last.text + part.text };
    if (part.signature) merged.signature = part.signature;
    list[list.length - 1] = merged;
    return;
  }
  list.push(part);
}
