/**
 * Tool-use ids toward an Anthropic caller. The Messages API allows only `[a-zA-Z0-9_-]` in a
 * `tool_use` id (the `ResponseToolUseBlock` pattern), but other vendors' ids may hold more, such
 * as `functions.get_weather:0` from Kimi models on OpenAI-compatible hosts. Such an id goes to the
 * caller as `ilx_` + the hex of its UTF-8 bytes, and comes back as the original when the caller
 * echoes it (`tool_use.id`, `tool_result.tool_use_id`), so the upstream sees its own id again.
 * A signature carrier (`encodeToolCallId`) wraps the result as before.
 */
import { decodeToolCallId, encodeToolCallId, type Signature } from '../../src/canonical/index.ts';

const SAFE = /^[a-zA-Z0-9_-]+$/;
const ESCAPED = /^ilx_((?:[0-9a-f]{2})+)$/;

function hex(text: string): string {
  let out = '';
  for (const b of new TextEncoder().encode(text)) out += b.toString(16).padStart(2, '0');
  return out;
}

function unhex(digits: string): string | undefined {
  const bytes = new Uint8Array(digits.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The id an Anthropic caller gets for a tool call (pattern-safe; carrying a signature if any). */
export function callerToolId(id: string, signature?: Signature): string {
  return encodeToolCallId(SAFE.test(id) ? id : `ilx_${hex(id)}`, signature);
}

/**
 * The inverse of `callerToolId`. Only what `callerToolId` could have written is unescaped: the
 * hex must decode to text that needed escaping, so a genuine id never changes.
 */
export function decodeCallerToolId(wireId: string): { id: string; signature?: Signature } {
  const { id, signature } = decodeToolCallId(wireId);
  const m = ESCAPED.exec(id);
  const original = m ? unhex(m[1]!) : undefined;
  const plain = original !== undefined && !SAFE.test(original) ? original : id;
  return signature ? { id: plain, signature } : { id: plain };
}
