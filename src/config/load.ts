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
import { readJson, type JsonLocator } from './json-text.ts';
import { inboundKeys, type InboundKey } from './callers.ts';
import { mergedPrices, pricesOfLiteLLM, type ModelPrice } from './prices.ts';
import { ConfigError, EnvResolver, type Env, type EnvRef } from './env.ts';

export type { InboundKey } from './callers.ts';
export type { ModelPrice, PriceRates } from './prices.ts';

export { SECRET_FIELDS } from './pools.ts';
export { ConfigError, type Env, type EnvRef } from './env.ts';


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
  limits: { maxBodyBytes: number; maxMultipartBytes: number; maxSseBufferBytes: number; socketMaxAgeSeconds: number; turnMemoBytes: number; turnMemoFromBytes: number };
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
  /** The web search backend (its key resolved); undefined: none, hosted search is dropped toward upstreams without one. */
  search?: SearchConfig;
  /** OpenTelemetry export (headers `env:` resolved); undefined: off. */
  telemetry?: {
    otlp: { endpoint: string; headers: Record<string, string>; serviceName: string; intervalMs?: number; maxBatch?: number; maxQueue?: number };
    captureContent: boolean;
  };
}

export interface SearchConfig {
  provider: 'brave' | 'tavily' | 'exa' | 'searxng';
  apiKey?: string;
  baseUrl?: string;
  maxResults: number;
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
  /** Where a JSON text that is not JSON goes wrong, and why (Node: json-place.ts; Workers say only where). */
  locateJsonError?: JsonLocator;
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

/** A config document as valibot checked it. */
type ConfigDoc = v.InferOutput<typeof ConfigSchema>;

/** The document a source holds: parsed JSON as it is, JSON text read strictly; never empty. */
function documentOf(source: unknown, o: ParseOptions): unknown {
  if (typeof source !== 'string') return source;
  if (!source.trim()) throw new ConfigError('the document is empty');
  const read = readJson(source, o.locateJsonError);
  if ('problem' in read) throw new ConfigError(read.problem);
  return read.value;
}

/** The document checked against the schema, its mistakes in plain words. */
function checkedDocument(source: unknown, o: ParseOptions): ConfigDoc {
  const doc = documentOf(source, o);
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`the document must be a JSON object ({ "upstreams": …, "models": … }), not ${Array.isArray(doc) ? 'a list' : doc === null ? 'null' : `a ${typeof doc}`}`);
  }
  const parsed = v.safeParse(ConfigSchema, doc);
  if (!parsed.success) throw new ConfigError(describeIssues(ConfigSchema, parsed.issues, 3, { whole: 'the config' }));
  return parsed.output;
}

/** One upstream resolved: its provider's fields present, credentials and headers read, defaults filled in. */
function compileUpstream(name: string, u: ConfigDoc['upstreams'][string], input: ConfigDoc, envs: EnvResolver): Upstream {
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
  return upstream;
}

/** Upstream keys with no inbound keys would let anyone spend them: refused unless `open`. */
function checkSpendable(upstreams: Record<string, Upstream>, keys: readonly InboundKey[], open: boolean): void {
  const withKeys = Object.values(upstreams).filter((u) => SECRET_FIELDS.some((f) => u[f])).map((u) => u.name);
  if (withKeys.length > 0 && keys.length === 0 && !open) {
    throw new ConfigError(
      `keys: upstream keys are configured (${withKeys.join(', ')}) but no inbound keys; ` +
        'anyone reaching the proxy could spend them. Add "keys", or set "open": true to allow it.',
    );
  }
}

/** The route table: exact names, and patterns most specific first. */
function compileRoutes(input: ConfigDoc, upstreams: Record<string, Upstream>): Pick<Config, 'exact' | 'globs'> {
  const exact = new Map<string, Route>();
  const globs: Array<Route & { regex: RegExp }> = [];
  for (const [pattern, route] of Object.entries(input.models)) {
    const compiled = compileRoute(pattern, route, upstreams, input.strict ?? false);
    if (pattern.includes('*')) globs.push({ ...compiled, regex: globToRegex(pattern) });
    else exact.set(pattern, compiled);
  }
  globs.sort((a, b) => specificity(b.pattern) - specificity(a.pattern));
  return { exact, globs };
}

/** Everything else, with its defaults: limits, media fetching, logs, the inspector, prices, the store, telemetry. */
function settingsOf(input: ConfigDoc, envs: EnvResolver, o: ParseOptions): Omit<Config, 'keys' | 'env' | 'open' | 'upstreams' | 'exact' | 'globs'> {
  return {
    limits: {
      maxBodyBytes: input.limits?.maxBodyBytes ?? 20 * 1024 * 1024,
      maxMultipartBytes: input.limits?.maxMultipartBytes ?? 64 * 1024 * 1024,
      maxSseBufferBytes: input.limits?.maxSseBufferBytes ?? 8 * 1024 * 1024,
      socketMaxAgeSeconds: input.limits?.socketMaxAgeSeconds ?? 3600,
      turnMemoBytes: input.limits?.turnMemoBytes ?? 32 * 1024 * 1024,
      turnMemoFromBytes: input.limits?.turnMemoFromBytes ?? 64 * 1024,
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
    ...(input.search && { search: searchOf(input.search, envs) }),
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
}

/** The search backend, its key resolved; a backend that needs a key or a base URL says so. */
function searchOf(s: NonNullable<ConfigDoc['search']>, envs: EnvResolver): SearchConfig {
  if (s.provider !== 'searxng' && s.apiKey === undefined) throw new ConfigError(`search: provider ${s.provider} needs an apiKey`);
  if (s.provider === 'searxng' && s.baseUrl === undefined) throw new ConfigError('search: provider searxng needs a baseUrl (your instance)');
  return {
    provider: s.provider,
    ...(s.apiKey !== undefined && { apiKey: envs.resolve(s.apiKey, 'search.apiKey') }),
    ...(s.baseUrl !== undefined && { baseUrl: s.baseUrl }),
    maxResults: s.maxResults ?? 5,
  };
}

/** Validate and resolve a configuration document (parsed JSON or JSON text). */
export function parseConfig(source: unknown, env: Env = {}, o: ParseOptions = {}): Config {
  const input = checkedDocument(source, o);
  const envs = new EnvResolver(env);
  const keys = inboundKeys(input.keys ?? [], (value, path) => envs.resolve(value, path)!);
  if (!Array.isArray(keys)) throw new ConfigError(`${keys.path}: ${keys.problem}`);
  const upstreams: Record<string, Upstream> = {};
  for (const [name, u] of Object.entries(input.upstreams)) upstreams[name] = compileUpstream(name, u, input, envs);
  const open = input.open ?? false;
  checkSpendable(upstreams, keys, open);
  const config: Config = { keys, env: envs.refs, open, upstreams, ...compileRoutes(input, upstreams), ...settingsOf(input, envs, o) };
  // Every unset variable at once, after everything that reads one.
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
  const doc = readJson(text, o.locateJsonError);
  if ('problem' in doc) throw new ConfigError(`pricesFile: ${path} is ${doc.problem}`);
  const read = pricesOfLiteLLM(doc.value);
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
