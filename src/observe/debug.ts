/**
 * The wire dump (`--debug`): readable blocks with large base64 payloads elided. Credentials are
 * masked by whoever hands headers in (upstream/secrets.ts); nothing here knows them.
 */
import { ByteParts } from '../kit/index.ts';

const BASE64ISH = /^(data:[^;,]+;base64,)?[A-Za-z0-9+/=_-]+$/;

/** A copy of `value` with long base64-looking strings replaced by a short note. */
export function elideBase64(value: unknown, limit = 256): unknown {
  if (typeof value === 'string') {
    return value.length > limit && BASE64ISH.test(value.slice(0, 4096)) ? `<base64, ${value.length} chars elided>` : value;
  }
  if (Array.isArray(value)) return value.map((v) => elideBase64(v, limit));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = elideBase64(v, limit);
    return out;
  }
  return value;
}

/** Parsed JSON when the text (or body bytes, whole or in parts) is JSON, else the text (for dumps). */
export function jsonOrText(body: unknown): unknown {
  const text = body instanceof ByteParts ? new TextDecoder().decode(body.join()) : body instanceof Uint8Array ? new TextDecoder().decode(body) : body;
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Header value → boolean switch (`true`, `1`, `yes`). */
export function headerFlag(value: string | undefined | null): boolean {
  return !!value && /^(1|true|yes|on)$/i.test(value.trim());
}

/** One readable wire-dump block: a title line and indented, redacted JSON. */
export function formatDump(requestId: string, stage: string, data: unknown): string {
  let text: string;
  if (typeof data === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      parsed = undefined;
    }
    text = parsed === undefined ? data : JSON.stringify(elideBase64(parsed), null, 2);
  } else {
    text = JSON.stringify(elideBase64(data), null, 2);
  }
  return `── ${requestId} · ${stage}\n${text.replace(/^/gm, '   ')}`;
}
