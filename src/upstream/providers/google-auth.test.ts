import { beforeAll, describe, expect, it } from 'vitest';
import { base64UrlToBytes, bytesToBase64, type FetchLike } from '../../kit/index.ts';
import { isProxyError } from '../../canonical/index.ts';
import type { ServiceAccountKey } from '../../config/providers.ts';
import { assertionClaims, CLOUD_PLATFORM_SCOPE, serviceAccountTokens, type TokenContext } from './google-auth.ts';

const TOKEN_URI = 'https://oauth2.example.test/token';
let key: ServiceAccountKey;
let publicKey: CryptoKey;

beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  publicKey = pair.publicKey;
  const der = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  const b64 = bytesToBase64(der).replace(/.{64}/g, '$&\n');
  key = { clientEmail: 'proxy@my-proj.iam.gserviceaccount.com', privateKey: `-----BEGIN PRIVATE KEY-----\n${b64}\n-----END PRIVATE KEY-----\n`, privateKeyId: 'kid-1', tokenUri: TOKEN_URI };
});

/** Base64url → bytes WebCrypto takes. */
const b64u = (s: string) => new Uint8Array(base64UrlToBytes(s)!);
const decodePart = (part: string) => JSON.parse(new TextDecoder().decode(base64UrlToBytes(part)!));

/** A token endpoint: records the assertions it gets, answers what `answer` says (after `gate`, if given). */
function tokenEndpoint(answer: (n: number) => { status?: number; body: unknown } = (n) => ({ body: { access_token: `ya29.token-${n}`, expires_in: 3600, token_type: 'Bearer' } })) {
  const seen: Array<{ url: string; form: URLSearchParams; headers: Record<string, string> }> = [];
  let gate: Promise<void> | undefined;
  const fetch: FetchLike = async (url, init) => {
    seen.push({ url, form: new URLSearchParams(init.body as string), headers: init.headers as Record<string, string> });
    const n = seen.length;
    if (gate) await gate;
    const { status = 200, body } = answer(n);
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return {
    fetch,
    seen,
    hold() {
      let open!: () => void;
      gate = new Promise((r) => (open = r));
      return () => {
        gate = undefined;
        open();
      };
    },
  };
}

function clock(start = Date.UTC(2025, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const ctxOf = (fetch: FetchLike, now: () => number, timeoutMs = 5_000): TokenContext => ({ fetch, now, timeoutMs, upstream: 'vertex' });

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isProxyError(e)) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('service-account assertion', () => {
  it('claims: iss is the account, scope cloud-platform, aud the token endpoint, one hour from iat', () => {
    expect(assertionClaims(key, 1_700_000_000_999)).toEqual({
      iss: 'proxy@my-proj.iam.gserviceaccount.com',
      scope: CLOUD_PLATFORM_SCOPE,
      aud: TOKEN_URI,
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
  });

  it('is posted as a JWT bearer grant, RS256-signed: the signature verifies with the public key', async () => {
    const t = clock();
    const ep = tokenEndpoint();
    const token = await serviceAccountTokens(key)(ctxOf(ep.fetch, t.now));
    expect(token).toBe('ya29.token-1');
    const [{ url, form, headers }] = ep.seen as [(typeof ep.seen)[0]];
    expect(url).toBe(TOKEN_URI);
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [h, c, s] = form.get('assertion')!.split('.') as [string, string, string];
    expect(decodePart(h)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
    expect(decodePart(c)).toEqual(assertionClaims(key, t.now()));
    const valid = await crypto.subtle.verify('RSASSA-PKCS1-v1_5', publicKey, b64u(s), new TextEncoder().encode(`${h}.${c}`));
    expect(valid).toBe(true);
    const tampered = await crypto.subtle.verify('RSASSA-PKCS1-v1_5', publicKey, b64u(s), new TextEncoder().encode(`${h}.${c}x`));
    expect(tampered).toBe(false);
  });
});

describe('token cache', () => {
  it('reuses the token within its lifetime and refreshes it 5 minutes before expiry', async () => {
    const t = clock();
    const ep = tokenEndpoint();
    const tokens = serviceAccountTokens(key);
    const ctx = ctxOf(ep.fetch, t.now);
    expect(await tokens(ctx)).toBe('ya29.token-1');
    t.advance(54 * 60_000);
    expect(await tokens(ctx)).toBe('ya29.token-1');
    expect(ep.seen).toHaveLength(1);
    t.advance(60_000 + 1); // 55 min: inside the last 5 minutes
    expect(await tokens(ctx)).toBe('ya29.token-2');
    expect(ep.seen).toHaveLength(2);
    // The new assertion is signed at the new time.
    expect(decodePart(ep.seen[1]!.form.get('assertion')!.split('.')[1]!).iat).toBe(Math.floor(t.now() / 1000));
  });

  it('a short-lived token is refreshed at half its lifetime', async () => {
    const t = clock();
    const ep = tokenEndpoint((n) => ({ body: { access_token: `short-${n}`, expires_in: 120 } }));
    const tokens = serviceAccountTokens(key);
    const ctx = ctxOf(ep.fetch, t.now);
    expect(await tokens(ctx)).toBe('short-1');
    t.advance(59_000);
    expect(await tokens(ctx)).toBe('short-1');
    t.advance(1_000);
    expect(await tokens(ctx)).toBe('short-2');
  });

  it('a token without a lifetime serves the calls waiting for it and is not kept', async () => {
    const ep = tokenEndpoint((n) => ({ body: { access_token: `once-${n}` } }));
    const tokens = serviceAccountTokens(key);
    const ctx = ctxOf(ep.fetch, clock().now);
    expect(await tokens(ctx)).toBe('once-1');
    expect(await tokens(ctx)).toBe('once-2');
  });

  it('concurrent requests share one exchange (single flight), and the next refresh is one exchange again', async () => {
    const t = clock();
    const ep = tokenEndpoint();
    const tokens = serviceAccountTokens(key);
    const ctx = ctxOf(ep.fetch, t.now);
    const release = ep.hold();
    const waiting = Array.from({ length: 20 }, () => tokens(ctx));
    await new Promise((r) => setTimeout(r, 20));
    release();
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['ya29.token-1']));
    expect(ep.seen).toHaveLength(1);
    t.advance(56 * 60_000);
    expect(new Set(await Promise.all(Array.from({ length: 10 }, () => tokens(ctx))))).toEqual(new Set(['ya29.token-2']));
    expect(ep.seen).toHaveLength(2);
  });

  it('a failed refresh falls back to the old token while it has time left, never once it has expired', async () => {
    const t = clock();
    let down = false;
    const ep = tokenEndpoint((n) => (down ? { status: 503, body: { error: 'unavailable' } } : { body: { access_token: `ya29.token-${n}`, expires_in: 3600 } }));
    const tokens = serviceAccountTokens(key);
    const ctx = ctxOf(ep.fetch, t.now);
    expect(await tokens(ctx)).toBe('ya29.token-1');
    down = true;
    t.advance(56 * 60_000);
    expect(await tokens(ctx)).toBe('ya29.token-1');
    t.advance(3 * 60_000 + 1); // under a minute left
    expect((await failure(tokens(ctx))).message).toMatch(/refused: 503 unavailable/);
    down = false;
    expect(await tokens(ctx)).toBe('ya29.token-4');
  });
});

describe('token endpoint failures', () => {
  it('an OAuth error becomes a clear 502 naming the upstream and the endpoint, never the assertion', async () => {
    const ep = tokenEndpoint(() => ({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } }));
    const err = await failure(serviceAccountTokens(key)(ctxOf(ep.fetch, clock().now)));
    expect(err.status).toBe(502);
    expect(err.code).toBe('token_exchange_failed');
    expect(err.message).toBe("Upstream 'vertex': the service-account token exchange was refused: 400 invalid_grant (Invalid JWT Signature.).");
    // Where the endpoint is goes to the log, not to the caller.
    expect(err.detail).toBe('token endpoint oauth2.example.test');
    expect(err.message).not.toContain(ep.seen[0]!.form.get('assertion')!.slice(0, 40));
  });

  it('an answer without a token, an unreachable endpoint, and a silent one', async () => {
    const now = clock().now;
    const empty = tokenEndpoint(() => ({ body: { expires_in: 3600 } }));
    expect((await failure(serviceAccountTokens(key)(ctxOf(empty.fetch, now)))).message).toMatch(/answered without an access_token/);
    const down: FetchLike = async () => {
      throw new TypeError('fetch failed');
    };
    const down1 = await failure(serviceAccountTokens(key)(ctxOf(down, now)));
    expect(down1.message).toBe("Upstream 'vertex': the service-account token exchange failed: it could not be reached.");
    expect(down1.detail).toBe('token endpoint oauth2.example.test: fetch failed');
    const silent: FetchLike = (_url, init) => new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    const err = await failure(serviceAccountTokens(key)(ctxOf(silent, now, 30)));
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/did not answer within 30 ms/);
  });

  it('a private key that is not an RSA PKCS#8 key is a 500 naming the credentials, without a token request', async () => {
    const ep = tokenEndpoint();
    const bad = { ...key, privateKey: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' };
    const err = await failure(serviceAccountTokens(bad)(ctxOf(ep.fetch, clock().now)));
    expect(err.status).toBe(500);
    expect(err.message).toMatch(/credentials: the service-account private_key is not an RSA key in PKCS#8 form/);
    expect(ep.seen).toHaveLength(0);
  });
});
