/**
 * Upstream side: canonical system + messages → Anthropic `system` and `messages`.
 * Rules (https://docs.claude.com/en/api/messages):
 * - consecutive same-role turns are merged; `tool_result` blocks come first in a user turn;
 * - empty or whitespace-only text never becomes a block (the API rejects it); a turn left with
 *   no blocks is dropped with a warning;
 * - thinking blocks are replayed only with an Anthropic signature; redacted blocks only when
 *   Anthropic issued them; everything foreign is dropped (`signature-not-replayed`);
 * - audio cannot be sent (ProxyError `unsupported`).
 */
import {
  assertNever,
  ProxyError,
  signatureFor,
  type FilePart,
  type ImagePart,
  type Message,
  type Part,
  type Warning,
  type WebSearchPart,
  ownWebSearch,
} from '../../src/canonical/index.ts';
import { base64ToUtf8, parseDataUrl } from '../../src/kit/index.ts';
import { type CacheHint } from '../../src/canonical/index.ts';
import { encodeCache } from './cache.ts';
import { inputOf } from './encode-response.ts';

export type AnthropicBlockParam = Record<string, unknown> & { type: string };

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: AnthropicBlockParam[];
}

/** Anthropic tool ids must match `^[a-zA-Z0-9_-]+$`; map others deterministically. */
export function wireToolId(id: string): string {
  const clean = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return clean === '' ? 'toolu_' : clean;
}

function withCache<T extends Record<string, unknown>>(block: T, part: { cache?: CacheHint }): T {
  return part.cache ? { ...block, cache_control: encodeCache(part.cache) } : block;
}

function imageBlock(part: ImagePart | FilePart, path: string): AnthropicBlockParam {
  const s = part.source;
  switch (s.type) {
    case 'base64':
      return { type: 'image', source: { type: 'base64', media_type: s.mediaType, data: s.data } };
    case 'url': {
      const inline = parseDataUrl(s.url);
      return inline
        ? { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } }
        : { type: 'image', source: { type: 'url', url: s.url } };
    }
    case 'file-id':
      return { type: 'image', source: { type: 'file', file_id: s.id } };
    default:
      return assertNever(s, `${path}.source`);
  }
}

function documentBlock(part: FilePart, path: string): AnthropicBlockParam {
  const s = part.source;
  const mediaType = s.type === 'url' ? (parseDataUrl(s.url)?.mediaType ?? s.mediaType) : s.mediaType;
  if (mediaType?.startsWith('image/')) return imageBlock(part, path);
  let source: Record<string, unknown>;
  switch (s.type) {
    case 'base64':
      source = textOrPdf(s.mediaType, s.data, path);
      break;
    case 'url': {
      const inline = parseDataUrl(s.url);
      source = inline ? textOrPdf(inline.mediaType, inline.data, path) : { type: 'url', url: s.url };
      break;
    }
    case 'file-id':
      source = { type: 'file', file_id: s.id };
      break;
    default:
      return assertNever(s, `${path}.source`);
  }
  const title = part.title ?? part.filename;
  return { type: 'document', source, ...(title ? { title } : {}) };
}

function textOrPdf(mediaType: string, data: string, path: string): Record<string, unknown> {
  if (mediaType === 'application/pdf') return { type: 'base64', media_type: mediaType, data };
  if (mediaType.startsWith('text/')) {
    const text = base64ToUtf8(data);
    if (text !== undefined) return { type: 'text', media_type: 'text/plain', data: text };
  }
  throw new ProxyError('unsupported', `Anthropic accepts PDF and plain-text documents, not ${mediaType}`, {
    param: path,
  });
}

/** One canonical part → zero or one block. */
function encodePart(part: Part, path: string, warnings: Warning[]): AnthropicBlockParam | undefined {
  switch (part.type) {
    case 'text':
      if (part.signature) warnings.push({ code: 'signature-not-replayed', path: `${path}.signature` });
      if (part.text.trim() === '') return undefined;
      return withCache({ type: 'text', text: part.text }, part);
    case 'refusal':
      return part.text.trim() === '' ? undefined : { type: 'text', text: part.text };
    case 'image':
      return withCache(imageBlock(part, path), part);
    case 'file':
      return withCache(documentBlock(part, path), part);
    case 'audio':
      throw new ProxyError('unsupported', 'Anthropic models take no audio input', { param: path });
    case 'tool-call': {
      if (part.signature && !signatureFor(part.signature, 'anthropic')) {
        warnings.push({ code: 'signature-not-replayed', path: `${path}.signature` });
      }
      const trimmed = part.arguments.trim();
      const input = inputOf(part.arguments);
      if (trimmed !== '' && trimmed !== '{}' && Object.keys(input).length === 0) {
        warnings.push({ code: 'approximated', path: `${path}.arguments`, detail: 'not a JSON object' });
      }
      return withCache({ type: 'tool_use', id: wireToolId(part.id), name: part.name, input }, part);
    }
    case 'tool-result': {
      const blocks: AnthropicBlockParam[] = [];
      part.content.forEach((p, i) => {
        const b = encodePart(p, `${path}.content.${i}`, warnings);
        if (b) blocks.push(b);
      });
      const allText = blocks.every((b) => b.type === 'text' && !b.cache_control);
      const content = allText ? blocks.map((b) => b.text as string).join('\n') : blocks;
      return withCache(
        {
          type: 'tool_result',
          tool_use_id: wireToolId(part.callId),
          ...(content.length ? { content } : {}),
          ...(part.isError ? { is_error: true } : {}),
        },
        part,
      );
    }
    case 'reasoning': {
      if (part.redacted) {
        if (part.redacted.origin === 'anthropic') return { type: 'redacted_thinking', data: part.redacted.value };
        warnings.push({ code: 'signature-not-replayed', path });
        return undefined;
      }
      const sig = signatureFor(part.signature, 'anthropic');
      if (sig) return { type: 'thinking', thinking: part.text, signature: sig.value };
      // Anthropic rejects thinking blocks without its own valid signature.
      if (part.signature) warnings.push({ code: 'signature-not-replayed', path });
      else if (part.text) warnings.push({ code: 'dropped', path, detail: 'unsigned reasoning' });
      return undefined;
    }
    case 'web-search':
      return undefined; // only in a turn (webSearchBlocks), never inside a tool result
    default:
      return assertNever(part, 'part');
  }
}

/** A hosted search in the history: Anthropic's own two blocks, replayed; another vendor's, dropped. */
function webSearchBlocks(part: WebSearchPart, path: string, warnings: Warning[]): AnthropicBlockParam[] {
  const own = ownWebSearch(part, 'anthropic');
  if (Array.isArray(own)) return own as AnthropicBlockParam[];
  warnings.push({ code: 'dropped', path, detail: 'web-search' });
  return [];
}

export function encodeMessages(messages: readonly Message[], warnings: Warning[]): AnthropicMessageParam[] {
  const turns: AnthropicMessageParam[] = [];
  messages.forEach((m, i) => {
    const path = `messages[${i}]`;
    const content: AnthropicBlockParam[] = [];
    m.content.forEach((p, j) => {
      if (p.type === 'web-search') return content.push(...webSearchBlocks(p, `${path}.content[${j}]`, warnings));
      const b = encodePart(p, `${path}.content[${j}]`, warnings);
      if (b) content.push(b);
    });
    if (m.name) warnings.push({ code: 'dropped', path: `${path}.name` });
    if (content.length === 0) {
      if (m.content.length) warnings.push({ code: 'dropped', path, detail: 'empty turn' });
      return;
    }
    const prev = turns[turns.length - 1];
    if (prev && prev.role === m.role) prev.content.push(...content);
    else turns.push({ role: m.role, content });
  });
  for (const t of turns) {
    if (t.role !== 'user') continue;
    // Tool results first in a user turn, as the API requires.
    const results = t.content.filter((b) => b.type === 'tool_result');
    if (results.length) t.content = [...results, ...t.content.filter((b) => b.type !== 'tool_result')];
  }
  return turns;
}

/** System parts → a plain string (one uncached text part) or text blocks. */
export function encodeSystem(
  parts: readonly Part[],
  extra: string | undefined,
  warnings: Warning[],
): string | AnthropicBlockParam[] | undefined {
  const blocks: AnthropicBlockParam[] = [];
  parts.forEach((p, i) => {
    if (p.type !== 'text') {
      warnings.push({ code: 'dropped', path: `system[${i}]`, detail: p.type, lossy: true });
      return;
    }
    if (p.text.trim() !== '') blocks.push(withCache({ type: 'text', text: p.text }, p));
  });
  if (extra) blocks.push({ type: 'text', text: extra });
  if (blocks.length === 0) return undefined;
  if (blocks.length === 1 && !blocks[0]!.cache_control) return blocks[0]!.text as string;
  return blocks;
}
