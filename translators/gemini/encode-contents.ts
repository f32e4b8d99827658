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
  type ToolCallPart,
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

/** What the conversation's encoding keeps from turn to turn. */
interface Conversation {
  model: string;
  warnings: Warning[];
  /** Calls of the latest model turn still waiting for their results. */
  pending: Call[];
  /** Every call's name by id (a result may answer a call of an earlier turn). */
  names: Map<string, string>;
  /** The results of the pending calls, put in call order when their turn is flushed. */
  responses: Array<{ call: Call; part: GeminiOutPart }>;
  responseTurn?: GeminiOutContent;
}

/** The turn being encoded: its role, its parts, whether a call has been seen in it yet. */
interface Turn {
  role: 'user' | 'model';
  parts: GeminiOutPart[];
  firstCall: boolean;
}

/** The pending calls' results, first in their turn, in call order (a missing one answered as such). */
function flushResponses(c: Conversation): void {
  if (!c.responseTurn) return;
  const ordered: GeminiOutPart[] = [];
  for (const call of c.pending) {
    const hit = c.responses.find((r) => r.call === call);
    if (hit) ordered.push(hit.part);
    else {
      c.warnings.push({ code: 'approximated', path: `tool_result.${call.id}`, detail: 'missing-result' });
      ordered.push({ functionResponse: { name: call.name, response: { error: 'No result was provided for this call.' } } });
    }
  }
  // Results for calls of earlier turns (unusual, but keep them) go after, in the order given.
  for (const r of c.responses) if (!c.pending.includes(r.call)) ordered.push(r.part);
  c.responseTurn.parts.unshift(...ordered);
  c.responses = [];
  c.responseTurn = undefined;
  c.pending = [];
}

function encodeCall(part: ToolCallPart, path: string, c: Conversation, turn: Turn): void {
  const id = plainId(part.id);
  c.names.set(id, part.name);
  const call: Call = { id, name: part.name };
  if (turn.role === 'model') c.pending.push(call);
  let wire = withSignature({ functionCall: { name: part.name, args: parseArgs(part.arguments, `${path}.arguments`, c.warnings) } }, part.signature, path, c.warnings);
  if (turn.firstCall && !wire.thoughtSignature && requiresCallSignatures(c.model)) {
    wire = { ...wire, thoughtSignature: SKIP_SIGNATURE_VALIDATOR };
  }
  turn.firstCall = false;
  turn.parts.push(wire);
}

function encodeResult(part: ToolResultPart, path: string, c: Conversation, turn: Turn): void {
  const id = plainId(part.callId);
  const open = (x: Call) => !c.responses.some((r) => r.call === x);
  let call = c.pending.find((x) => x.id === id && open(x));
  if (!call && part.name) call = c.pending.find((x) => x.name === part.name && open(x));
  const name = call?.name ?? c.names.get(id) ?? part.name;
  if (!name) {
    throw new ProxyError('invalid-request', `tool result '${part.callId}' does not answer any tool call in the conversation`, { param: path });
  }
  const { response, media } = toolResponseOf(part);
  const wire: GeminiOutPart = { functionResponse: { name, response } };
  c.responses.push({ call: call ?? { id, name }, part: wire });
  turn.parts.push(...media);
}

function encodePart(part: Part, path: string, c: Conversation, turn: Turn): void {
  const { warnings } = c;
  switch (part.type) {
    case 'text':
      if (part.text === '' && !part.signature) return;
      turn.parts.push(withSignature({ text: part.text }, part.signature, path, warnings));
      return;
    case 'refusal':
      if (part.text) turn.parts.push({ text: part.text });
      return;
    case 'image':
      turn.parts.push(mediaToWire(part.source, 'image/jpeg'));
      return;
    case 'audio':
      turn.parts.push(mediaToWire(part.source, part.format ? `audio/${part.format === 'mp3' ? 'mp3' : part.format}` : 'audio/wav'));
      return;
    case 'file':
      turn.parts.push(mediaToWire(part.source, 'application/pdf'));
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
      turn.parts.push(part.text ? { text: part.text, thought: true, thoughtSignature: sig.value } : { text: '', thoughtSignature: sig.value });
      return;
    }
    case 'tool-call':
      return encodeCall(part, path, c, turn);
    case 'tool-result':
      return encodeResult(part, path, c, turn);
    case 'web-search':
      // Grounding is no part of Gemini's history; another vendor's search cannot be replayed.
      warnings.push({ code: 'dropped', path, detail: 'web-search' });
      return;
    default:
      assertNever(part, 'part');
  }
}

export function encodeContents(messages: Message[], model: string, warnings: Warning[]): GeminiOutContent[] {
  const contents: GeminiOutContent[] = [];
  const c: Conversation = { model, warnings, pending: [], names: new Map(), responses: [] };

  messages.forEach((message, mi) => {
    const role = message.role === 'assistant' ? 'model' : 'user';
    if (role === 'model') {
      flushResponses(c);
      c.pending = [];
    }
    const turn: Turn = { role, parts: [], firstCall: true };
    message.content.forEach((part, pi) => encodePart(part, `messages[${mi}].content[${pi}]`, c, turn));
    const { parts } = turn;

    const hasResponses = message.content.some((p) => p.type === 'tool-result');
    if (role === 'model') {
      if (parts.length > 0) appendContent(contents, { role, parts });
      return;
    }
    if (hasResponses) {
      // One function-response turn: responses are put first, in call order, at flush time. (Until
      // the next model turn flushes it, the response turn is the last content.)
      if (c.responseTurn) {
        c.responseTurn.parts.push(...parts);
      } else {
        c.responseTurn = { role: 'user', parts };
        contents.push(c.responseTurn);
      }
      return;
    }
    // A user turn right after the response turn joins it (both are the user's).
    if (parts.length > 0) appendContent(contents, { role, parts });
  });
  flushResponses(c);
  // No content is empty: turns are added with parts, and a flushed response turn has its responses.
  return contents;
}

function appendContent(contents: GeminiOutContent[], content: GeminiOutContent): void {
  const last = contents[contents.length - 1];
  if (last && last.role === content.role) last.parts.push(...content.parts);
  else contents.push(content);
}
