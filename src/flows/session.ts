/**
 * The session a chat request belongs to, for key and upstream affinity (src/upstream/key-pool.ts)
 * and the `prompt_cache_key` sent toward OpenAI. First found wins: the `x-claude-code-session-id`
 * header (Claude Code), Codex's `session_id` header, then the body's `prompt_cache_key`
 * (Responses, Chat Completions), Anthropic's `metadata.user_id`, OpenAI's `user`. All three body
 * fields are top-level (`SESSION_FIELDS`), so a body forwarded without decoding gives them from its
 * scan: only their own values are parsed.
 *
 * The identity itself goes no further than the keyed hash made of it (`KeyPools.session`).
 */
import type { FlowDeps } from './context.ts';

const HEADERS = ['x-claude-code-session-id', 'session_id'] as const;
/** The body's top-level fields a session identity is read from. */
export const SESSION_FIELDS = ['prompt_cache_key', 'metadata', 'user'] as const;
type Field = (typeof SESSION_FIELDS)[number];

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The identity from the headers, then from the body's fields (`field(name)` gives one's value). */
export function sessionIdentity(headers: Record<string, string>, field: (name: Field) => unknown): string | undefined {
  for (const h of HEADERS) {
    const v = text(headers[h]?.trim());
    if (v) return v;
  }
  const key = text(field('prompt_cache_key'));
  if (key) return key;
  const metadata = field('metadata');
  const user = metadata !== null && typeof metadata === 'object' ? text((metadata as Record<string, unknown>).user_id) : undefined;
  return user ?? text(field('user'));
}

/**
 * The request's session: the keyed hash of its identity, from `headers` and the body's top-level
 * fields (`body`: the parsed body, or its `SESSION_FIELDS` as scanned), when the app keeps pools.
 */
export async function sessionOf(deps: FlowDeps, headers: Record<string, string>, body: unknown): Promise<string | undefined> {
  const identity = sessionOfBody(headers, body);
  return identity === undefined || !deps.pools ? undefined : deps.pools.session(identity);
}

/** The identity of a body's top-level fields. */
export function sessionOfBody(headers: Record<string, string>, body: unknown): string | undefined {
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return sessionIdentity(headers, (name) => (Object.hasOwn(fields, name) ? fields[name] : undefined));
}
