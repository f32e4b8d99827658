import { describe, expect, it } from 'vitest';
import { verifySigV4 } from '../../../test/support/aws.ts';
import { signSigV4 } from './bedrock-sigv4.ts';

/**
 * SigV4 test suite ("aws-sig-v4-test-suite", as kept in awslabs/aws-c-auth,
 * tests/aws-signing-test-suite/v4/<name>/: request.txt, context.json, header-canonical-request.txt,
 * header-signature.txt). The cases below were written from reading them: the credentials, time,
 * region and service every case uses, each request, and its published signature.
 */
const SUITE = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 'service',
  now: Date.parse('2015-08-30T12:36:00Z'),
};
const HOST = 'https://example.amazonaws.com';

interface SuiteCase {
  name: string;
  method: 'GET' | 'POST';
  /** Path and query as in request.txt (only unreserved path characters: the encoding rule plays no part). */
  target: string;
  headers?: Record<string, string>;
  sessionToken?: string;
  signedHeaders: string;
  signature: string;
}

const SUITE_CASES: SuiteCase[] = [
  { name: 'get-vanilla', method: 'GET', target: '/', signedHeaders: 'host;x-amz-date', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31' },
  { name: 'post-vanilla', method: 'POST', target: '/', signedHeaders: 'host;x-amz-date', signature: '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b' },
  { name: 'get-unreserved', method: 'GET', target: '/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', signedHeaders: 'host;x-amz-date', signature: '07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f' },
  { name: 'get-vanilla-query-order-key-case', method: 'GET', target: '/?Param2=value2&Param1=value1', signedHeaders: 'host;x-amz-date', signature: 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500' },
  { name: 'get-vanilla-utf8-query', method: 'GET', target: '/?ሴ=bar', signedHeaders: 'host;x-amz-date', signature: '2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04' },
  { name: 'post-header-key-sort', method: 'POST', target: '/', headers: { 'My-Header1': 'value1' }, signedHeaders: 'host;my-header1;x-amz-date', signature: 'c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c' },
  { name: 'get-header-value-trim', method: 'GET', target: '/', headers: { 'My-Header1': ' value1', 'My-Header2': ' "a   b   c"' }, signedHeaders: 'host;my-header1;my-header2;x-amz-date', signature: 'acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736' },
  {
    name: 'get-vanilla-with-session-token',
    method: 'GET',
    target: '/',
    sessionToken: '6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267',
    signedHeaders: 'host;x-amz-date;x-amz-security-token',
    signature: '07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8',
  },
  {
    name: 'post-sts-header-before',
    method: 'POST',
    target: '/',
    sessionToken:
      'AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==',
    signedHeaders: 'host;x-amz-date;x-amz-security-token',
    signature: '85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead',
  },
];

/** Suite cases whose paths need encoding, checked with the verifier (the path is given unencoded). */
const SUITE_PATH_CASES = [
  { name: 'get-utf8', target: '/ሴ', canonicalPath: '/%E1%88%B4', signature: '8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85', normalize: true },
  { name: 'get-space-normalized', target: '/example space/', canonicalPath: '/example%20space/', signature: '652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741', normalize: true },
  { name: 'get-slashes-unnormalized', target: '//example//', canonicalPath: '//example//', signature: '87cca117541a147f6df867677d98a7d80dff226d2bfca9e4ffa899665623c7e5', normalize: false },
  { name: 'get-slashes-normalized', target: '//example//', canonicalPath: '/example/', signature: '9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84', normalize: true },
  { name: 'get-relative-relative-normalized', target: '/example1/example2/../..', canonicalPath: '/', signature: '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31', normalize: true },
];

const suiteCreds = (sessionToken?: string) => ({ accessKeyId: SUITE.accessKeyId, secretAccessKey: SUITE.secretAccessKey, sessionToken });
const authOf = (c: { signedHeaders: string; signature: string }) =>
  `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=${c.signedHeaders}, Signature=${c.signature}`;

describe('SigV4 signing (aws4fetch) against the AWS SigV4 test suite', () => {
  it.each(SUITE_CASES)('$name', async (c) => {
    const headers = await signSigV4({ method: c.method, url: `${HOST}${c.target}`, headers: c.headers ?? {} }, suiteCreds(c.sessionToken), { ...SUITE, now: SUITE.now });
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
    expect(headers.authorization).toBe(authOf(c));
    if (c.sessionToken) expect(headers['x-amz-security-token']).toBe(c.sessionToken);
  });
});

describe('the test SigV4 verifier (used by the Bedrock mock) against the suite', () => {
  const verify = (method: string, target: string, headers: Record<string, string>, normalize = true) =>
    verifySigV4({ method, target, headers: { host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z', ...headers }, body: '' }, { ...SUITE, normalize });

  it.each(SUITE_CASES)('accepts $name', (c) => {
    const extra = { ...c.headers, ...(c.sessionToken ? { 'x-amz-security-token': c.sessionToken } : {}) };
    expect(verify(c.method, c.target.replace('ሴ', '%E1%88%B4'), { ...extra, authorization: authOf(c) })).toMatchObject({ ok: true });
  });

  it.each(SUITE_PATH_CASES)('accepts $name and builds its canonical path', (c) => {
    const r = verify('GET', c.target, { authorization: authOf({ signedHeaders: 'host;x-amz-date', signature: c.signature }) }, c.normalize);
    expect(r).toMatchObject({ ok: true });
    expect(r.canonicalRequest!.split('\n')[1]).toBe(c.canonicalPath);
  });

  it('get-utf8: the whole canonical request as published', () => {
    const r = verify('GET', '/ሴ', { authorization: authOf({ signedHeaders: 'host;x-amz-date', signature: SUITE_PATH_CASES[0]!.signature }) });
    expect(r.canonicalRequest).toBe('GET\n/%E1%88%B4\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('refuses a wrong signature, key, region or service', () => {
    const good = { authorization: authOf(SUITE_CASES[0]!) };
    expect(verify('GET', '/', { authorization: good.authorization.replace(/.$/, '0') })).toMatchObject({ ok: false, reason: 'signature mismatch' });
    expect(verify('GET', '/x', good)).toMatchObject({ ok: false });
    expect(verify('GET', '/', { authorization: good.authorization.replace('AKIDEXAMPLE', 'AKIDOTHER') })).toMatchObject({ ok: false, reason: 'unknown access key AKIDOTHER' });
    expect(verify('GET', '/', { authorization: good.authorization.replace('us-east-1', 'eu-west-1') })).toMatchObject({ ok: false });
    expect(verify('GET', '/', { authorization: good.authorization.replace('/service/', '/bedrock/') })).toMatchObject({ ok: false });
  });
});
