/**
 * Seeing what a translation did: strict mode, dry-run, and the redaction shared by dry-run
 * output and the wire dump (credentials masked, large base64 payloads elided).
 */
import { ProxyError, warningToken, type Warning } from '../canonical/index.ts';
import type { UpstreamHttpRequest } from '../../translators/types.ts';
import type { ResolvedTarget } from './resolve.ts';

const SECRET_HEADER = /^(authorization|x-api-key|x-goog-api-key|api-key|proxy-authorization|cookie)$/i;

/** Warnings strict mode refuses: everything that changes meaning (estimates are not). */
export function lossOf(warnings: readonly Warning[]): Warning[] {
  return warnings.filter((w) => w.code !== 'estimated');
}

/** Strict mode: a 400 naming what could not be carried; nothing goes upstream. */
export function assertStrict(warnings: readonly Warning[], upstream: string): void {
  const lost = lossOf(warnings);
  if (lost.length === 0) return;
  const tokens = [...new Set(lost.map(warningToken))];
  throw new ProxyError(
    'invalid-request',
    `Strict mode: this request cannot be carried to upstream '${upstream}' without loss: ${tokens.join(', ')}.`,
    { code: 'strict_mode_violation', param: lost[0]!.path },
  );
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = SECRET_HEADER.test(k) ? '***' : v;
  return out;
}

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

/** Thrown by the upstream call in dry-run mode, caught where the response is made. */
export class DryRun {
  constructor(
    readonly request: UpstreamHttpRequest,
    readonly target: ResolvedTarget,
  ) {}

  /** The exact request that would be sent: method, URL, headers (credentials masked), body. */
  render(warnings: readonly Warning[]): unknown {
    let body: unknown = this.request.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // not JSON: shown as text
      }
    } else if (body !== undefined) {
      const fields: Record<string, string> = {};
      (body as FormData).forEach((v, k) => {
        fields[k] = typeof v === 'string' ? v : `<file ${(v as Blob).size} bytes, ${(v as Blob).type || 'unknown type'}>`;
      });
      body = { multipart: fields };
    }
    return {
      dryRun: true,
      upstream: { name: this.target.upstream.name, dialect: this.target.upstream.dialect, model: this.target.model },
      request: {
        method: this.request.method,
        url: this.request.url,
        headers: redactHeaders(this.request.headers),
        body: elideBase64(body),
      },
      warnings: [...new Set(warnings.map(warningToken))],
    };
  }
}

/** Parsed JSON when the text is JSON, else the text (for dumps). */
export function jsonOrText(text: unknown): unknown {
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
