/**
 * What the config knows about each provider: its name, its default base URL, and the fields it
 * requires — checked when the config loads, so a mistake names the field before anything runs.
 * How each host is called lives in src/upstream/providers.
 */
import { COMPATIBLE_BASES, type ProviderName } from './provider-names.ts';
import type { UpstreamConfig } from './schema.ts';

/** The base URL an upstream gets when its config gives none; a message naming what is missing otherwise. */
export function defaultBaseUrl(u: UpstreamConfig): string | { missing: string } {
  switch (u.provider) {
    case undefined:
    case 'azure':
      return { missing: 'baseUrl' };
    case 'vertex':
      return vertexBase(u);
    case 'bedrock':
      if (!u.region) return { missing: 'region' };
      return `https://bedrock-runtime.${u.region}.amazonaws.com`;
    default:
      return COMPATIBLE_BASES[u.provider];
  }
}

/** Fields a provider needs beyond a base URL: the first one missing, or undefined. */
export function missingField(u: UpstreamConfig): string | undefined {
  switch (u.provider) {
    case 'vertex':
      // Express mode (an API key, no project) needs neither project nor location; Claude does.
      if (!u.project && (u.dialect === 'anthropic' || !u.apiKey)) return 'project';
      if (u.project && !u.location) return 'location';
      if (!u.credentials && !u.accessToken && !u.apiKey) return 'credentials';
      return undefined;
    case 'bedrock':
      if (!u.region) return 'region';
      if (!u.apiKey && !u.credentials && !(u.accessKeyId && u.secretAccessKey)) return u.accessKeyId ? 'secretAccessKey' : 'accessKeyId';
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Vertex AI's endpoint for a location (as Google's SDKs build it): `global` and express mode (an
 * API key without a project) use the global host, the multi-regions `us` and `eu` their `rep`
 * hosts, any other location its regional host.
 */
function vertexBase(u: UpstreamConfig): string | { missing: string } {
  if (!u.project && u.apiKey) return 'https://aiplatform.googleapis.com';
  if (!u.location) return { missing: 'location' };
  if (u.location === 'global') return 'https://aiplatform.googleapis.com';
  if (u.location === 'us' || u.location === 'eu') return `https://aiplatform.${u.location}.rep.googleapis.com`;
  return `https://${u.location}-aiplatform.googleapis.com`;
}

/** The fields of a Google service-account key that signing needs. */
export interface ServiceAccountKey {
  clientEmail: string;
  /** PKCS#8 PEM. */
  privateKey: string;
  privateKeyId?: string;
  /** Where the signed assertion is exchanged for an access token. */
  tokenUri: string;
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/**
 * A service-account key file's content, or what is wrong with it — in words that never quote
 * the text (it holds a private key).
 */
export function parseServiceAccountKey(text: string): ServiceAccountKey | { problem: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { problem: 'not valid JSON: give the content of a service-account key file (or env:NAME holding it)' };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { problem: 'not a service-account key (a JSON object is expected)' };
  const d = doc as Record<string, unknown>;
  if (d.type !== undefined && d.type !== 'service_account') {
    return { problem: 'not a service-account key (its "type" is not "service_account"); use "accessToken" for a token obtained elsewhere' };
  }
  if (typeof d.client_email !== 'string' || !d.client_email.includes('@')) return { problem: 'the service-account key has no client_email' };
  if (typeof d.private_key !== 'string' || !/-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----/.test(d.private_key)) {
    return { problem: 'the service-account key has no private_key in PKCS#8 PEM form ("-----BEGIN PRIVATE KEY-----")' };
  }
  const tokenUri = d.token_uri === undefined ? GOOGLE_TOKEN_URI : d.token_uri;
  if (typeof tokenUri !== 'string' || !tokenUriAllowed(tokenUri)) {
    return { problem: 'the service-account key\'s token_uri must be an https URL (http only on loopback)' };
  }
  return {
    clientEmail: d.client_email,
    privateKey: d.private_key,
    privateKeyId: typeof d.private_key_id === 'string' ? d.private_key_id : undefined,
    tokenUri,
  };
}

/** The signed assertion is a bearer credential: it goes over TLS, or stays on this machine. */
function tokenUriAllowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** The dialects each host speaks (a wrong one is a config error, not a failure at request time). */
function dialectsOf(p: ProviderName): readonly string[] {
  switch (p) {
    case 'azure':
      return ['openai', 'openai-responses'];
    case 'vertex':
      return ['gemini', 'anthropic', 'gemini-interactions'];
    case 'bedrock':
      return ['anthropic'];
    default:
      return ['openai'];
  }
}

/**
 * What is wrong with an upstream's provider settings once `env:` is resolved (the field and why),
 * or undefined: checked at load, so a bad secret stops the start instead of failing every call.
 * `credentialsKnown` false: the service-account key's variable is not set yet, so it is not read.
 */
export function providerProblem(
  u: Pick<UpstreamConfig, 'provider' | 'dialect' | 'accessToken' | 'project'> & { credentials?: string; apiKey?: string },
  credentialsKnown = true,
): { field: string; problem: string } | undefined {
  if (!u.provider) return undefined;
  const dialects = dialectsOf(u.provider);
  if (!dialects.includes(u.dialect)) return { field: 'dialect', problem: `provider "${u.provider}" serves ${dialects.map((d) => `"${d}"`).join(' and ')}, not "${u.dialect}"` };
  if (u.provider !== 'vertex') return undefined;
  // The Interactions API lives under a project and location only (no express-mode endpoint).
  if (u.dialect === 'gemini-interactions' && !u.project) return { field: 'project', problem: 'required for dialect "gemini-interactions" on Vertex AI (the Interactions API has no express-mode endpoint)' };
  const given = (['credentials', 'accessToken', 'apiKey'] as const).filter((f) => u[f] !== undefined);
  if (given.length > 1) return { field: given[1]!, problem: `give one of credentials, accessToken or apiKey (${given.join(' and ')} are both set)` };
  if (u.credentials === undefined || !credentialsKnown) return undefined;
  const key = parseServiceAccountKey(u.credentials);
  return 'problem' in key ? { field: 'credentials', problem: key.problem } : undefined;
}
