/**
 * Request content blocks → canonical parts (caller side).
 * https://docs.claude.com/en/api/messages (content block params).
 */
import {
  decodeSignature,
  withoutLentSignatures,
  type FilePart,
  type ImagePart,
  type MediaSource,
  type Part,
  type Signature,
  type Warning,
} from '../../src/canonical/index.ts';
import { decodeCallerToolId } from './tool-id.ts';
import { isJsonObject as isRecord, utf8ToBase64 } from '../../src/kit/index.ts';
import { decodeCache } from './cache.ts';
import { invalid, parseWire } from './validate.ts';
import {
  AnthropicBlockSchemas,
  AnthropicBlockTypeSchema,
} from './wire.ts';
import { decodeCitation } from './citations.ts';
import { decodeWebSearch, isWebToolUse } from './web-search.ts';

/** Blocks that only mean something to Anthropic itself (server tools): skipped with a warning. */
const SERVER_BLOCK =
  /^(server_tool_use|container_upload|search_result|tool_reference|browser_state|mcp_.*|.*_tool_result)$/;

/** A signature field: our own carrier (another vendor's value) or a raw Anthropic signature. */
export function signatureOf(value: string): Signature {
  return decodeSignature(value) ?? { origin: 'anthropic', value };
}

const hints = decodeCache;

/** Decode one message's `content` (string or blocks); `path` is e.g. `messages.0.content`. */
export function decodeContent(content: unknown, path: string, warnings: Warning[]): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalid(path, 'Input should be a valid string or list');
  const parts: Part[] = [];
  const consumed = new Set<unknown>();
  content.forEach((block, i) => {
    if (consumed.has(block)) return;
    if (isRecord(block) && isWebToolUse(block)) {
      // A web search or fetch and its result in the history: one part (web-search.ts).
      const result = content.find((b) => isRecord(b) && b.tool_use_id === block.id && b !== block);
      if (result) consumed.add(result);
      parts.push(decodeWebSearch(block, result as Record<string, unknown> | undefined));
      return;
    }
    const part = decodeBlock(block, `${path}.${i}`, warnings);
    if (!part) return;
    // A Gemini thought signature on a text part travels as an empty thinking block right after
    // that text (see encode-response.ts); put it back on the text.
    const prev = parts[parts.length - 1];
    if (
      part.type === 'reasoning' &&
      part.text === '' &&
      part.signature?.origin === 'gemini' &&
      prev?.type === 'text' &&
      !prev.signature
    ) {
      parts[parts.length - 1] = { ...prev, signature: part.signature };
      return;
    }
    parts.push(part);
  });
  // A thinking block showing the signature of the call after it was lent it (lent-signatures.ts).
  return withoutLentSignatures(parts);
}

function decodeBlock(block: unknown, path: string, warnings: Warning[]): Part | undefined {
  const { type } = parseWire(AnthropicBlockTypeSchema, block, path);
  switch (type) {
    case 'text': {
      const b = parseWire(AnthropicBlockSchemas.text, block, path);
      if (b.text === '') throw invalid(`${path}.text`, 'text content blocks must be non-empty');
      return {
        type: 'text',
        text: b.text,
        ...hints(b.cache_control),
        ...(b.citations?.length ? { citations: b.citations.map(decodeCitation) } : {}),
      };
    }
    case 'image': {
      const b = parseWire(AnthropicBlockSchemas.image, block, path);
      const s = b.source;
      const source: MediaSource =
        s.type === 'base64'
          ? { type: 'base64', mediaType: s.media_type, data: s.data }
          : s.type === 'url'
            ? { type: 'url', url: s.url }
            : { type: 'file-id', id: s.file_id };
      const part: ImagePart = { type: 'image', source, ...hints(b.cache_control) };
      return part;
    }
    case 'document':
      return decodeDocument(block, path, warnings);
    case 'tool_use': {
      const b = parseWire(AnthropicBlockSchemas.tool_use, block, path);
      const { id, signature } = decodeCallerToolId(b.id);
      const input = b.input ?? {};
      return {
        type: 'tool-call',
        id,
        name: b.name,
        arguments: typeof input === 'string' ? input : JSON.stringify(input),
        ...(signature ? { signature } : {}),
        ...hints(b.cache_control),
      };
    }
    case 'tool_result': {
      const b = parseWire(AnthropicBlockSchemas.tool_result, block, path);
      const content = b.content == null ? [] : decodeContent(b.content, `${path}.content`, warnings);
      return {
        type: 'tool-result',
        callId: decodeCallerToolId(b.tool_use_id).id,
        content,
        ...(b.is_error ? { isError: true } : {}),
        ...hints(b.cache_control),
      };
    }
    case 'thinking': {
      const b = parseWire(AnthropicBlockSchemas.thinking, block, path);
      return {
        type: 'reasoning',
        text: b.thinking,
        ...(b.signature ? { signature: signatureOf(b.signature) } : {}),
      };
    }
    case 'redacted_thinking': {
      const b = parseWire(AnthropicBlockSchemas.redacted_thinking, block, path);
      return { type: 'reasoning', text: '', redacted: signatureOf(b.data) };
    }
    case 'compaction':
      // A failed compaction (no summary) is a no-op, as the API treats it; one with a summary
      // was taken in before decoding (context-management.ts, fromLastCompaction).
      return undefined;
    default:
      if (SERVER_BLOCK.test(type)) {
        warnings.push({ code: 'dropped', path, detail: type, lossy: true });
        return undefined;
      }
      throw invalid(
        `${path}.type`,
        `Input tag '${type}' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking'`,
      );
  }
}

function decodeDocument(block: unknown, path: string, warnings: Warning[]): FilePart {
  const b = parseWire(AnthropicBlockSchemas.document, block, path);
  const s = b.source;
  let source: MediaSource;
  switch (s.type) {
    case 'base64':
      source = { type: 'base64', mediaType: s.media_type, data: s.data };
      break;
    case 'text':
      source = { type: 'base64', mediaType: s.media_type ?? 'text/plain', data: utf8ToBase64(s.data) };
      break;
    case 'url':
      source = { type: 'url', url: s.url, mediaType: 'application/pdf' };
      break;
    case 'file':
      source = { type: 'file-id', id: s.file_id };
      break;
    case 'content': {
      // Custom-content documents: kept as their text (images inside are not carried).
      const inner = decodeContent(s.content, `${path}.source.content`, warnings);
      const text = inner.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
      if (inner.some((p) => p.type !== 'text')) {
        warnings.push({ code: 'dropped', path: `${path}.source.content`, detail: 'non-text' });
      }
      source = { type: 'base64', mediaType: 'text/plain', data: utf8ToBase64(text) };
      break;
    }
  }
  for (const key of ['context', 'citations'] as const) {
    if ((block as Record<string, unknown>)[key] != null) {
      warnings.push({ code: 'dropped', path: `${path}.${key}` });
    }
  }
  return {
    type: 'file',
    source,
    ...(b.title ? { title: b.title } : {}),
    ...hints(b.cache_control),
  };
}
