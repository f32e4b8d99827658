/**
 * Google service accounts for tests: a fresh RSA key pair as a service-account key file (its JSON
 * text), and the check a token endpoint makes of a JWT assertion (signature and claims).
 */
import { base64UrlToBytes, bytesToBase64 } from '../../src/kit/index.ts';

export interface TestAccount {
  json: string;
  publicKey: CryptoKey;
  /** A piece of the private key, to scan for. */
  keyFragment: string;
}

export async function serviceAccount(email: string, tokenUri: string, project = 'my-proj'): Promise<TestAccount> {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const b64 = bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey)));
  const pem = `-----BEGIN PRIVATE KEY-----\n${b64.replace(/.{64}/g, '$&\n')}\n-----END PRIVATE KEY-----\n`;
  const json = JSON.stringify({ type: 'service_account', project_id: project, private_key_id: 'k1', private_key: pem, client_email: email, token_uri: tokenUri });
  return { json, publicKey: pair.publicKey, keyFragment: b64.slice(100, 160) };
}

const bytes = (b64url: string) => new Uint8Array(base64UrlToBytes(b64url)!);
/** A JWT part's JSON. */
export const jwtPart = (b64url: string) => JSON.parse(new TextDecoder().decode(bytes(b64url)));

/** Whether a `header.claims.signature` assertion is signed by `account`'s key. */
export function signedBy(assertion: string, account: TestAccount): Promise<boolean> {
  const [h, c, s] = assertion.split('.') as [string, string, string];
  return crypto.subtle.verify('RSASSA-PKCS1-v1_5', account.publicKey, bytes(s ?? ''), new TextEncoder().encode(`${h}.${c}`));
}
