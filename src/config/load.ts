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
import { defaultBaseUrl, missingField, providerProblem } from './providers.ts';

export type Env = Record<string, string | undefined>;

/** Config fields that hold credentials: `env:` resolved, never shown, they count as upstream keys. */
export const SECRET_FIELDS = ['apiKey', 'credentials', 'accessToken', 'accessKeyId', 'secretAccessKey', 'sessionToken'] as const;

export interface Upstream extends Omit<UpstreamConfig, 'apiKey' | 'headers' | 'baseUrl'> {
  name: string;
  /** As configured, or the provider's default. */
  baseUrl: string;
  apiKey?: string;
  /** Extra headers sent upstream, `env:` values resolved. */
  headers?: Record<string, string>;
  /** Lower-case names of those headers: every configured header value is treated as a secret. */
  secretHeaders: ReadonlySet<string>;
  timeouts: Required<Timeouts>;
  retry: Required<RetryConfig>;
}

export interface RouteTarget {
  upstream: string;
  /** Model to send; undefined keeps the caller's. */
  model?: string;
}

export interface Route {
  pattern: string;
  targets: RouteTarget[];
  strict: boolean;
  defaultMaxTokens?: number;
}

export interface Config {
  keys: string[];
  open: boolean;
  upstreams: Record<string, Upstream>;
  /** Exact routes by name. */
  exact: Map<string, Route>;
  /** Glob routes, most specific first. */
  globs: Array<Route & { regex: RegExp }>;
  limits: { maxBodyBytes: number; maxMultipartBytes: number; maxSseBufferBytes: number };
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
  /** OpenTelemetry export (headers `env:` resolved); undefined: off. */
  telemetry?: {
    otlp: { endpoint: string; headers: Record<string, string>; serviceName: string; intervalMs?: number; maxBatch?: number; maxQueue?: number };
    captureContent: boolean;
  };
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(`invalid config: ${message}`);
    this.name = 'ConfigError';
  }
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

function resolveSecret(value: string | undefined, path: string, env: Env): string | undefined {
  if (value === undefined || !value.startsWith('env:')) return value;
  const name = value.slice(4);
  const resolved = env[name];
  if (resolved === undefined || resolved === '') {
    throw new ConfigError(`${path}: environment variable ${name} is not set`);
  }
  return resolved;
}

function resolveHeaders(headers: Record<string, string>, path: string, env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = resolveSecret(value, `${path}.${name}`, env)!;
  return out;
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
  return { pattern, targets, strict: route.strict ?? strict, defaultMaxTokens: route.defaultMaxTokens };
}

/** Literal characters outrank wildcards: `claude-3-*` beats `claude-*` beats `*`. */
function specificity(pattern: string): number {
  return pattern.replace(/\*/g, '').length;
}

/** Validate and resolve a configuration document (parsed JSON or JSON text). */
export function parseConfig(source: unknown, env: Env = {}): Config {
  let doc = source;
  if (typeof source === 'string') {
    try {
      doc = JSON.parse(source);
    } catch {
      // V8's message quotes the text around the error, which may hold a key: never echo it.
      throw new ConfigError('not valid JSON');
    }
  }
  const parsed = v.safeParse(ConfigSchema, doc);
  if (!parsed.success) {
    const issue = parsed.issues[0]!;
    const path = v.getDotPath(issue) ?? '(root)';
    // Valibot's message ends with the received value, which may be a key: name the rule only.
    const rule = issue.kind === 'schema' && issue.expected ? `expected ${issue.expected}` : issue.message.replace(/,? ?but received .*$/s, '').replace(/: Received .*$/s, '');
    throw new ConfigError(`${path}: ${rule}`);
  }
  const input = parsed.output;

  const upstreams: Record<string, Upstream> = {};
  for (const [name, u] of Object.entries(input.upstreams)) {
    const missing = missingField(u);
    if (missing) throw new ConfigError(`upstreams.${name}.${missing}: required for provider "${u.provider}"`);
    const base = u.baseUrl ?? defaultBaseUrl(u);
    if (typeof base !== 'string') throw new ConfigError(`upstreams.${name}.${base.missing}: required${u.provider ? ` for provider "${u.provider}"` : ''}`);
    const secrets: Partial<Record<(typeof SECRET_FIELDS)[number], string>> = {};
    for (const f of SECRET_FIELDS) if (u[f] !== undefined) secrets[f] = resolveSecret(u[f], `upstreams.${name}.${f}`, env);
    const bad = providerProblem({ ...u, ...secrets });
    if (bad) throw new ConfigError(`upstreams.${name}.${bad.field}: ${bad.problem}`);
    upstreams[name] = {
      ...u,
      ...secrets,
      name,
      baseUrl: base.replace(/\/+$/, ''),
      headers: u.headers && resolveHeaders(u.headers, `upstreams.${name}.headers`, env),
      secretHeaders: new Set(Object.keys(u.headers ?? {}).map((h) => h.toLowerCase())),
      timeouts: { ...DEFAULT_TIMEOUTS, ...input.timeouts, ...u.timeouts },
      retry: { ...DEFAULT_RETRY, ...input.retry, ...u.retry },
    };
  }

  const keys = (input.keys ?? []).map((k, i) => resolveSecret(k, `keys[${i}]`, env)!);
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

  return {
    keys,
    open,
    upstreams,
    exact,
    globs,
    limits: {
      maxBodyBytes: input.limits?.maxBodyBytes ?? 20 * 1024 * 1024,
      maxMultipartBytes: input.limits?.maxMultipartBytes ?? 64 * 1024 * 1024,
      maxSseBufferBytes: input.limits?.maxSseBufferBytes ?? 8 * 1024 * 1024,
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
    upstreamPrefix: input.upstreamPrefix ?? true,
    store: {
      url: input.store?.url === undefined ? undefined : resolveSecret(input.store.url, 'store.url', env),
      ...(input.store?.secret !== undefined && { secret: resolveSecret(input.store.secret, 'store.secret', env) }),
      ttlSeconds: input.store?.ttlSeconds ?? 86_400,
      maxBytes: input.store?.maxBytes ?? 64 * 1024 * 1024,
    },
    ...(input.telemetry && {
      telemetry: {
        otlp: {
          ...input.telemetry.otlp,
          headers: resolveHeaders(input.telemetry.otlp.headers ?? {}, 'telemetry.otlp.headers', env),
          serviceName: input.telemetry.otlp.serviceName ?? 'interlingua',
        },
        captureContent: input.telemetry.captureContent ?? false,
      },
    }),
  };
}

/**
 * The config a runtime should use: `INTERLINGUA_CONFIG` holding JSON (Workers, or inline on Node),
 * else the built-in default. File paths are read by the Node entry before calling this.
 */
export function configFromEnv(env: Env, text?: string): Config {
  const source = text ?? env.INTERLINGUA_CONFIG;
  return parseConfig(source && source.trim() ? source : DEFAULT_CONFIG, env);
}
