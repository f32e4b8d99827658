/**
 * Error bodies of OpenAI-compatible hosts that are not OpenAI's envelope, read so that their
 * detail reaches the caller's message. Mistral validates with pydantic and answers a 422 whose
 * `message` is an object (or that object as a JSON string, or a bare FastAPI body):
 *
 *   {"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],
 *    "msg":"Extra inputs are not permitted","input":{…}}]},"type":"invalid_request_error","param":null,"code":null}
 *   {"detail":[{"type":"extra_forbidden","loc":["body","max_completion_tokens"],"msg":"Extra inputs are not permitted"}]}
 *
 * (github.com/mistralai/platform-docs-public/issues/7 and /212, github.com/cline/cline/issues/582,
 * github.com/Gitlawb/openclaude/issues/739.)
 */
import { isJsonObject as isRecord } from '../../../src/kit/index.ts';

export interface HostErrorDetail {
  message: string;
  /** The first offending field, from `loc` without its leading `body`. */
  param?: string;
  type?: string;
  code?: string;
}

/** A JSON string holding an object or a list (Mistral once sent its detail that way). */
function parsedString(x: unknown): unknown {
  if (typeof x !== 'string' || !/^\s*[[{]/.test(x)) return x;
  try {
    return JSON.parse(x);
  } catch {
    return x;
  }
}

function locPath(loc: unknown): string | undefined {
  if (!Array.isArray(loc)) return undefined;
  const parts = loc.filter((p, i) => !(i === 0 && p === 'body')).map(String);
  return parts.length > 0 ? parts.join('.') : undefined;
}

/** pydantic's `detail` list → "field: msg; field: msg", and the first field. */
function fromDetail(detail: unknown): { message: string; param?: string } | undefined {
  if (typeof detail === 'string' && detail) return { message: detail };
  if (!Array.isArray(detail) || detail.length === 0) return undefined;
  let param: string | undefined;
  const lines = detail.map((d) => {
    if (!isRecord(d)) return JSON.stringify(d);
    const path = locPath(d['loc']);
    param ??= path;
    const msg = typeof d['msg'] === 'string' ? d['msg'] : JSON.stringify(d);
    return path ? `${path}: ${msg}` : msg;
  });
  return { message: lines.join('; '), ...(param ? { param } : {}) };
}

/** A structured (non-string) message, as text that keeps its detail. */
function fromValue(value: unknown): { message: string; param?: string } | undefined {
  const v = parsedString(value);
  if (isRecord(v)) return fromDetail(v['detail']) ?? (typeof v['message'] === 'string' && v['message'] ? { message: v['message'] } : { message: JSON.stringify(v) });
  if (Array.isArray(v)) return fromDetail(v);
  return undefined;
}

/**
 * The detail of a host's error body whose message is structured (an object, a list, a JSON
 * string of one, or a top-level `detail`): undefined for a plain string message, which the
 * OpenAI reader already takes.
 */
export function hostErrorDetail(json: unknown): HostErrorDetail | undefined {
  if (!isRecord(json)) return undefined;
  const inner = isRecord(json['error']) ? json['error'] : undefined;
  const found = fromValue(json['message']) ?? fromDetail(json['detail']) ?? (inner ? fromValue(inner['message']) ?? fromDetail(inner['detail']) : undefined);
  if (!found) return undefined;
  const source = inner && !('message' in json) && !('detail' in json) ? inner : json;
  const type = typeof source['type'] === 'string' ? source['type'] : undefined;
  const code = source['code'] != null && source['code'] !== '' ? String(source['code']) : undefined;
  const param = typeof source['param'] === 'string' && source['param'] !== '' ? source['param'] : found.param;
  return { message: found.message, ...(param ? { param } : {}), ...(type ? { type } : {}), ...(code ? { code } : {}) };
}
