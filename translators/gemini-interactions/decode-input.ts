/**
 * Caller side: `input` → canonical messages. The input is a string, one content, a list of
 * contents (one user turn), or a list of typed steps (a whole conversation, sent by a stateless
 * caller or rebuilt by the flow from `previous_interaction_id`).
 *
 * Steps of the model's side (`model_output`, `thought`, `function_call`) that follow each other
 * make one assistant message; `function_result` steps that follow each other make one user
 * message; each `user_input` is a user message. A `thought` step's `signature` is read as the
 * reasoning carrier first (`decodeReasoning`: another vendor's block whole, or a v1 signature
 * carrier), else as Gemini's own raw value; Gemini's signature of a thought right before a
 * `function_call` goes on that call, where generateContent wants it (Gemini 3 refuses a call
 * turn whose first call is unsigned), its summary staying an unsigned reasoning part. A hosted
 * search's steps (`google_search_call` + `google_search_result`, `url_context_call` +
 * `url_context_result`) are a web search part (web-search.ts); other hosted-tool steps have no
 * canonical home: dropped and reported (a gemini-interactions upstream gets them through the
 * passthrough).
 */
import { isSearchStep, SEARCH_CALLS, SearchPairs } from './web-search.ts';
import {
  decodeReasoning,
  decodeToolCallId,
  type Message,
  type Part,
  type ReasoningPart,
  type Signature,
  type Warning,
} from '../../src/canonical/index.ts';
import { invalid, isRecord, parseAt } from './decode-validate.ts';
import {
  ContentSchema,
  FunctionCallStepSchema,
  FunctionResultStepSchema,
  MEDIA_CONTENT_TYPES,
  ModelOutputStepSchema,
  StepHeadSchema,
  ThoughtStepSchema,
  UserInputStepSchema,
} from './wire.ts';

const CONTENT_TYPES = new Set<string>(['text', ...MEDIA_CONTENT_TYPES]);

/** `audio/mpeg` → `mp3`, `audio/x-wav` → `wav`. */
function audioFormat(mimeType: string): string | undefined {
  const sub = mimeType.toLowerCase().split(';')[0]!.split('/')[1];
  if (!sub) return undefined;
  return sub === 'mpeg' ? 'mp3' : sub.replace(/^x-/, '');
}

/** One content → a canonical part. Media come inline (`data` + `mime_type`) or by `uri`. */
export function decodeContent(raw: unknown, at: string): Part {
  const c = parseAt(ContentSchema, raw, at);
  if (c.type === 'text') return { type: 'text', text: c.text };
  const mime = c.mime_type ?? undefined;
  let source;
  if (c.data != null) {
    if (!mime) throw invalid(`Invalid value at '${at}.mime_type': required with inline 'data'.`, `${at}.mime_type`);
    source = { type: 'base64' as const, mediaType: mime, data: c.data };
  } else if (c.uri != null) {
    source = { type: 'url' as const, url: c.uri, ...(mime ? { mediaType: mime } : {}) };
  } else {
    throw invalid(`Invalid value at '${at}.data': required field is missing (a ${c.type} content needs 'data' with 'mime_type', or 'uri').`, `${at}.data`);
  }
  switch (c.type) {
    case 'image':
      return { type: 'image', source };
    case 'audio': {
      const format = mime ? audioFormat(mime) : undefined;
      return { type: 'audio', source, ...(format ? { format } : {}) };
    }
    case 'document':
    case 'video':
      // Canonical has no video part: a video is a file with its video/* media type.
      return { type: 'file', source };
  }
}

function contents(list: readonly unknown[] | null | undefined, at: string): Part[] {
  return (list ?? []).map((raw, j) => decodeContent(raw, `${at}[${j}]`));
}

/**
 * A thought step → a reasoning part: another vendor's block from its carrier (its own text and
 * signature or redacted data), else the summaries' text with Gemini's raw signature.
 */
export function thoughtPart(signature: string | null | undefined, summary: readonly unknown[] | null | undefined, at: string): ReasoningPart {
  const text = (summary ?? [])
    .map((raw, j) => {
      const p = decodeContent(raw, `${at}.summary[${j}]`);
      return p.type === 'text' ? p.text : '';
    })
    .filter((t) => t !== '')
    .join('\n\n');
  if (!signature) return { type: 'reasoning', text };
  const carried = decodeReasoning(signature);
  if (carried?.redacted) return { type: 'reasoning', text: carried.text, redacted: carried.redacted };
  if (carried?.signature) return { type: 'reasoning', text: carried.text || text, signature: carried.signature };
  return { type: 'reasoning', text, signature: { origin: 'gemini', value: signature } };
}

/** A function result's `result`: a string, an object (as its JSON text) or a content list. */
function resultParts(result: string | unknown[] | Record<string, unknown>, at: string): Part[] {
  if (typeof result === 'string') return [{ type: 'text', text: result }];
  if (Array.isArray(result)) return contents(result, at);
  return [{ type: 'text', text: JSON.stringify(result) }];
}

/** Whether `input` is a list of contents (one user turn) rather than a list of steps. */
function isContentList(list: readonly unknown[]): boolean {
  const first = list[0];
  return isRecord(first) && CONTENT_TYPES.has(first['type'] as string);
}

export function decodeInput(input: unknown, warnings: Warning[]): Message[] {
  if (input == null) return [];
  if (typeof input === 'string') return [{ role: 'user', content: [{ type: 'text', text: input }] }];
  if (!Array.isArray(input)) return [{ role: 'user', content: [decodeContent(input, 'input')] }];
  if (isContentList(input)) return [{ role: 'user', content: contents(input, 'input') }];
  return decodeSteps(input, warnings);
}

function decodeSteps(steps: readonly unknown[], warnings: Warning[]): Message[] {
  const messages: Message[] = [];
  /** What the last message collects: model-side steps, function results, or a user turn. */
  let lastKind: 'model' | 'results' | 'user' | undefined;
  const append = (kind: 'model' | 'results' | 'user', parts: Part[]) => {
    const last = messages.at(-1);
    if (kind !== 'user' && last && lastKind === kind) last.content.push(...parts);
    else messages.push({ role: kind === 'model' ? 'assistant' : 'user', content: parts });
    lastKind = kind;
  };
  /** A Gemini signature of the thought just before a call: generateContent's place for it is the call. */
  let callSignature: Signature | undefined;
  const searches = new SearchPairs();
  steps.forEach((raw, i) => {
    const at = `input[${i}]`;
    const { type } = parseAt(StepHeadSchema, raw, at);
    switch (type) {
      case 'user_input': {
        const s = parseAt(UserInputStepSchema, raw, at);
        append('user', contents(s.content, `${at}.content`));
        return;
      }
      case 'model_output': {
        const s = parseAt(ModelOutputStepSchema, raw, at);
        append('model', contents(s.content, `${at}.content`));
        return;
      }
      case 'thought': {
        const s = parseAt(ThoughtStepSchema, raw, at);
        const part = thoughtPart(s.signature, s.summary, at);
        const next = steps[i + 1];
        if (part.signature?.origin === 'gemini' && isRecord(next) && next['type'] === 'function_call') {
          callSignature = part.signature;
          if (part.text) append('model', [{ type: 'reasoning', text: part.text }]);
          else append('model', []);
          return;
        }
        append('model', [part]);
        return;
      }
      case 'function_call': {
        const s = parseAt(FunctionCallStepSchema, raw, at);
        const { id, signature: carried } = decodeToolCallId(s.id);
        const signature = carried ?? callSignature;
        callSignature = undefined;
        append('model', [{ type: 'tool-call', id, name: s.name, arguments: JSON.stringify(s.arguments ?? {}), ...(signature ? { signature } : {}) }]);
        return;
      }
      case 'function_result': {
        const s = parseAt(FunctionResultStepSchema, raw, at);
        append('results', [{
          type: 'tool-result',
          callId: decodeToolCallId(s.call_id).id,
          ...(s.name != null ? { name: s.name } : {}),
          content: resultParts(s.result, `${at}.result`),
          ...(s.is_error === true ? { isError: true } : {}),
        }]);
        return;
      }
      default:
        if (isSearchStep(type) && isRecord(raw)) {
          // A hosted search's call and result: one web search once its result comes (web-search.ts).
          const search = searches.step(raw);
          append('model', search ? [search] : []);
          if (!search && !SEARCH_CALLS.has(type)) warnings.push({ code: 'dropped', path: at, detail: `${type} without its call` });
          return;
        }
        if (CONTENT_TYPES.has(type)) {
          throw invalid(`Invalid value at '${at}.type' ("${type}"): a list of steps cannot mix in contents; wrap them in a 'user_input' step.`, `${at}.type`);
        }
        warnings.push({ code: 'dropped', path: at, detail: type, lossy: true });
    }
  });
  for (const search of searches.rest()) warnings.push({ code: 'dropped', path: 'input', detail: `${search.kind === 'fetch' ? 'url_context_call' : 'google_search_call'} ${search.id} without its result` });
  return messages;
}
