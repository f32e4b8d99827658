/**
 * Google OAuth for a service account, with nothing but WebCrypto and fetch (Node 20 and Workers
 * alike): an RS256 JWT assertion signed with the key's PKCS#8 private key, exchanged at the key's
 * own `token_uri` for an access token (RFC 7523 JWT bearer grant), and the token cached.
 * https://developers.google.com/identity/protocols/oauth2/service-account#httprest
 *
 * The cache: a token is reused until 5 minutes before it expires, or until half its lifetime has
 * passed when that comes sooner; concurrent requests that need a new one share ONE exchange
 * (single flight). Should a refresh fail while the old token still has more than a minute left,
 * the old one is used (a blip at the token endpoint does not fail calls); a token with less than
 * that left is never sent. Time comes from the caller's clock, so tests can move it.
 */
import { base64ToBytes, bytesToBase64Url, type FetchLike } from '../../kit/index.ts';
import { ProxyError } from '../../canonical/index.ts';
import type { ServiceAccountKey } from '../../config/providers.ts';
import { CredentialError } from './types.ts';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** An assertion's lifetime: Google's maximum. */
const ASSERTION_SECONDS = 3600;
/** Refresh this long before expiry (or at half the lifetime, when that is sooner). */
const REFRESH_BEFORE_MS = 5 * 60_000;
/** A kept token is sent after a failed refresh only while it has at least this long left. */
const MIN_LEFT_MS = 60_000;

export interface TokenContext {
  fetch: FetchLike;
  /** Unix milliseconds. */
  now(): number;
  /** For the whole exchange (request and answer). */
  timeoutMs: number;
  /** The upstream's config name, for messages. */
  upstream: string;
}

/** An access token for each call: cached, refreshed ahead of expiry, one exchange at a time. */
export type TokenSource = (ctx: TokenContext) => Promise<string>;

interface Token {
  value: string;
  /** Unix ms: when it stops being valid, and when to replace it. */
  expiresAt: number;
  refreshAt: number;
}

/** The JWT claims a service account signs (`aud` is the token endpoint itself). */
export function assertionClaims(key: ServiceAccountKey, nowMs: number, scope = CLOUD_PLATFORM_SCOPE): Record<string, string | number> {
  const iat = Math.floor(nowMs / 1000);
  return { iss: key.clientEmail, scope, aud: key.tokenUri, iat, exp: iat + ASSERTION_SECONDS };
}

const utf8 = new TextEncoder();
const b64urlJson = (value: unknown) => bytesToBase64Url(utf8.encode(JSON.stringify(value)));

/** `header.claims.signature`, RS256. */
export async function signAssertion(key: ServiceAccountKey, signingKey: CryptoKey, nowMs: number, scope = CLOUD_PLATFORM_SCOPE): Promise<string> {
  const header = { alg: 'RS256', typ: 'JWT', ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) };
  const input = `${b64urlJson(header)}.${b64urlJson(assertionClaims(key, nowMs, scope))}`;
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', signingKey, utf8.encode(input));
  return `${input}.${bytesToBase64Url(new Uint8Array(signature))}`;
}

/** The key's PKCS#8 PEM as a WebCrypto signing key. */
export async function importSigningKey(pem: string): Promise<CryptoKey> {
  const der = base64ToBytes(pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, ''));
  if (!der || der.length === 0) throw new Error('not base64');
  return crypto.subtle.importKey('pkcs8', new Uint8Array(der), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
}

/** A token source for one service-account key (one per upstream: its cache is its own). */
export function serviceAccountTokens(key: ServiceAccountKey, scope = CLOUD_PLATFORM_SCOPE): TokenSource {
  let signingKey: Promise<CryptoKey> | undefined;
  let cached: Token | undefined;
  let inflight: Promise<Token> | undefined;

  async function exchange(ctx: TokenContext): Promise<Token> {
    signingKey ??= importSigningKey(key.privateKey);
    let cryptoKey: CryptoKey;
    try {
      cryptoKey = await signingKey;
    } catch {
      throw new CredentialError('upstream', `Upstream '${ctx.upstream}': credentials: the service-account private_key is not an RSA key in PKCS#8 form.`, { status: 500, code: 'invalid_credentials' });
    }
    const sentAt = ctx.now();
    const assertion = await signAssertion(key, cryptoKey, sentAt, scope);
    const token = await requestToken(ctx, key.tokenUri, assertion);
    const lifetime = token.expiresIn * 1000;
    const expiresAt = sentAt + lifetime;
    return { value: token.accessToken, expiresAt, refreshAt: expiresAt - Math.min(REFRESH_BEFORE_MS, lifetime / 2) };
  }

  return async (ctx) => {
    if (cached && ctx.now() < cached.refreshAt) return cached.value;
    inflight ??= exchange(ctx).finally(() => {
      inflight = undefined;
    });
    try {
      cached = await inflight;
      return cached.value;
    } catch (e) {
      if (cached && ctx.now() < cached.expiresAt - MIN_LEFT_MS) return cached.value;
      throw e;
    }
  };
}

/** POST the assertion to the token endpoint; its access token and lifetime, or a clear error. */
async function requestToken(ctx: TokenContext, tokenUri: string, assertion: string): Promise<{ accessToken: string; expiresIn: number }> {
  // The caller is told which upstream's token exchange failed, not where its endpoint is (the log is).
  const where = `Upstream '${ctx.upstream}': the service-account token exchange`;
  const endpoint = `token endpoint ${new URL(tokenUri).host}`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new ProxyError('timeout', `${where} did not answer within ${ctx.timeoutMs} ms.`, { detail: endpoint })), ctx.timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await ctx.fetch(tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }).toString(),
      signal: abort.signal,
    });
    status = res.status;
    text = await res.text();
  } catch (e) {
    if (abort.signal.aborted && abort.signal.reason instanceof ProxyError) throw abort.signal.reason;
    // The network's own words (which name the token endpoint's address) are for the log only.
    const reason = e instanceof Error ? e.message : String(e);
    throw new ProxyError('upstream', `${where} failed: it could not be reached.`, { status: 502, code: 'token_exchange_failed', detail: `${endpoint}: ${reason}` });
  } finally {
    clearTimeout(timer);
  }
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: reported below by status, or as a missing token.
  }
  if (status < 200 || status >= 300) {
    // OAuth errors: {"error": "invalid_grant", "error_description": "Invalid JWT Signature."}.
    const code = typeof body.error === 'string' ? body.error : undefined;
    const detail = typeof body.error_description === 'string' ? body.error_description : undefined;
    const said = [code, detail && `(${detail})`].filter(Boolean).join(' ').split(assertion).join('***').slice(0, 300);
    // A 4xx is this key refused (a revoked or disabled key, a bad signature); a 5xx, the endpoint's trouble.
    const Refusal = status >= 400 && status < 500 ? CredentialError : ProxyError;
    throw new Refusal('upstream', `${where} was refused: ${status}${said ? ` ${said}` : ''}.`, { status: 502, code: 'token_exchange_failed', detail: endpoint });
  }
  const accessToken = body.access_token;
  const expiresIn = body.expires_in;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new ProxyError('upstream', `${where} answered without an access_token.`, { status: 502, code: 'token_exchange_failed', detail: endpoint });
  }
  // Without a lifetime the token is used for the calls waiting on it, and not kept.
  return { accessToken, expiresIn: typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : 0 };
}
