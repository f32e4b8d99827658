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
  type Message,
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
    const message = new MessageSteps(steps, m.role, warnings);
    m.content.forEach((p, j) => message.part(p, `messages[${i}].content[${j}]`, names));
    message.flushUnsigned();
    if (m.role === 'user' && m.content.length === 0) steps.push({ type: 'user_input', content: [{ type: 'text', text: '' }] });
  });
  return { ...(texts.length > 0 ? { system_instruction: texts.join('\n\n') } : {}), input: steps };
}

/**
 * One message's steps, written part by part: its text and media gathered into one input or output
 * step until something else comes between, the Gemini signatures that rode on its parts as thought
 * steps.
 */
class MessageSteps {
  /** The step text and media gather in, until something else comes between. */
  private gathering: InteractionsContent[] | undefined;
  /**
   * Unsigned thought text just before a part a Gemini signature rode on (generateContent signs
   * the call, not its thought summary): that signature's thought step carries it as summary.
   */
  private unsigned: { text: string; path: string } | undefined;

  constructor(
    private readonly steps: AnyStep[],
    private readonly role: Message['role'],
    private readonly warnings: Warning[],
  ) {}

  /** One part of the message, at `path` (`names`: call names by id, for results that do not name their function). */
  part(p: Part, path: string, names: Map<string, string>): void {
    const assistant = this.role === 'assistant';
    switch (p.type) {
      case 'text':
        if (assistant) this.signed(path, p.signature);
        this.flushUnsigned();
        if (p.text === '' && assistant) return;
        this.gather({ type: 'text', text: p.text });
        return;
      case 'refusal':
      case 'image':
      case 'audio':
      case 'file':
        this.flushUnsigned();
        this.gather(contentOf(p)!);
        return;
      case 'tool-call':
        if (!assistant) break;
        this.signed(path, p.signature);
        this.flushUnsigned();
        names.set(p.id, p.name);
        this.step({ type: 'function_call', id: p.id, name: p.name, arguments: parseArguments(p.arguments, `${path}.arguments`, this.warnings) });
        return;
      case 'tool-result':
        if (this.role !== 'user') break;
        this.step(functionResult(p, p.name ?? names.get(p.callId), path, this.warnings));
        return;
      case 'reasoning':
        if (!assistant) break;
        this.reasoning(p, path);
        return;
      case 'web-search':
        this.webSearch(p, path);
        return;
      default:
        return assertNever(p, 'part');
    }
    this.warnings.push({ code: 'dropped', path, detail: `${p.type} in ${assistant ? 'an' : 'a'} ${this.role} message`, lossy: true });
  }

  /** Unsigned thought text no signature came to carry: it has no input form. */
  flushUnsigned(): void {
    if (this.unsigned) this.warnings.push({ code: 'dropped', path: this.unsigned.path, detail: 'reasoning' });
    this.unsigned = undefined;
  }

  private gather(c: InteractionsContent): void {
    if (!this.gathering) {
      this.gathering = [];
      this.steps.push({ type: this.role === 'user' ? 'user_input' : 'model_output', content: this.gathering });
    }
    this.gathering.push(c);
  }

  /** A step of its own: what gathers next starts another. */
  private step(s: AnyStep): void {
    this.gathering = undefined;
    this.steps.push(s);
  }

  /** A Gemini signature that rode on a text or call part: its own thought step, unless the step before is that thought. */
  private signed(path: string, sig: Signature | undefined): void {
    if (!sig) return;
    const gemini = signatureFor(sig, 'gemini');
    if (!gemini) {
      this.warnings.push({ code: 'signature-not-replayed', path });
      return;
    }
    const prev = this.steps.at(-1);
    if (prev?.type === 'thought' && (prev as { signature?: string }).signature === gemini.value) return;
    const unsigned = this.unsigned;
    this.step({ type: 'thought', signature: gemini.value, ...(unsigned ? { summary: [{ type: 'text', text: unsigned.text }] } : {}) });
    this.unsigned = undefined;
  }

  /** A thought: signed by Gemini, its own step; unsigned, held for the signature after it; another vendor's, not replayed. */
  private reasoning(p: Extract<Part, { type: 'reasoning' }>, path: string): void {
    const sig = signatureFor(p.signature, 'gemini');
    if (p.redacted || (p.signature && !sig)) {
      this.warnings.push({ code: 'signature-not-replayed', path });
      return;
    }
    this.flushUnsigned();
    if (!sig) {
      if (p.text) this.unsigned = { text: p.text, path };
      return;
    }
    this.step({ type: 'thought', signature: sig.value, ...(p.text ? { summary: [{ type: 'text', text: p.text }] } : {}) });
  }

  /**
   * This API's own search goes back as its steps; another vendor's (or generateContent's
   * grounding) never reaches Google as its own: dropped, the answer that used it stays.
   */
  private webSearch(p: Extract<Part, { type: 'web-search' }>, path: string): void {
    const own = this.role === 'assistant' ? ownWebSearch(p, 'gemini-interactions') : undefined;
    if (!Array.isArray(own)) {
      this.warnings.push({ code: 'dropped', path, detail: 'web-search' });
      return;
    }
    this.flushUnsigned();
    this.gathering = undefined;
    this.steps.push(...(own as AnyStep[]));
  }
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
