/**
 * What OpenAI-compatible hosts need different from OpenAI proper, driven by the knobs their
 * provider sets (`UpstreamOptions`, see translators/types.ts): the same rules for a translated
 * request (encode-request.ts, encode-messages.ts) and a same-dialect passthrough (`adaptBody`).
 */
import type { UpstreamOptions } from '../types.ts';
import { isJsonObject as isRecord } from '../../src/kit/index.ts';

/** Mistral's rule for tool-call ids: "must be a-z, A-Z, 0-9, with a length of 9". */
const ALPHANUMERIC_9 = /^[A-Za-z0-9]{9}$/;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** FNV-1a, 32 bits, with a seed. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function base62(n: number, digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i++) {
    out += BASE62[n % 62];
    n = Math.floor(n / 62);
  }
  return out;
}

/** 9 base62 characters from an id (5 from one hash, 4 from another: ~53 bits). */
function alphanumeric9(id: string, salt: number): string {
  return base62(fnv1a(id, salt * 2) % 62 ** 5, 5) + base62(fnv1a(id, salt * 2 + 1) % 62 ** 4, 4);
}

/**
 * The ids of one request mapped to `[a-zA-Z0-9]{9}`: a valid id is kept (the host's own ids come
 * back unchanged), any other one is hashed — so a call and its result, which carry the same id, map
 * to the same id — and a hash that collides with an id already taken in this request is salted
 * again. Pure and request-scoped: the same request always maps the same way. No reverse map is
 * needed: the host answers with ids of its own, which the caller then sends back as they are.
 */
export function alphanumericIds(ids: Iterable<string>): (id: string) => string {
  const all = [...ids];
  // Every id of the request is taken (a hash, always valid, can only meet the valid ones).
  const taken = new Set(all);
  const map = new Map<string, string>();
  for (const id of all) {
    if (map.has(id)) continue;
    if (ALPHANUMERIC_9.test(id)) {
      map.set(id, id);
      continue;
    }
    let salt = 0;
    let out = alphanumeric9(id, salt);
    while (taken.has(out)) out = alphanumeric9(id, ++salt);
    taken.add(out);
    map.set(id, out);
  }
  return (id) => map.get(id) ?? id;
}

/** Text parts as one string for hosts that take no arrays: a blank line keeps them apart. */
export function joinTexts(texts: readonly string[]): string {
  return texts.join('\n\n');
}

type Json = Record<string, unknown>;


/**
 * A content array of bare text parts only, as its texts; undefined for anything else (a part with
 * more than its text, such as `cache_control`, keeps the array).
 */
function textsOf(content: unknown): string[] | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const texts: string[] = [];
  for (const p of content) {
    if (!isRecord(p) || p['type'] !== 'text' || typeof p['text'] !== 'string' || Object.keys(p).length !== 2) return undefined;
    texts.push(p['text']);
  }
  return texts;
}

/** Whether any knob asks a passthrough body to change. */
export function adaptsBody(o: UpstreamOptions): boolean {
  return o.maxTokensField === 'max_tokens' || o.streamOptions === false || o.toolCallIds !== undefined || o.textContent !== undefined || o.bodyFields !== undefined;
}

/**
 * The body with only the top-level fields the host accepts (`bodyFields`), renamed where it
 * names them otherwise; `dropped` names what was left out. Unchanged (same object) when all fit.
 */
export function fitFields(body: Json, o: UpstreamOptions): { body: Json; dropped: string[] } {
  const rule = o.bodyFields;
  if (!rule) return { body, dropped: [] };
  const allow = new Set(rule.allow);
  const dropped: string[] = [];
  let out: Json | undefined;
  for (const key of Object.keys(body)) {
    if (allow.has(key)) continue;
    out ??= { ...body };
    const to = rule.rename?.[key];
    if (to !== undefined && allow.has(to) && out[to] === undefined) out[to] = out[key];
    else dropped.push(key);
    delete out[key];
  }
  return { body: out ?? body, dropped };
}

/**
 * A caller's Chat Completions body as this host takes it (passthrough): the length limit renamed,
 * `stream_options` dropped, tool-call ids mapped, text-only content arrays joined. Undefined when
 * nothing changes, so the caller's bytes go out untouched.
 */
export function adaptBody(body: Json, o: UpstreamOptions): Json | undefined {
  const adapted = adaptKnownFields(body, o);
  const fitted = fitFields(adapted ?? body, o).body;
  return fitted === body ? undefined : fitted;
}

function adaptKnownFields(body: Json, o: UpstreamOptions): Json | undefined {
  let out: Json | undefined;
  const edit = () => (out ??= { ...body });
  if (o.maxTokensField === 'max_tokens' && body['max_completion_tokens'] !== undefined) {
    const e = edit();
    if (e['max_tokens'] === undefined) e['max_tokens'] = e['max_completion_tokens'];
    delete e['max_completion_tokens'];
  }
  if (o.streamOptions === false && body['stream_options'] !== undefined) delete edit()['stream_options'];
  const messages = body['messages'];
  if (!Array.isArray(messages)) return out;

  let mapId: ((id: string) => string) | undefined;
  if (o.toolCallIds === 'alphanumeric-9') {
    const ids: string[] = [];
    for (const m of messages) {
      if (!isRecord(m)) continue;
      if (Array.isArray(m['tool_calls'])) for (const c of m['tool_calls']) if (isRecord(c) && typeof c['id'] === 'string') ids.push(c['id']);
      if (typeof m['tool_call_id'] === 'string') ids.push(m['tool_call_id']);
    }
    if (ids.some((id) => !ALPHANUMERIC_9.test(id))) mapId = alphanumericIds(ids);
  }
  let changed = false;
  const adapted = messages.map((m) => {
    if (!isRecord(m)) return m;
    let msg: Json | undefined;
    if (o.textContent === 'string') {
      const texts = textsOf(m['content']);
      if (texts) msg = { ...m, content: joinTexts(texts) };
    }
    if (mapId) {
      if (Array.isArray(m['tool_calls'])) {
        msg = { ...(msg ?? m), tool_calls: m['tool_calls'].map((c) => (isRecord(c) && typeof c['id'] === 'string' ? { ...c, id: mapId!(c['id']) } : c)) };
      }
      if (typeof m['tool_call_id'] === 'string') msg = { ...(msg ?? m), tool_call_id: mapId(m['tool_call_id']) };
    }
    if (!msg) return m;
    changed = true;
    return msg;
  });
  if (changed) edit()['messages'] = adapted;
  return out;
}
