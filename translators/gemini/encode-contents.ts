/**
 * Upstream side: canonical messages → Gemini `contents`.
 *
 * - Tool results are paired with their calls by id (carrier ids compared by their plain id),
 *   else by name, else by position; `functionResponse.name` is restored from the call. Each
 *   function-response turn holds exactly one response per call of the model turn before it, in
 *   call order (a call left unanswered gets `{error: "no result"}` and a warning), so parallel
 *   calls of the same name never collide. Ids are not sent: the Gemini API pairs by order and
 *   name, and rejects `id` on some models/endpoints.
 * - Tool-result content: a JSON object text is sent as the `response` object itself; any other
 *   text / JSON value is wrapped as `{output: …}`, and an error result as `{error: …}` (the keys
 *   FunctionResponse documents). Media in a tool result follows as inline parts of the same turn.
 * - Signatures: only `origin: 'gemini'` is replayed, as `thoughtSignature` on the part that
 *   carried it; others are dropped with `signature-not-replayed`. Reasoning without a Gemini
 *   signature is dropped (Gemini cannot take foreign thoughts). On Gemini 3 the first call of a
 *   model turn without a signature gets the documented validator-skip value.
 * - Media: base64 → `inlineData`; `data:` URLs inlined; other URLs / file ids → `fileData`.
 */
import {
  assertNever,
  decodeToolCallId,
  ProxyError,
  signatureFor,
  type Message,
  type MediaSource,
  type Part,
  type Signature,
  type ToolResultPart,
  type Warning,
} from '../../src/canonical/index.ts';
import {
  parseDataUrl,
  parseJsonOrUndefined,
} from '../../src/kit/index.ts';
import { isRecord } from './json.ts';
import { requiresCallSignatures, SKIP_SIGNATURE_VALIDATOR } from './signatures.ts';
import type { GeminiOutContent, GeminiOutPart } from './wire.ts';

interface Call {
  id: string;
  name: string;
}

const plainId = (id: string) => decodeToolCallId(id).id;

export function mediaToWire(source: MediaSource, fallbackType: string): GeminiOutPart {
  switch (source.type) {
    case 'base64':
      return { inlineData: { mimeType: source.mediaType, data: source.data } };
    case 'url': {
      const inline = parseDataUrl(source.url);
      if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
      return { fileData: { fileUri: source.url, mimeType: source.mediaType ?? guessMime(source.url, fallbackType) } };
    }
    case 'file-id':
      return { fileData: { fileUri: source.id, mimeType: source.mediaType ?? fallbackType } };
    default:
      return assertNever(source, 'media source');
  }
}

/** A Map, not an object: a URL ending in `.constructor` must not find Object's own members. */
const EXT_MIME = new Map([
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['heic', 'image/heic'],
  ['pdf', 'application/pdf'],
  ['mp3', 'audio/mp3'],
  ['wav', 'audio/wav'],
  ['mp4', 'video/mp4'],
]);

function guessMime(url: string, fallback: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1];
  return (ext && EXT_MIME.get(ext.toLowerCase())) || fallback;
}

/** A tool result's content → `functionResponse.response` (+ media parts to send beside it). */
export function toolResponseOf(result: ToolResultPart): { response: Record<string, unknown>; media: GeminiOutPart[] } {
  const texts: string[] = [];
  const media: GeminiOutPart[] = [];
  for (const p of result.content) {
    if (p.type === 'text') texts.push(p.text);
    else if (p.type === 'image') media.push(mediaToWire(p.source, 'image/jpeg'));
    else if (p.type === 'audio') media.push(mediaToWire(p.source, 'audio/wav'));
    else if (p.type === 'file') media.push(mediaToWire(p.source, 'application/pdf'));
  }
  // Several text parts (blocks of one tool result) keep their separation.
  const text = texts.join('\n');
  const parsed = parseJsonOrUndefined(text);
  const value = parsed === undefined ? text : parsed;
  if (result.isError) return { response: { error: value }, media };
  return { response: isRecord(value) ? value : { output: value }, media };
}

function parseArgs(args: string, path: string, warnings: Warning[]): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    if (isRecord(value)) return value;
    warnings.push({ code: 'approximated', path, detail: 'non-object-arguments' });
    return { value };
  } catch {
    warnings.push({ code: 'approximated', path, detail: 'invalid-json-arguments', lossy: true });
    return {};
  }
}

function withSignature(part: GeminiOutPart, sig: Signature | undefined, path: string, warnings: Warning[]): GeminiOutPart {
  if (!sig) return part;
  const kept = signatureFor(sig, 'gemini');
  if (kept) return { ...part, thoughtSignature: kept.value };
  warnings.push({ code: 'signature-not-replayed', path });
  return part;
}

export function encodeContents(messages: Message[], model: string, warnings: Warning[]): GeminiOutContent[] {
  const contents: GeminiOutContent[] = [];
  // Calls of the latest model turn still waiting for their results.
  let pending: Call[] = [];
  const names = new Map<string, string>();
  let responses: Array<{ call: Call; part: GeminiOutPart }> = [];
  let responseTurn: GeminiOutContent | undefined;

  const flushResponses = () => {
    if (!responseTurn) return;
    const ordered: GeminiOutPart[] = [];
    for (const call of pending) {
      const hit = responses.find((r) => r.call === call);
      if (hit) ordered.push(hit.part);
      else {
        warnings.push({ code: 'approximated', path: `tool_result.${call.id}`, detail: 'missing-result' });
        ordered.push({ functionResponse: { name: call.name, response: { error: 'No result was provided for this call.' } } });
      }
    }
    // Results for calls of earlier turns (unusual, but keep them) go after, in the order given.
    for (const r of responses) if (!pending.includes(r.call)) ordered.push(r.part);
    responseTurn.parts.unshift(...ordered);
    responses = [];
    responseTurn = undefined;
    pending = [];
  };

  messages.forEach((message, mi) => {
    const role = message.role === 'assistant' ? 'model' : 'user';
    if (role === 'model') {
      flushResponses();
      pending = [];
    }
    const parts: GeminiOutPart[] = [];
    let firstCall = true;
    message.content.forEach((part, pi) => {
      const path = `messages[${mi}].content[${pi}]`;
      encodePart(part, path);
    });

    function encodePart(part: Part, path: string): void {
      switch (part.type) {
        case 'text':
          if (part.text === '' && !part.signature) return;
          parts.push(withSignature({ text: part.text }, part.signature, path, warnings));
          return;
        case 'refusal':
          if (part.text) parts.push({ text: part.text });
          return;
        case 'image':
          parts.push(mediaToWire(part.source, 'image/jpeg'));
          return;
        case 'audio':
          parts.push(mediaToWire(part.source, part.format ? `audio/${part.format === 'mp3' ? 'mp3' : part.format}` : 'audio/wav'));
          return;
        case 'file':
          parts.push(mediaToWire(part.source, 'application/pdf'));
          return;
        case 'reasoning': {
          const sig = signatureFor(part.signature, 'gemini');
          if (part.redacted || (part.signature && !sig)) {
            warnings.push({ code: 'signature-not-replayed', path });
            return;
          }
          if (!sig) {
            if (part.text) warnings.push({ code: 'dropped', path, detail: 'reasoning' });
            return;
          }
          parts.push(part.text ? { text: part.text, thought: true, thoughtSignature: sig.value } : { text: '', thoughtSignature: sig.value });
          return;
        }
        case 'tool-call': {
          const id = plainId(part.id);
          names.set(id, part.name);
          const call: Call = { id, name: part.name };
          if (role === 'model') pending.push(call);
          let wire = withSignature({ functionCall: { name: part.name, args: parseArgs(part.arguments, `${path}.arguments`, warnings) } }, part.signature, path, warnings);
          if (firstCall && !wire.thoughtSignature && requiresCallSignatures(model)) {
            wire = { ...wire, thoughtSignature: SKIP_SIGNATURE_VALIDATOR };
          }
          firstCall = false;
          parts.push(wire);
          return;
        }
        case 'tool-result': {
          const id = plainId(part.callId);
          let call = pending.find((c) => c.id === id && !responses.some((r) => r.call === c));
          if (!call && part.name) call = pending.find((c) => c.name === part.name && !responses.some((r) => r.call === c));
          const name = call?.name ?? names.get(id) ?? part.name;
          if (!name) {
            throw new ProxyError('invalid-request', `tool result '${part.callId}' does not answer any tool call in the conversation`, { param: path });
          }
          const { response, media } = toolResponseOf(part);
          const wire: GeminiOutPart = { functionResponse: { name, response } };
          responses.push({ call: call ?? { id, name }, part: wire });
          parts.push(...media);
          return;
        }
        case 'web-search':
          // Grounding is no part of Gemini's history; another vendor's search cannot be replayed.
          warnings.push({ code: 'dropped', path, detail: 'web-search' });
          return;
        default:
          assertNever(part, 'part');
      }
    }

    const hasResponses = message.content.some((p) => p.type === 'tool-result');
    if (role === 'model') {
      if (parts.length > 0) appendContent(contents, { role, parts });
      return;
    }
    if (hasResponses) {
      // One function-response turn: responses are put first, in call order, at flush time. (Until
      // the next model turn flushes it, the response turn is the last content.)
      if (responseTurn) {
        responseTurn.parts.push(...parts);
      } else {
        responseTurn = { role: 'user', parts };
        contents.push(responseTurn);
      }
      return;
    }
    // A user turn right after the response turn joins it (both are the user's).
    if (parts.length > 0) appendContent(contents, { role, parts });
  });
  flushResponses();
  // No content is empty: turns are added with parts, and a flushed response turn has its responses.
  return contents;
}

function appendContent(contents: GeminiOutContent[], content: GeminiOutContent): void {
  const last = contents[contents.length - 1];
  if (last && last.role === content.role) last.parts.push(...content.parts);
  else contents.push(content);
}
