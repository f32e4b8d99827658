/**
 * SigV4 request signing for Bedrock (aws4fetch, WebCrypto: the same on Node and Workers).
 * The canonical URI encodes the path as sent once more (the non-S3 rule), so a `%3A` in a model
 * id is signed as `%253A`. https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 */
import { AwsV4Signer } from 'aws4fetch';
import { ByteParts } from '../../kit/index.ts';
import { ProxyError } from '../../canonical/index.ts';
import type { OutgoingRequest } from './types.ts';

/** SigV4 signing name of bedrock-runtime (not the host's first label). */
export const SIGNING_NAME = 'bedrock';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** `YYYYMMDDTHHMMSSZ`, SigV4's time stamp. */
export function amzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[:-]|\.\d{3}/g, '');
}

/**
 * SigV4 headers for a request (aws4fetch): `x-amz-date`, `x-amz-security-token` with a session
 * token, and `authorization`. Signs `host` and every header given except those aws4fetch leaves
 * unsigned (content-type, content-length, user-agent…), and the SHA-256 of the body.
 */
export async function signSigV4(
  req: OutgoingRequest,
  creds: AwsCredentials,
  o: { region: string; service: string; now: number; cache?: Map<string, ArrayBuffer> },
): Promise<Record<string, string>> {
  // A big JSON body comes as UTF-8 pieces (jsonBody); the signature covers their bytes.
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (req.body instanceof ByteParts) body = req.body.join() as Uint8Array<ArrayBuffer>;
  else if (req.body === undefined || typeof req.body === 'string') body = req.body;
  else throw new ProxyError('unsupported', 'Amazon Bedrock takes JSON bodies only.');
  const signer = new AwsV4Signer({
    method: req.method,
    url: req.url,
    headers: req.headers,
    body,
    accessKeyId: creds.accessKeyId,
    secretAccessKey: creds.secretAccessKey,
    sessionToken: creds.sessionToken,
    service: o.service,
    region: o.region,
    datetime: amzDate(o.now),
    cache: o.cache,
  });
  const signed = await signer.sign();
  const out: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
