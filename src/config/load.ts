/**
 * Turning a configuration document into a validated, resolved `Config`. Pure: the runtime entry
 * reads files and hands over its environment.
 */
import * as v from 'valibot';
import {
  ConfigSchema,
  type ConfigInput,
  type RetryConfig,
  type RouteConfig,
  type Timeouts,
  type UpstreamConfig,
} from './schema.ts';
import { credentialsOf, SECRET_FIELDS, type KeyStrategy } from './pools.ts';
import { defaultBaseUrl, missingField, providerProblem } from './providers.ts';
import { describeIssues } from '../kit/index.ts';
import { locateJsonError } from './json-syntax.ts';
import { inboundKeys, type InboundKey } from './callers.ts';
import { mergedPrices, pricesOfLiteLLM, type ModelPrice } from './prices.ts';

export type { InboundKey } from './callers.ts';
export type { ModelPrice, PriceRates } from './prices.ts';

export { SECRET_FIELDS } from './pools.ts';

export type Env = Record<string, string | undefined>;

export interface Upstream extends Omit<UpstreamConfig, 'apiKey' | 'credentials' | 'apiKeyStrategy' | 'keyCooldownSeconds' | 'headers' | 'baseUrl'> {
  name: string;
  /** As configured, or the provider's default. */
  baseUrl: string;
  /** The key (a pool's first: requests are planned with it, and a try on another key swaps it). */
  apiKey?: string;
  /** Vertex AI: a service-account key's JSON text (a pool's first). */
  credentials?: string;
  /** Two credentials or more (`apiKey` or `credentials` as a list): see src/upstream/key-pool.ts. */
  pool?: UpstreamPool;
  /** Extra headers sent upstream, `env:` values resolved. */
  headers?: Record<string, string>;
  /** Lower-case names of those headers: every configured header value is treated as a secret. */
  secretHeaders: ReadonlySet<string>;
  timeouts: Required<Timeouts>;
  retry: Required<RetryConfig>;
}

/** A key pool as loaded. */
export interface UpstreamPool {
  /** Where the list is configured: its members are `upstreams.NAME.<field>[i]`. */
  field: 'apiKey' | 'credentials';
  /**
   * The upstream as called with each member, in config order: its credential fields replaced (a
   * provider instance of its own each, so a token cache or a signing key is never shared).
   */
  members: readonly Upstream[];
  strategy: KeyStrategy;
  cooldownSeconds: number;
}

export interface RouteTarget {
  upstream: string;
  /** Model to send; undefined keeps the caller's. */
  model?: string;
}

export interface Route extends RouteMeta {
  pattern: string;
  targets: RouteTarget[];
  strict: boolean;
  defaultMaxTokens?: number;
}

/** What a route says of its model (docs/configuration.md "Route metadata"). */
export interface RouteMeta {
  contextWindow?: number;
  maxOutputTokens?: number;
  /** Applied to every request on the route; `effort: 'none'` turns reasoning off. */
  reasoning?: ForcedReasoning;
}

export interface ForcedReasoning {
  effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high';
  budgetTokens?: number;
}

/** An `env:NAME` value of the config: the variable, the field that names it, whether it is set. */
export interface EnvRef {
  name: string;
  path: string;
  set: boolean;
}

export interface Config {
  /** Inbound keys callers must present (none: the proxy is open, or forwards callers' own keys). */
  keys: InboundKey[];
  /** Every `env:NAME` the document names, in document order (`check` lists them). */
  env: EnvRef[];
  open: boolean;
  upstreams: Record<string, Upstream>;
  /** Exact routes by name. */
  exact: Map<string, Route>;
  /** Glob routes, most specific first. */
  globs: Array<Route & { regex: RegExp }>;
  limits: { maxBodyBytes: number; maxMultipartBytes: number; maxSseBufferBytes: number; socketMaxAgeSeconds: number };
  cors?: { origins: string[] };
  fetchAllowHosts: string[];
  mediaFetch: { timeoutMs: number; maxBytes: number; maxRedirects: number };
  log: { requests: boolean; debug: boolean };
  metrics: boolean;
  /** The inspector (Node only); undefined: off. */
  inspector?: { maxExchanges: number; allowRemote: boolean };
  /** Refuse lossy translations on every route that does not say otherwise. */
  strict: boolean;
  /** `upstream/model` addressing is on. */
  upstreamPrefix: boolean;
  /** The state store: Redis at `url` (resolved), else memory (Node) or a KV binding (Workers). */
  store: { url?: string; secret?: string; ttlSeconds: number; maxBytes: number };
  /** Prices by model name (USD per million tokens): `pricesFile` with `prices` over it; the built-in table is src/upstream/prices. */
  prices: Record<string, ModelPrice>;
  /** OpenTelemetry export (headers `env:` resolved); undefined: off. */
  telemetry?: {
    otlp: { endpoint: string; headers: Record<string, string>; serviceName: string; intervalMs?: number; maxBatch?: number; maxQueue?: number };
    captureContent: boolean;
  };
}

export class ConfigError extends Error {
  /** What is wrong, without the `invalid config: ` the message starts with. */
  readonly detail: string;
  /** The variables of `env:` values that are not set, when that is what is wrong. */
  readonly unsetEnv: string[];
  constructor(detail: string, unsetEnv: string[] = []) {
    super(`invalid config: ${detail}`);
    this.name = 'ConfigError';
    this.detail = detail;
    this.unsetEnv = unsetEnv;
  }
}

export interface ParseOptions {
  /**
   * An `env:NAME` whose variable is unset: `error` (the default) fails with every such variable
   * named at once; `allow` keeps going (the value stays `env:NAME`) and only records it in
   * `Config.env`, for checking a config before its secrets exist.
   */
  unsetEnv?: 'error' | 'allow';
  /** Read a file the config names (`pricesFile`), by its path as written; none on Workers. */
  readFile?: (path: string) => string;
}

export const DEFAULT_TIMEOUTS: Required<Timeouts> = {
  connectMs: 10_000,
  firstByteMs: 60_000,
  idleMs: 120_000,
  totalMs: 600_000,
};

export const DEFAULT_RETRY: Required<RetryConfig> = {
  attempts: 2,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  budgetMs: 15_000,
};

/** The built-in configuration: public vendor URLs, callers' own keys forwarded. */
export const DEFAULT_CONFIG: ConfigInput = {
  upstreams: {
    anthropic: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com' },
    gemini: { dialect: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com' },
    openai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' },
  },
  models: {
    'claude-*': { upstream: 'anthropic' },
    'gemini-*': { upstream: 'gemini' },
    '*': { upstream: 'openai' },
  },
};

/** Resolves `env:NAME` values, recording each one it meets (set or not). */
class EnvResolver {
  readonly refs: EnvRef[] = [];
  constructor(private readonly env: Env) {}

  resolve(value: string | undefined, path: string): string | undefined {
    if (value === undefined || !value.startsWith('env:')) return value;
    const name = value.slice(4);
    const resolved = this.env[name];
    const set = resolved !== undefined && resolved !== '';
    this.refs.push({ name, path, set });
    return set ? resolved : value;
  }

  headers(headers: Record<string, string>, path: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = this.resolve(value, `${path}.${name}`)!;
    return out;
  }

  /** Whether the value at `path` named a variable that is not set. */
  unset(path: string): boolean {
    return this.refs.some((r) => r.path === path && !r.set);
  }

  /** Every unset variable at once, each with the fields that name it. */
  missing(): ConfigError | undefined {
    const byName = new Map<string, string[]>();
    for (const r of this.refs) if (!r.set) byName.set(r.name, [...(byName.get(r.name) ?? []), r.path]);
    if (byName.size === 0) return undefined;
    const list = [...byName].map(([name, paths]) => `${name} (${paths.join(', ')})`).join(', ');
    return new ConfigError(`${byName.size === 1 ? 'environment variable' : 'environment variables'} not set: ${list}`, [...byName.keys()]);
  }
}

function globToRegex(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

function compileRoute(pattern: string, route: RouteConfig, upstreams: Record<string, unknown>, strict: boolean): Route {
  const list = Array.isArray(route.upstream) ? route.upstream : [route.upstream];
  const targets = list.map((t, i): RouteTarget => {
    const target = typeof t === 'string' ? { upstream: t, model: route.model } : { model: route.model, ...t };
    if (!(target.upstream in upstreams)) {
      const where = Array.isArray(route.upstream) ? `upstream[${i}]` : 'upstream';
      throw new ConfigError(`models["${pattern}"].${where}: no upstream named "${target.upstream}"`);
    }
    return target;
  });
  return { pattern, targets, strict: route.strict ?? strict, defaultMaxTokens: route.defaultMaxTokens, ...routeMeta(route) };
}

/** A route's metadata, only the fields it states. */
export function routeMeta(r: RouteMeta): RouteMeta {
  return {
    ...(r.contextWindow !== undefined && { contextWindow: r.contextWindow }),
    ...(r.maxOutputTokens !== undefined && { maxOutputTokens: r.maxOutputTokens }),
    ...(r.reasoning !== undefined && { reasoning: r.reasoning }),
  };
}

/** Literal characters outrank wildcards: `claude-3-*` beats `claude-*` beats `*`. */
function specificity(pattern: string): number {
  return pattern.replace(/\*/g, '').length;
}

/** Validate and resolve a configuration document (parsed JSON or JSON text). */
export function parseConfig(source: unknown, env: Env = {}, o: ParseOptions = {}): Config {
  let doc = source;
  if (typeof source === 'string') {
    if (!source.trim()) throw new ConfigError('the document is empty');
    try {
      doc = JSON.parse(source);
    } catch {
      // V8's message quotes the text around the error, which may hold a key: say where instead.
      const at = locateJsonError(source);
      throw new ConfigError(`not valid JSON at line ${at.line}, column ${at.column}: ${at.reason}`);
    }
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`the document must be a JSON object ({ "upstreams": …, "models": … }), not ${Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`}`);
  }
  const parsed = v.safeParse(ConfigSchema, doc);
  if (!parsed.success) throw new ConfigError(describeIssues(ConfigSchema, parsed.issues, 3, { whole: 'the config' }));
  const input = parsed.output;
  const envs = new EnvResolver(env);
  const keys = inboundKeys(input.keys ?? [], (value, path) => envs.resolve(value, path)!);
  if (!Array.isArray(keys)) throw new ConfigError(`${keys.path}: ${keys.problem}`);

  const upstreams: Record<string, Upstream> = {};
  for (const [name, u] of Object.entries(input.upstreams)) {
    const missing = missingField(u);
    if (missing) throw new ConfigError(`upstreams.${name}.${missing}: required for provider "${u.provider}"`);
    const base = u.baseUrl ?? defaultBaseUrl(u);
    if (typeof base !== 'string') throw new ConfigError(`upstreams.${name}.${base.missing}: required${u.provider ? ` for provider "${u.provider}"` : ''}`);
    const at = (field: string) => `upstreams.${name}.${field}`;
    const creds = credentialsOf(u, (value, field) => envs.resolve(value, at(field))!);
    if ('problem' in creds) throw new ConfigError(`${at(creds.field)}: ${creds.problem}`);
    const { pool } = creds;
    for (const [i, member] of (pool?.members ?? [{}]).entries()) {
      const field = pool?.field === 'credentials' ? `credentials[${i}]` : 'credentials';
      // A service-account key not in the environment yet cannot be read (`check` without secrets).
      const bad = providerProblem({ provider: u.provider, dialect: u.dialect, project: u.project, ...creds.first, ...member }, !envs.unset(at(field)));
      if (bad) throw new ConfigError(`${at(pool && bad.field === pool.field ? `${bad.field}[${i}]` : bad.field)}: ${bad.problem}`);
    }
    const { apiKey: _key, credentials: _credentials, apiKeyStrategy: _strategy, keyCooldownSeconds: _cooldown, ...plain } = u;
    const upstream: Upstream = {
      ...plain,
      ...creds.first,
      name,
      baseUrl: base.replace(/\/+$/, ''),
      headers: u.headers && envs.headers(u.headers, `upstreams.${name}.headers`),
      secretHeaders: new Set(Object.keys(u.headers ?? {}).map((h) => h.toLowerCase())),
      timeouts: { ...DEFAULT_TIMEOUTS, ...input.timeouts, ...u.timeouts },
      retry: { ...DEFAULT_RETRY, ...input.retry, ...u.retry },
    };
    if (pool) {
      const { field, strategy, cooldownSeconds } = pool;
      upstream.pool = { field, strategy, cooldownSeconds, members: pool.members.map((m) => ({ ...upstream, ...m })) };
    }
    upstreams[name] = upstream;
  }

  const open = input.open ?? false;
  const withKeys = Object.values(upstreams).filter((u) => SECRET_FIELDS.some((f) => u[f])).map((u) => u.name);
  if (withKeys.length > 0 && keys.length === 0 && !open) {
    throw new ConfigError(
      `keys: upstream keys are configured (${withKeys.join(', ')}) but no inbound keys; ` +
        'anyone reaching the proxy could spend them. Add "keys", or set "open": true to allow it.',
    );
  }

  const exact = new Map<string, Route>();
  const globs: Array<Route & { regex: RegExp }> = [];
  for (const [pattern, route] of Object.entries(input.models)) {
    const compiled = compileRoute(pattern, route, upstreams, input.strict ?? false);
    if (pattern.includes('*')) globs.push({ ...compiled, regex: globToRegex(pattern) });
    else exact.set(pattern, compiled);
  }
  globs.sort((a, b) => specificity(b.pattern) - specificity(a.pattern));

  const config: Config = {
    keys,
    env: envs.refs,
    open,
    upstreams,
    exact,
    globs,
    limits: {
      maxBodyBytes: input.limits?.maxBodyBytes ?? 20 * 1024 * 1024,
      maxMultipartBytes: input.limits?.maxMultipartBytes ?? 64 * 1024 * 1024,
      maxSseBufferBytes: input.limits?.maxSseBufferBytes ?? 8 * 1024 * 1024,
      socketMaxAgeSeconds: input.limits?.socketMaxAgeSeconds ?? 3600,
    },
    cors: input.cors,
    fetchAllowHosts: input.fetchAllowHosts ?? [],
    mediaFetch: {
      timeoutMs: input.mediaFetch?.timeoutMs ?? 15_000,
      maxBytes: input.mediaFetch?.maxBytes ?? 20 * 1024 * 1024,
      maxRedirects: input.mediaFetch?.maxRedirects ?? 3,
    },
    log: { requests: input.log?.requests ?? true, debug: input.log?.debug ?? false },
    metrics: input.metrics ?? false,
    ...(input.inspector && {
      inspector: {
        maxExchanges: (input.inspector === true ? undefined : input.inspector.maxExchanges) ?? 200,
        allowRemote: (input.inspector === true ? undefined : input.inspector.allowRemote) ?? false,
      },
    }),
    strict: input.strict ?? false,
    prices: mergedPrices(input.pricesFile === undefined ? {} : readPrices(input.pricesFile, o), input.prices ?? {}),
    upstreamPrefix: input.upstreamPrefix ?? true,
    store: {
      url: envs.resolve(input.store?.url, 'store.url'),
      ...(input.store?.secret !== undefined && { secret: envs.resolve(input.store.secret, 'store.secret') }),
      ttlSeconds: input.store?.ttlSeconds ?? 86_400,
      maxBytes: input.store?.maxBytes ?? 64 * 1024 * 1024,
    },
    ...(input.telemetry && {
      telemetry: {
        otlp: {
          ...input.telemetry.otlp,
          headers: envs.headers(input.telemetry.otlp.headers ?? {}, 'telemetry.otlp.headers'),
          serviceName: input.telemetry.otlp.serviceName ?? 'interlingua',
        },
        captureContent: input.telemetry.captureContent ?? false,
      },
    }),
  };
  const missing = o.unsetEnv === 'allow' ? undefined : envs.missing();
  if (missing) throw missing;
  return config;
}

/** The prices of a `pricesFile` (LiteLLM's format). */
function readPrices(path: string, o: ParseOptions): Record<string, ModelPrice> {
  if (!o.readFile) throw new ConfigError('pricesFile: files cannot be read here (Workers); give the prices in "prices"');
  let text: string;
  try {
    text = o.readFile(path);
  } catch (e) {
    throw new ConfigError(`pricesFile: cannot read ${path}: ${(e as { code?: string }).code ?? (e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new ConfigError(`pricesFile: ${path} is not valid JSON`);
  }
  const read = pricesOfLiteLLM(doc);
  if ('problem' in read) throw new ConfigError(`pricesFile: ${path}: ${read.problem}`);
  return read.prices;
}

/**
 * The config a runtime should use: `text` (a file the Node entry read: empty is an error, never
 * the default), else `INTERLINGUA_CONFIG` holding JSON (Workers, or inline on Node), else (unset
 * or blank) the built-in default.
 */
export function configFromEnv(env: Env, text?: string, o: ParseOptions = {}): Config {
  if (text !== undefined) return parseConfig(text, env, o);
  const inline = env.INTERLINGUA_CONFIG;
  return parseConfig(inline?.trim() ? inline : DEFAULT_CONFIG, env, o);
}
