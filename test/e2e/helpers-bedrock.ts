/**
 * Amazon Bedrock for the end-to-end suites: the config (a SigV4 upstream with env: credentials,
 * an API-key upstream), and a mock of Bedrock's URLs that checks every request the way AWS does —
 * the SigV4 signature recomputed from the request as received (test/support/aws.ts), or the
 * Bedrock API key — refuses `model`/`stream` in the body as Bedrock does, and answers JSON, AWS
 * error bodies, or the binary AWS event stream.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { concatBytes, EVENTSTREAM_TYPE, framesOfSse, verifySigV4 } from '../support/aws.ts';
import { fixtureText } from '../support/fixtures.ts';
import { startMockUpstream, type MockHandler, type MockReply, type MockUpstream, type ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY, startProxy, type RunningProxy, type TargetKind } from '../support/proxy.ts';

export const CREDS = { accessKeyId: 'AKIAE2EBEDROCKKEYID0', secretAccessKey: 'e2e/Bedrock+SECRET/access0KEY000000000', sessionToken: 'e2e-bedrock-SESSION//token+=' };
export const API_KEY = 'ABSKe2eBEDROCKapiKEY000000';
export const ENV = { AWS_ACCESS_KEY_ID: CREDS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey, AWS_SESSION_TOKEN: CREDS.sessionToken, AWS_BEARER_TOKEN_BEDROCK: API_KEY };
export const SECRETS = [CREDS.accessKeyId, CREDS.secretAccessKey, CREDS.sessionToken, API_KEY];

export const MODEL = 'anthropic.claude-sonnet-4-5-20250929-v1:0';
export const PROFILE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
export const ARN = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc123xyz';
export const MODEL_PATH = '/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0';

export function config(mockUrl: string) {
  const common = { dialect: 'anthropic', provider: 'bedrock', region: 'us-east-1', baseUrl: mockUrl, retry: { attempts: 1 } };
  return {
    keys: [INBOUND_KEY],
    upstreams: {
      bedrock: { ...common, accessKeyId: 'env:AWS_ACCESS_KEY_ID', secretAccessKey: 'env:AWS_SECRET_ACCESS_KEY', sessionToken: 'env:AWS_SESSION_TOKEN' },
      'bedrock-key': { ...common, apiKey: 'env:AWS_BEARER_TOKEN_BEDROCK' },
    },
    models: {
      'claude-on-bedrock': { upstream: 'bedrock', model: MODEL },
      'claude-profile': { upstream: 'bedrock-key', model: PROFILE },
      'claude-arn': { upstream: 'bedrock', model: ARN },
      'gpt-4o': { upstream: 'bedrock', model: MODEL },
      'gemini-2.5-flash': { upstream: 'bedrock', model: MODEL },
    },
  };
}

export function awsError(status: number, type: string, message: string): MockReply {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'aws-req-0001' },
    body: JSON.stringify({ message }),
  };
}

/** Bytes in pieces of `size`, so frames arrive split across network chunks. */
export function pieces(bytes: Uint8Array, size = 37): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

export const json = (name: string): MockReply => ({ status: 200, headers: { 'content-type': 'application/json', 'x-amzn-requestid': 'aws-req-0002' }, body: fixtureText('anthropic', name) });
export const eventStream = (frames: Uint8Array[]): MockReply => ({
  status: 200,
  headers: { 'content-type': EVENTSTREAM_TYPE, 'x-amzn-bedrock-content-type': 'application/json', 'x-amzn-requestid': 'aws-req-0003' },
  chunks: pieces(concatBytes(frames)),
});
export const stream = (name: string) => eventStream(framesOfSse(fixtureText('anthropic', name)));

export interface Seen {
  model: string;
  op: string;
  auth: 'sigv4' | 'bearer';
}

/**
 * Bedrock as AWS checks a request, then `reply`: unknown operations, bad credentials, and a body
 * with `model` or `stream` or without the Bedrock `anthropic_version` are refused as Bedrock would.
 */
export function bedrock(reply: MockReply | ((req: ReceivedRequest, seen: Seen) => MockReply), seen: Seen[] = []): MockHandler {
  return (req) => {
    const m = /^\/model\/([^/?]+)\/(invoke|invoke-with-response-stream|count-tokens)$/.exec(req.url);
    if (!m) return awsError(404, 'UnknownOperationException', `Unknown operation ${req.url}`);
    const auth = String(req.headers.authorization ?? '');
    let kind: Seen['auth'];
    if (auth.startsWith('Bearer ')) {
      if (auth !== `Bearer ${API_KEY}`) return awsError(403, 'UnrecognizedClientException', 'Invalid API key.');
      kind = 'bearer';
    } else {
      const v = verifySigV4({ method: req.method, target: req.url, headers: req.headers, body: req.body }, { ...CREDS, region: 'us-east-1', service: 'bedrock' });
      if (!v.ok) return awsError(403, 'InvalidSignatureException', `The request signature we calculated does not match the signature you provided (${v.reason}).`);
      if (req.headers['x-amz-security-token'] !== CREDS.sessionToken) return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
      kind = 'sigv4';
    }
    if (m[2] !== 'count-tokens') {
      for (const key of ['model', 'stream']) if (req.json && key in req.json) return awsError(400, 'ValidationException', `extraneous key [${key}] is not permitted`);
      if (req.json?.anthropic_version !== 'bedrock-2023-05-31') return awsError(400, 'ValidationException', 'anthropic_version: bedrock-2023-05-31 is required');
    }
    const s = { model: decodeURIComponent(m[1]!), op: m[2]!, auth: kind };
    seen.push(s);
    return typeof reply === 'function' ? reply(req, s) : reply;
  };
}

export interface BedrockHarness {
  mock: MockUpstream;
  proxy: RunningProxy;
}

/** A Bedrock mock and a proxy (with the AWS credentials in its environment) for the enclosing describe. */
export function useBedrock(target: TargetKind): BedrockHarness {
  const h = {} as BedrockHarness;
  beforeAll(async () => {
    h.mock = await startMockUpstream();
    h.proxy = await startProxy(config(h.mock.url), ENV, target);
  }, 120_000);
  afterAll(async () => {
    await h.proxy?.close();
    await h.mock?.close();
  });
  beforeEach(() => {
    if (h.mock) h.mock.requests.length = 0;
  });
  return h;
}

/** The caller's model names (config above). */
export const ASK = { model: 'claude-on-bedrock', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hi' }] };
