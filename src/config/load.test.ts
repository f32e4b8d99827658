import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from './json-place.ts';
import { ConfigError, DEFAULT_CONFIG, configFromEnv, parseConfig } from './load.ts';

const base = {
  upstreams: { a: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com/' } },
  models: { '*': { upstream: 'a' } },
};

describe('parseConfig', () => {
  it('uses the built-in default with no config', () => {
    const c = configFromEnv({});
    expect(Object.keys(c.upstreams).sort()).toEqual(['anthropic', 'gemini', 'openai']);
    expect(c.upstreams.openai!.baseUrl).toBe('https://api.openai.com/v1');
    expect(c.keys).toEqual([]);
    expect(c.globs.map((g) => g.pattern)).toEqual(['claude-*', 'gemini-*', '*']);
  });

  it('reads inline JSON from INTERLINGUA_CONFIG and resolves env: values', () => {
    const doc = { ...base, keys: ['env:IN_KEY'], upstreams: { a: { ...base.upstreams.a, apiKey: 'env:UP_KEY' } } };
    const c = configFromEnv({ INTERLINGUA_CONFIG: JSON.stringify(doc), IN_KEY: 'k1', UP_KEY: 'u1' });
    expect(c.keys).toEqual([{ key: 'k1', name: 'keys[0]' }]);
    expect(c.upstreams.a!.apiKey).toBe('u1');
    expect(c.upstreams.a!.baseUrl).toBe('https://api.anthropic.com');
  });

  it('names the field of a schema violation', () => {
    const bad = { ...base, upstreams: { a: { dialect: 'anthropic', baseUrl: 'not a url' } } };
    expect(() => parseConfig(bad)).toThrow(/upstreams\.a\.baseUrl/);
    expect(() => parseConfig({ ...base, upstreams: { a: { dialect: 'cohere', baseUrl: 'https://x' } } })).toThrow(
      /upstreams\.a\.dialect/,
    );
    expect(() => parseConfig({ ...base, extra: 1 })).toThrow(ConfigError);
  });

  it("keeps a route's metadata (context window, output limit, forced reasoning) and refuses a bad one", () => {
    const route = { upstream: 'a', contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: { effort: 'high', budgetTokens: 8192 } };
    const c = parseConfig({ ...base, models: { big: route, 'glob-*': { upstream: 'a', contextWindow: 1000 } } });
    expect(c.exact.get('big')).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: { effort: 'high', budgetTokens: 8192 } });
    expect(c.globs.find((g) => g.pattern === 'glob-*')).toMatchObject({ contextWindow: 1000 });
    expect(c.exact.get('big')).not.toHaveProperty('defaultMaxTokens', expect.anything());
    expect(() => parseConfig({ ...base, models: { x: { upstream: 'a', reasoning: { effort: 'max' } } } })).toThrow(/models\.x\.reasoning\.effort/);
    expect(() => parseConfig({ ...base, models: { x: { upstream: 'a', contextWindow: 0 } } })).toThrow(/contextWindow/);
  });

  it('names a route pointing at an unknown upstream', () => {
    expect(() => parseConfig({ ...base, models: { 'gpt-4o': { upstream: 'nope' } } })).toThrow(
      /models\["gpt-4o"\]\.upstream: no upstream named "nope"/,
    );
    expect(() => parseConfig({ ...base, models: { x: { upstream: ['a', 'b'] } } })).toThrow(/upstream\[1\]/);
  });

  it('names every missing environment variable at once, each with the fields naming it', () => {
    const doc = { ...base, open: true, upstreams: { a: { ...base.upstreams.a, apiKey: 'env:MISSING_KEY' } } };
    expect(() => parseConfig(doc, {})).toThrow(/^invalid config: environment variable not set: MISSING_KEY \(upstreams\.a\.apiKey\)$/);
    const many = {
      keys: ['env:IN', 'env:IN2'],
      upstreams: { a: { ...base.upstreams.a, apiKey: 'env:UP', headers: { 'x-org': 'env:ORG' } }, b: { ...base.upstreams.a, apiKey: 'env:UP' } },
      models: base.models,
      store: { url: 'env:REDIS_URL' },
    };
    let err: ConfigError | undefined;
    try {
      parseConfig(many, { IN2: 'set' });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err?.detail).toBe('environment variables not set: IN (keys[0]), UP (upstreams.a.apiKey, upstreams.b.apiKey), ORG (upstreams.a.headers.x-org), REDIS_URL (store.url)');
    expect(err?.unsetEnv).toEqual(['IN', 'UP', 'ORG', 'REDIS_URL']);
  });

  it('unsetEnv allow: validates without the secrets and records what the config reads', () => {
    const doc = { ...base, keys: ['env:IN'], upstreams: { a: { ...base.upstreams.a, apiKey: 'env:UP' } } };
    const c = parseConfig(doc, { IN: 'k' }, { unsetEnv: 'allow' });
    expect(c.env).toEqual([
      { name: 'IN', path: 'keys[0]', set: true },
      { name: 'UP', path: 'upstreams.a.apiKey', set: false },
    ]);
    // A Vertex AI service-account key not in the environment yet is not read.
    const vertex = { open: true, upstreams: { v: { dialect: 'gemini', provider: 'vertex', project: 'p', location: 'l', credentials: 'env:SA' } }, models: { '*': { upstream: 'v' } } };
    expect(() => parseConfig(vertex, {}, { unsetEnv: 'allow' })).not.toThrow();
    expect(() => parseConfig(vertex, { SA: 'not json' }, { unsetEnv: 'allow' })).toThrow(/upstreams\.v\.credentials: not valid JSON/);
    // Other mistakes still fail.
    expect(() => parseConfig({ ...doc, models: { x: { upstream: 'nope' } } }, {}, { unsetEnv: 'allow' })).toThrow(/no upstream named "nope"/);
  });

  it('an empty or blank document is an error, never the default; blank INTERLINGUA_CONFIG is unset', () => {
    expect(() => configFromEnv({}, '')).toThrow(/^invalid config: the document is empty$/);
    expect(() => configFromEnv({}, ' \n')).toThrow(/the document is empty/);
    expect(() => parseConfig('  ')).toThrow(/the document is empty/);
    expect(Object.keys(configFromEnv({ INTERLINGUA_CONFIG: ' ' }).upstreams)).toEqual(['anthropic', 'gemini', 'openai']);
  });

  it('refuses upstream keys without inbound keys unless open', () => {
    const doc = { ...base, upstreams: { a: { ...base.upstreams.a, apiKey: 'sk-x' } } };
    expect(() => parseConfig(doc)).toThrow(/keys: upstream keys are configured \(a\)/);
    expect(parseConfig({ ...doc, open: true }).open).toBe(true);
    expect(parseConfig({ ...doc, keys: ['k'] }).keys).toEqual([{ key: 'k', name: 'keys[0]' }]);
  });

  it('rejects invalid JSON text with its line and column', () => {
    const o = { locateJsonError: jsonSyntaxError };
    expect(() => parseConfig('{nope', {}, o)).toThrow(/^invalid config: not valid JSON at line 1, column 2: a field name in double quotes was expected$/);
    expect(() => parseConfig('{"upstreams": {},\n "models": {},\n}', {}, o)).toThrow(/at line 2, column 14: a trailing comma before `}`/);
    // Without the locator (Workers): nothing of the text.
    expect(() => parseConfig('{"upstreams": {},\n "models": {},\n}')).toThrow(/^invalid config: not valid JSON$/);
  });

  it('a document that is not an object says so', () => {
    expect(() => parseConfig('[]')).toThrow(/the document must be a JSON object .* not a list$/);
    expect(() => parseConfig('"x"')).toThrow(/not a string$/);
    expect(() => parseConfig('null')).toThrow(/not null$/);
  });

  it('orders globs most specific first', () => {
    const c = parseConfig({
      ...base,
      models: { '*': { upstream: 'a' }, 'claude-*': { upstream: 'a' }, 'claude-3-*': { upstream: 'a' } },
    });
    expect(c.globs.map((g) => g.pattern)).toEqual(['claude-3-*', 'claude-*', '*']);
  });

  it('keeps DEFAULT_CONFIG valid', () => {
    expect(() => parseConfig(DEFAULT_CONFIG)).not.toThrow();
  });
});

describe('config errors never echo values', () => {
  it('does not quote the rejected value or the JSON text', () => {
    const secret = 'sk-live-SECRET-abcdef123456';
    try {
      parseConfig({ upstreams: { a: { dialect: 'openai', baseUrl: secret } }, models: {} });
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).toContain('upstreams.a.baseUrl');
      expect((e as Error).message).not.toContain(secret);
    }
    try {
      parseConfig(`{"keys": ["${secret}"`);
      expect.unreachable();
    } catch (e) {
      expect((e as Error).message).not.toContain(secret);
    }
  });
});

describe('providers in config', () => {
  const models = { '*': { upstream: 'u' } };
  const load = (u: Record<string, unknown>, env: Record<string, string> = {}) => parseConfig({ open: true, upstreams: { u }, models }, env).upstreams.u!;

  it('gives the OpenAI-compatible hosts their default base, which an explicit baseUrl replaces', () => {
    expect(load({ dialect: 'openai', provider: 'mistral' }).baseUrl).toBe('https://api.mistral.ai/v1');
    expect(load({ dialect: 'openai', provider: 'groq' }).baseUrl).toBe('https://api.groq.com/openai/v1');
    expect(load({ dialect: 'openai', provider: 'ollama', baseUrl: 'http://10.0.0.2:11434/v1/' }).baseUrl).toBe('http://10.0.0.2:11434/v1');
  });

  it('derives Vertex AI and Bedrock endpoints from location and region', () => {
    expect(load({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'us-central1', accessToken: 't' }).baseUrl).toBe('https://us-central1-aiplatform.googleapis.com');
    expect(load({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'global', accessToken: 't' }).baseUrl).toBe('https://aiplatform.googleapis.com');
    expect(load({ dialect: 'anthropic', provider: 'bedrock', region: 'eu-west-1', apiKey: 'k' }).baseUrl).toBe('https://bedrock-runtime.eu-west-1.amazonaws.com');
  });

  it('names the field a provider is missing', () => {
    expect(() => load({ dialect: 'openai' })).toThrow(/upstreams\.u\.baseUrl: required/);
    expect(() => load({ dialect: 'openai', provider: 'azure' })).toThrow(/upstreams\.u\.baseUrl: required for provider "azure"/);
    expect(() => load({ dialect: 'gemini', provider: 'vertex', location: 'x', accessToken: 't' })).toThrow(/upstreams\.u\.project: required for provider "vertex"/);
    expect(() => load({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'x' })).toThrow(/upstreams\.u\.credentials/);
    expect(() => load({ dialect: 'anthropic', provider: 'bedrock', region: 'r', accessKeyId: 'a' })).toThrow(/upstreams\.u\.secretAccessKey/);
    expect(() => load({ dialect: 'openai', provider: 'nope', baseUrl: 'https://x' })).toThrow(/upstreams\.u\.provider/);
  });

  it('resolves every credential field from env: and counts it as an upstream key', () => {
    const u = load({ dialect: 'anthropic', provider: 'bedrock', region: 'r', accessKeyId: 'env:AK', secretAccessKey: 'env:SK', sessionToken: 'env:ST' }, { AK: 'AKIA1', SK: 's3cr3t', ST: 'tok' });
    expect([u.accessKeyId, u.secretAccessKey, u.sessionToken]).toEqual(['AKIA1', 's3cr3t', 'tok']);
    expect(() => parseConfig({ upstreams: { u: { dialect: 'gemini', provider: 'vertex', project: 'p', location: 'l', accessToken: 'ya29.t' } }, models })).toThrow(/no inbound keys/);
  });

  it('Vertex AI: express mode (an API key, no project) on the global host; multi-regions on their rep hosts', () => {
    expect(load({ dialect: 'gemini', provider: 'vertex', apiKey: 'k' }).baseUrl).toBe('https://aiplatform.googleapis.com');
    expect(load({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'us', accessToken: 't' }).baseUrl).toBe('https://aiplatform.us.rep.googleapis.com');
    expect(load({ dialect: 'anthropic', provider: 'vertex', project: 'p', location: 'eu', accessToken: 't' }).baseUrl).toBe('https://aiplatform.eu.rep.googleapis.com');
    expect(() => load({ dialect: 'anthropic', provider: 'vertex', apiKey: 'k' })).toThrow(/upstreams\.u\.project: required for provider "vertex"/);
    expect(() => load({ dialect: 'gemini', provider: 'vertex', project: 'p', apiKey: 'k' })).toThrow(/upstreams\.u\.location: required/);
  });

  it('Vertex AI: a service-account key that is not one names the field and never echoes the value', () => {
    const secret = 'PRIVATE-SECRET-MATERIAL-9999';
    const pem = `-----BEGIN PRIVATE KEY-----\n${secret}\n-----END PRIVATE KEY-----\n`;
    const sa = (over: Record<string, unknown>) => JSON.stringify({ type: 'service_account', client_email: 'a@p.iam.gserviceaccount.com', private_key: pem, ...over });
    const cases: Array<[string, RegExp]> = [
      [`{"private_key": "${secret}"`, /credentials: not valid JSON/],
      [sa({ client_email: undefined }), /credentials: the service-account key has no client_email/],
      [sa({ private_key: `-----BEGIN RSA PRIVATE KEY-----\n${secret}\n-----END RSA PRIVATE KEY-----` }), /credentials: .*PKCS#8/],
      [sa({ type: 'authorized_user', refresh_token: secret }), /credentials: not a service-account key/],
      [sa({ token_uri: `http://tokens.example/${secret}` }), /credentials: .*token_uri must be an https URL/],
    ];
    for (const [text, expected] of cases) {
      let message = '';
      try {
        load({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'l', credentials: 'env:SA' }, { SA: text });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(expected);
      expect(message).toMatch(/upstreams\.u\.credentials/);
      expect(message).not.toContain(secret);
    }
    expect(load({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'l', credentials: sa({ token_uri: 'http://127.0.0.1:9/token' }) }).credentials).toContain('client_email');
  });

  it('Vertex AI: one way to authenticate, and only the dialects it serves', () => {
    expect(() => load({ dialect: 'gemini', provider: 'vertex', project: 'p', location: 'l', accessToken: 't', apiKey: 'k' })).toThrow(/upstreams\.u\.apiKey: give one of credentials, accessToken or apiKey/);
    expect(() => load({ dialect: 'openai', provider: 'vertex', project: 'p', location: 'l', accessToken: 't' })).toThrow(/upstreams\.u\.dialect: provider "vertex" serves/);
  });
});

describe('a provider serves its own dialects only', () => {
  it('names the dialect field when it does not fit the host', () => {
    const load = (u: Record<string, unknown>) => parseConfig({ open: true, upstreams: { u }, models: { '*': { upstream: 'u' } } });
    expect(() => load({ dialect: 'gemini', provider: 'bedrock', region: 'r', apiKey: 'k' })).toThrow(/upstreams\.u\.dialect: provider "bedrock" serves "anthropic", not "gemini"/);
    expect(() => load({ dialect: 'anthropic', provider: 'mistral' })).toThrow(/upstreams\.u\.dialect: provider "mistral" serves "openai"/);
    expect(() => load({ dialect: 'openai', provider: 'azure', baseUrl: 'https://r.openai.azure.com' })).not.toThrow();
  });
});
