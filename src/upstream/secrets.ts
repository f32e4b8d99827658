/**
 * The one list of what is secret on the upstream side, and the two ways it is kept out of sight:
 * `redactHeaders` (dry-run answers, the wire dump, the inspector) masks secret header values, and
 * `scrubError` removes any of them an upstream echoes back in an error before a caller sees it.
 *
 * Secret are: the credential headers every vendor uses, and every header an upstream's config
 * adds (`upstreams.NAME.headers`: they often carry tokens, and config cannot say which do not).
 */
import type { ProxyError } from '../canonical/index.ts';
import { SECRET_FIELDS, type Config } from '../config/load.ts';

/** Credential-bearing header names (lower case), whoever sends them. */
export const SECRET_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'set-cookie',
  'x-amz-security-token',
]);

/** Vendor key shapes, masked wherever an upstream echoes one back (even one we did not send). */
const KEY_PATTERNS: Array<[RegExp, string]> = [
  [/\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_*-]{8,}/g, '$1***'],
  [/\bAIza[0-9A-Za-z_-]{10,}/g, 'AIza***'],
];

export const REDACTED = '***';

function isSecret(name: string, configured?: ReadonlySet<string>): boolean {
  const n = name.toLowerCase();
  return SECRET_HEADER_NAMES.has(n) || (configured?.has(n) ?? false);
}

/** A copy of `headers` with every secret value masked (`configured`: the upstream's own header names). */
export function redactHeaders(headers: Record<string, string>, configured?: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = isSecret(k, configured) ? REDACTED : v;
  return out;
}

/** The secret values a request carries (a Bearer token without its scheme), for scrubbing. */
export function secretValues(headers: Record<string, string>, configured?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecret(name, configured)) continue;
    const v = value.replace(/^(Bearer|Basic)\s+/i, '').trim();
    // Shorter values are too likely to occur by chance to be worth masking.
    if (v.length >= 4) out.push(v);
  }
  return out;
}

/** `text` with every secret and every vendor key shape masked. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  for (const [re, by] of KEY_PATTERNS) out = out.replace(re, by);
  return out;
}

/** An upstream error with anything that echoes a secret removed (the same object when clean). */
export function scrubError(err: ProxyError, secrets: readonly string[]): ProxyError {
  const message = scrubText(err.message, secrets);
  const raw = err.raw === undefined ? undefined : scrubText(err.raw, secrets);
  if (message === err.message && raw === err.raw) return err;
  return err.with({ message, raw });
}

/**
 * Every credential value the config holds (inbound keys, each upstream's credential fields — every
 * member of a key pool — and configured header values, the telemetry exporter's headers, the store
 * URL and secret, the search backend's key), for scrubbing text that no header map describes (the inspector's recorded
 * exchanges).
 */
export function configSecretValues(config: Config): string[] {
  const out: string[] = config.keys.map((k) => k.key);
  for (const u of Object.values(config.upstreams)) {
    // A pool's every member, not only the first it is planned with.
    for (const m of [u, ...(u.pool?.members ?? [])]) for (const f of SECRET_FIELDS) if (m[f]) out.push(m[f]);
    out.push(...Object.values(u.headers ?? {}));
  }
  out.push(...Object.values(config.telemetry?.otlp.headers ?? {}));
  if (config.store.url) out.push(config.store.url);
  if (config.store.secret) out.push(config.store.secret);
  if (config.search?.apiKey) out.push(config.search.apiKey);
  return out;
}
