/**
 * Upstream side: canonical `system` + `messages` → `system_instruction` + `input` steps (the
 * whole conversation: the upstream keeps no state, `store: false`).
 *
 * - System text parts joined by a blank line are `system_instruction` (a string in this API).
 * - A user message's text and media gather in `user_input` steps; its tool results are
 *   `function_result` steps (`call_id`, the call's `name`, `result` a string when all text, else
 *   a content list, `is_error`).
 * - An assistant message's parts in order: text and media gather in `model_output` steps, tool
 *   calls are `function_call` steps (`arguments` an object), reasoning is a `thought` step.
 * - Signatures: only Gemini's own reach this upstream (`signatureFor(sig, 'gemini')`), raw, as
 *   the `signature` of a thought step placed before the output it belongs to: a reasoning part's
 *   own, or a `generateContent` signature that rode on a text or function-call part (a thought
 *   step of its own just before that step, with the unsigned thought text right before that
 *   part as its summary: generateContent signs the call, not its thought). Another vendor's is
 *   not replayed (`signature-not-replayed`); other unsigned thought text has no input form and
 *   is dropped.
 */
import {
  assertNever,
  ownWebSearch,
  signatureFor,
  type ChatRequest,
  type MediaSource,
  type Part,
  type Signature,
  type ToolResultPart,
  type Warning,
} from '../../src/canonical/index.ts';
import type { AnyStep, InteractionsContent, MediaContent } from './wire.ts';

/** A media source → the content's `data` + `mime_type`, or `uri` (a URL or a file handle). */
function media(type: MediaContent['type'], source: MediaSource, fallback: string): MediaContent {
  switch (source.type) {
    case 'base64':
      return { type, data: source.data, mime_type: source.mediaType };
    case 'url':
      return { type, uri: source.url, ...(source.mediaType ? { mime_type: source.mediaType } : {}) };
    case 'file-id':
      return { type, uri: source.id, mime_type: source.mediaType ?? fallback };
    default:
      return assertNever(source, 'media source');
  }
}

/** A text or media part → a content; undefined for the kinds a content cannot be. */
export function contentOf(p: Part): InteractionsContent | undefined {
  switch (p.type) {
    case 'text':
    case 'refusal':
      return { type: 'text', text: p.text };
    case 'image':
      return media('image', p.source, 'image/jpeg');
    case 'audio':
      return media('audio', p.source, p.format ? `audio/${p.format}` : 'audio/wav');
    case 'file':
      return media(p.source.mediaType?.toLowerCase().startsWith('video/') ? 'video' : 'document', p.source, 'application/pdf');
    default:
      return undefined;
  }
}

function functionResult(p: ToolResultPart, name: string | undefined, path: string, warnings: Warning[]): AnyStep {
  const content: InteractionsContent[] = [];
  p.content.forEach((c, k) => {
    const out = contentOf(c);
    if (out) content.push(out);
    else warnings.push({ code: 'dropped', path: `${path}.content[${k}]`, detail: `${c.type} in a tool result`, lossy: true });
  });
  const onlyText = content.every((c) => c.type === 'text');
  return {
    type: 'function_result',
    call_id: p.callId,
    ...(name !== undefined ? { name } : {}),
    // Several text parts (blocks of one tool result) keep their separation in the one string.
    result: onlyText ? content.map((c) => (c as { text: string }).text).join('\n') : content,
    ...(p.isError ? { is_error: true } : {}),
  };
}

export function encodeInput(req: ChatRequest, warnings: Warning[]): { system_instruction?: string; input: AnyStep[] } {
  const texts: string[] = [];
  req.system.forEach((p, j) => {
    if (p.type === 'text') {
      if (p.text) texts.push(p.text);
    } else warnings.push({ code: 'dropped', path: `system[${j}]`, detail: p.type, lossy: true });
  });
  const steps: AnyStep[] = [];
  /** Call names by id, for results that do not name their function. */
  const names = new Map<string, string>();
  req.messages.forEach((m, i) => {
    /** The output step text and media gather in, until something else comes between. */
    let gathering: InteractionsContent[] | undefined;
    const gather = (c: InteractionsContent) => {
      if (!gathering) {
        gathering = [];
        steps.push({ type: m.role === 'user' ? 'user_input' : 'model_output', content: gathering });
      }
      gathering.push(c);
    };
    /**
     * Unsigned thought text just before a part a Gemini signature rode on (generateContent signs
     * the call, not its thought summary): that signature's thought step carries it as summary.
     */
    let unsigned: { text: string; path: string } | undefined;
    const flushUnsigned = () => {
      if (unsigned) warnings.push({ code: 'dropped', path: unsigned.path, detail: 'reasoning' });
      unsigned = undefined;
    };
    /** A Gemini signature that rode on a text or call part: its own thought step, unless the step before is that thought. */
    const signed = (path: string, sig: Signature | undefined) => {
      if (!sig) return;
      const gemini = signatureFor(sig, 'gemini');
      if (!gemini) {
        warnings.push({ code: 'signature-not-replayed', path });
        return;
      }
      const prev = steps.at(-1);
      if (prev?.type === 'thought' && (prev as { signature?: string }).signature === gemini.value) return;
      gathering = undefined;
      steps.push({ type: 'thought', signature: gemini.value, ...(unsigned ? { summary: [{ type: 'text', text: unsigned.text }] } : {}) });
      unsigned = undefined;
    };
    m.content.forEach((p, j) => {
      const path = `messages[${i}].content[${j}]`;
      switch (p.type) {
        case 'text':
          if (m.role === 'assistant') signed(path, p.signature);
          flushUnsigned();
          if (p.text === '' && m.role === 'assistant') return;
          gather({ type: 'text', text: p.text });
          return;
        case 'refusal':
        case 'image':
        case 'audio':
        case 'file':
          flushUnsigned();
          gather(contentOf(p)!);
          return;
        case 'tool-call': {
          if (m.role !== 'assistant') break;
          signed(path, p.signature);
          flushUnsigned();
          gathering = undefined;
          names.set(p.id, p.name);
          steps.push({ type: 'function_call', id: p.id, name: p.name, arguments: parseArguments(p.arguments, `${path}.arguments`, warnings) });
          return;
        }
        case 'tool-result':
          if (m.role !== 'user') break;
          gathering = undefined;
          steps.push(functionResult(p, p.name ?? names.get(p.callId), path, warnings));
          return;
        case 'reasoning': {
          if (m.role !== 'assistant') break;
          const sig = signatureFor(p.signature, 'gemini');
          if (p.redacted || (p.signature && !sig)) {
            warnings.push({ code: 'signature-not-replayed', path });
            return;
          }
          flushUnsigned();
          if (!sig) {
            if (p.text) unsigned = { text: p.text, path };
            return;
          }
          gathering = undefined;
          steps.push({ type: 'thought', signature: sig.value, ...(p.text ? { summary: [{ type: 'text', text: p.text }] } : {}) });
          return;
        }
        case 'web-search': {
          // This API's own search goes back as its steps; another vendor's (or generateContent's
          // grounding) never reaches Google as its own: dropped, the answer that used it stays.
          const own = m.role === 'assistant' ? ownWebSearch(p, 'gemini-interactions') : undefined;
          if (!Array.isArray(own)) {
            warnings.push({ code: 'dropped', path, detail: 'web-search' });
            return;
          }
          flushUnsigned();
          gathering = undefined;
          steps.push(...(own as AnyStep[]));
          return;
        }
        default:
          return assertNever(p, 'part');
      }
      warnings.push({ code: 'dropped', path, detail: `${p.type} in ${m.role === 'assistant' ? 'an' : 'a'} ${m.role} message`, lossy: true });
    });
    flushUnsigned();
    if (m.role === 'user' && m.content.length === 0) steps.push({ type: 'user_input', content: [{ type: 'text', text: '' }] });
  });
  return { ...(texts.length > 0 ? { system_instruction: texts.join('\n\n') } : {}), input: steps };
}

/** Tool-call arguments (JSON text) → the object this API wants; anything else is wrapped and reported. */
function parseArguments(text: string, path: string, warnings: Warning[]): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // not JSON: reported below
  }
  warnings.push({ code: 'approximated', path, detail: 'arguments not a JSON object' });
  return { value: text };
}
