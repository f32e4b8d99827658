/**
 * The configuration document, validated with valibot. See docs/configuration.md.
 */
import * as v from 'valibot';
import { PROVIDERS } from './provider-names.ts';

const positiveInt = v.pipe(v.number(), v.integer(), v.minValue(1));
const nonNegativeInt = v.pipe(v.number(), v.integer(), v.minValue(0));
const positive = v.pipe(v.number(), v.minValue(0));

/**
 * What one inbound key may spend, in calendar windows of UTC (docs/team.md "Limits"): requests
 * and tokens per minute, tokens per day, US dollars per day and per month. Any subset.
 */
export const KeyLimitsSchema = v.strictObject({
  requestsPerMinute: v.optional(positiveInt),
  tokensPerMinute: v.optional(positiveInt),
  tokensPerDay: v.optional(positiveInt),
  costPerDay: v.optional(v.pipe(v.number(), v.gtValue(0, 'must be more than 0'))),
  costPerMonth: v.optional(v.pipe(v.number(), v.gtValue(0, 'must be more than 0'))),
});

/** An inbound key: the credential alone, or with the name it is logged and counted under and its limits. */
export const InboundKeySchema = v.union([
  v.pipe(v.string(), v.minLength(1)),
  v.strictObject({
    /** The credential: a literal or `env:NAME`. */
    key: v.pipe(v.string(), v.minLength(1)),
    /** How the log, the metrics and the counters name this key (never the key itself). */
    name: v.optional(v.pipe(v.string(), v.regex(/^[\w.@-]{1,64}$/, 'must be 1 to 64 letters, digits, or . _ - @'))),
    limits: v.optional(KeyLimitsSchema),
  }),
]);

/** A model's prices in US dollars per million tokens; what an entry omits comes from the built-in table. */
export const PriceSchema = v.strictObject({
  input: v.optional(positive),
  output: v.optional(positive),
  cacheRead: v.optional(positive),
  /** Cache writes (Anthropic's 5-minute TTL). */
  cacheWrite: v.optional(positive),
  /** Anthropic cache writes with the 1-hour TTL. */
  cacheWrite1h: v.optional(positive),
});

export const TimeoutsSchema = v.strictObject({
  /** Until the TCP/TLS connection to the upstream is up (Node; Workers manage connects). */
  connectMs: v.optional(positiveInt),
  /** Until the upstream's response headers arrive (connect + time to first byte). */
  firstByteMs: v.optional(positiveInt),
  /** Longest silence between two stream events, or while reading a non-stream body. */
  idleMs: v.optional(positiveInt),
  /** Whole request, non-stream. */
  totalMs: v.optional(positiveInt),
});

export const RetrySchema = v.strictObject({
  /** Attempts per upstream, the first included. */
  attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10))),
  baseDelayMs: v.optional(v.pipe(v.number(), v.minValue(0))),
  maxDelayMs: v.optional(v.pipe(v.number(), v.minValue(0))),
  /** Total time budget for retries and fallbacks before the first byte. */
  budgetMs: v.optional(v.pipe(v.number(), v.minValue(0))),
});

/** Amazon Bedrock: one SigV4 key pair of a pool (`credentials: [{…}, {…}]`), each value a literal or `env:NAME`. */
export const AwsKeyPairSchema = v.strictObject({
  accessKeyId: v.pipe(v.string(), v.minLength(1)),
  secretAccessKey: v.pipe(v.string(), v.minLength(1)),
  sessionToken: v.optional(v.pipe(v.string(), v.minLength(1))),
});

export const UpstreamSchema = v.strictObject({
  dialect: v.picklist(['openai', 'anthropic', 'gemini', 'openai-responses', 'gemini-interactions']),
  /** Who hosts it: sets the URL shape, the authentication and the quirks. */
  provider: v.optional(v.picklist(PROVIDERS)),
  /** Optional where the provider has a default (required for a plain upstream and Azure). */
  baseUrl: v.optional(v.pipe(v.string(), v.url('must be an absolute URL'))),
  /**
   * A literal key or `env:NAME`, or a list of them: a key pool (docs/team.md). Without it the
   * caller's own credential is forwarded.
   */
  apiKey: v.optional(v.union([v.string(), v.array(v.string())])),
  /** A key pool (apiKey or credentials as a list): `round-robin` (default) or `fill-first`. */
  apiKeyStrategy: v.optional(v.picklist(['round-robin', 'fill-first'])),
  /** A key pool: how long a refused or rate-limited key is skipped when the upstream says no `retry-after` (default 60). */
  keyCooldownSeconds: v.optional(positiveInt),
  /** Azure OpenAI: `v1` (default: `/openai/v1/…`, model in the body) or a dated version (deployment URLs). */
  apiVersion: v.optional(v.string()),
  /** Vertex AI: project and location (`global`, `us-central1`…). */
  project: v.optional(v.string()),
  location: v.optional(v.string()),
  /**
   * Vertex AI: a service-account key (its JSON text, or `env:NAME`), or a list of them (a pool).
   * Amazon Bedrock: a list of key pairs (a pool), instead of `accessKeyId` and `secretAccessKey`.
   */
  credentials: v.optional(v.union([v.string(), v.array(v.union([v.string(), AwsKeyPairSchema]))])),
  /** Vertex AI: an access token obtained elsewhere. */
  accessToken: v.optional(v.string()),
  /** Amazon Bedrock: region and SigV4 credentials (or `apiKey`: a Bedrock API key). */
  region: v.optional(v.string()),
  accessKeyId: v.optional(v.string()),
  secretAccessKey: v.optional(v.string()),
  sessionToken: v.optional(v.string()),
  headers: v.optional(v.record(v.string(), v.string())),
  timeouts: v.optional(TimeoutsSchema),
  retry: v.optional(RetrySchema),
  /** Anthropic: max_tokens when the caller gave none. */
  defaultMaxTokens: v.optional(positiveInt),
  anthropicVersion: v.optional(v.string()),
  anthropicBeta: v.optional(v.array(v.string())),
  /**
   * Anthropic: the only betas sent to this upstream (exact names, or a prefix ending in `*`);
   * others are dropped with a warning. Extends a provider's own list (Vertex AI, Bedrock); without it a plain
   * upstream gets every beta.
   */
  anthropicBetaAllow: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  /** Fetch media URLs (guarded) and send them inline, for upstreams that cannot reach them. */
  inlineMedia: v.optional(v.boolean()),
  /** Gemini image upstreams: `instruction` approximates an edit's mask instead of refusing it. */
  imageMask: v.optional(v.picklist(['refuse', 'instruction'])),
});

const RouteTargetSchema = v.union([
  v.string(),
  v.strictObject({ upstream: v.string(), model: v.optional(v.string()) }),
]);

export const RouteSchema = v.strictObject({
  /** One upstream name, or a list to fall back through in order. */
  upstream: v.union([v.string(), v.pipe(v.array(RouteTargetSchema), v.minLength(1))]),
  /** Model name to send upstream (default: the caller's). */
  model: v.optional(v.string()),
  /** Any loss of meaning in translation becomes a 400 instead of a warning. */
  strict: v.optional(v.boolean()),
  defaultMaxTokens: v.optional(positiveInt),
  /** What the routed model takes in tokens, advertised by `/v1/models` (Codex compacts by it). */
  contextWindow: v.optional(positiveInt),
  /** The most tokens the routed model answers, advertised by `/v1/models`. */
  maxOutputTokens: v.optional(positiveInt),
  /** A reasoning effort and/or thinking budget every request on this route gets, whatever it asked. */
  reasoning: v.optional(
    v.strictObject({
      effort: v.optional(v.picklist(['none', 'minimal', 'low', 'medium', 'high'])),
      budgetTokens: v.optional(positiveInt),
    }),
  ),
});

export const ConfigSchema = v.strictObject({
  /** The JSON Schema an editor checks this document against (`config.schema.json`). */
  $schema: v.optional(v.string()),
  /** Inbound credentials callers must present: each a key, or `{key, name, limits}`. */
  keys: v.optional(v.array(InboundKeySchema)),
  /** Explicitly allow running without inbound keys while upstream keys are configured. */
  open: v.optional(v.boolean()),
  upstreams: v.record(v.string(), UpstreamSchema),
  models: v.record(v.string(), RouteSchema),
  limits: v.optional(
    v.strictObject({
      maxBodyBytes: v.optional(positiveInt),
      maxMultipartBytes: v.optional(positiveInt),
      maxSseBufferBytes: v.optional(positiveInt),
      /** A Responses WebSocket closes after this long (`websocket_connection_limit_reached`); default 3600, as OpenAI's. */
      socketMaxAgeSeconds: v.optional(positiveInt),
      /** What the memory of callers' last translated turns may hold (docs/performance.md "Translating only what changed"); 0 turns it off. */
      turnMemoBytes: v.optional(nonNegativeInt),
      /** Request bodies from this size are kept for the caller's next turn. */
      turnMemoFromBytes: v.optional(nonNegativeInt),
    }),
  ),
  timeouts: v.optional(TimeoutsSchema),
  retry: v.optional(RetrySchema),
  /** Allowed browser origins for CORS (off when absent). */
  cors: v.optional(v.strictObject({ origins: v.array(v.string()) })),
  /** Hosts the guarded URL fetcher may reach even though they are private/loopback. */
  fetchAllowHosts: v.optional(v.array(v.string())),
  /** The guarded fetcher of media URLs: one deadline for the whole fetch, a size cap, redirects. */
  mediaFetch: v.optional(
    v.strictObject({
      timeoutMs: v.optional(positiveInt),
      maxBytes: v.optional(positiveInt),
      maxRedirects: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10))),
    }),
  ),
  /** One JSON line per request; `debug` adds the redacted wire dump of every request. */
  log: v.optional(v.strictObject({ requests: v.optional(v.boolean()), debug: v.optional(v.boolean()) })),
  /** Serve Prometheus metrics at GET /metrics. */
  metrics: v.optional(v.boolean()),
  /**
   * The live translation inspector at `/_inspector` (Node only): the last exchanges, redacted.
   * Loopback callers only unless `allowRemote`; the inbound key when `keys` are set. docs/debugging.md "The inspector".
   */
  inspector: v.optional(
    v.union([
      v.boolean(),
      v.strictObject({
        /** Exchanges kept (default 200); the oldest go first. */
        maxExchanges: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000))),
        /** Serve the inspector to non-loopback addresses too (default false). */
        allowRemote: v.optional(v.boolean()),
      }),
    ]),
  ),
  /**
   * OpenTelemetry traces (GenAI conventions) exported by OTLP/HTTP JSON; off when absent. Header
   * values may be `env:NAME` and are never logged. See docs/telemetry.md.
   */
  telemetry: v.optional(
    v.strictObject({
      otlp: v.strictObject({
        /** Collector base URL (`http://collector:4318`); spans are POSTed to `{endpoint}/v1/traces`. */
        endpoint: v.pipe(v.string(), v.url('must be an absolute URL')),
        headers: v.optional(v.record(v.string(), v.string())),
        /** `service.name` of the resource (default `interlingua`). */
        serviceName: v.optional(v.pipe(v.string(), v.minLength(1))),
        /** Longest a finished span waits before export on Node (default 2000). */
        intervalMs: v.optional(positiveInt),
        /** Spans per export (default 256). */
        maxBatch: v.optional(positiveInt),
        /** Spans held at most while exports lag; more are dropped (default 2048). */
        maxQueue: v.optional(positiveInt),
      }),
      /** Record prompts and completions (`gen_ai.input.messages`, `gen_ai.output.messages`); default false. */
      captureContent: v.optional(v.boolean()),
    }),
  ),
  /**
   * Prices by the model sent upstream (USD per million tokens), over the built-in table: a name
   * also prices its dated variants; what an entry omits comes from the table.
   */
  prices: v.optional(v.record(v.pipe(v.string(), v.minLength(1)), PriceSchema)),
  /**
   * A price file in LiteLLM's `model_prices_and_context_window.json` format (per token), a path
   * relative to the config file (Node only). `prices` entries win over it; it wins over the table.
   */
  pricesFile: v.optional(v.pipe(v.string(), v.minLength(1))),
  /**
   * A web search backend the proxy runs a caller's hosted web search and fetch on, toward an
   * upstream that has none (docs/hosted-tools.md "Search run by Interlingua").
   */
  search: v.optional(
    v.strictObject({
      provider: v.picklist(['brave', 'tavily', 'exa', 'searxng']),
      /** The backend's key, a literal or `env:NAME` (SearXNG needs none). Never logged. */
      apiKey: v.optional(v.pipe(v.string(), v.minLength(1))),
      /** The backend's API base (default: the provider's public one; SearXNG: required). */
      baseUrl: v.optional(v.pipe(v.string(), v.url('must be an absolute URL'))),
      /** Results per search (default 5). */
      maxResults: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20))),
    }),
  ),
  /** Every route refuses lossy translations (a route's own `strict: false` turns it off there). */
  strict: v.optional(v.boolean()),
  /** `upstream/model` in a request picks that upstream directly (default true). */
  upstreamPrefix: v.optional(v.boolean()),
  /**
   * Where the state of stateful dialects is kept toward upstreams that keep none (Responses
   * `previous_response_id`, `item_reference`): in memory by default on Node; `url` (a literal or
   * `env:NAME`, `redis://…`) for Redis shared by several instances. Workers use a KV binding.
   */
  store: v.optional(
    v.strictObject({
      url: v.optional(v.string()),
      /**
       * The key of the hash that names each caller's state (a literal or `env:NAME`). Instances
       * sharing Redis or KV must use the same one. Default: random per process for the memory
       * store, a fixed public value for Redis and KV (docs/state.md).
       */
      secret: v.optional(v.pipe(v.string(), v.minLength(1))),
      /** How long an answer stays referable (default 86400: one day). */
      ttlSeconds: v.optional(positiveInt),
      /** Memory store cap in characters (default 64 Mi). */
      maxBytes: v.optional(positiveInt),
    }),
  ),
});

export type ConfigInput = v.InferOutput<typeof ConfigSchema>;
export type UpstreamConfig = v.InferOutput<typeof UpstreamSchema>;
export type AwsKeyPair = v.InferOutput<typeof AwsKeyPairSchema>;
export type RouteConfig = v.InferOutput<typeof RouteSchema>;
export type Timeouts = v.InferOutput<typeof TimeoutsSchema>;
export type RetryConfig = v.InferOutput<typeof RetrySchema>;
export type KeyLimits = v.InferOutput<typeof KeyLimitsSchema>;
export type PriceConfig = v.InferOutput<typeof PriceSchema>;
