/** What an Anthropic upstream's host takes besides the body: headers, betas, and where Bedrock and Vertex AI want them. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, Warning } from '../../src/canonical/index.ts';
import type { UpstreamTarget } from '../types.ts';
import { allowedBetas, callerBetas, DEFAULT_VERSION, forHost, hostless, upstreamHeaders } from './host.ts';

const target = (options: UpstreamTarget['options'] = {}): UpstreamTarget => ({ name: 'claude', model: 'claude-sonnet-4-5', apiKey: 'k', options });

const BEDROCK = { modelInBody: false, streamInBody: false, anthropicVersionInBody: 'bedrock-2023-05-31', betasInBody: true } as const;
const VERTEX = { modelInBody: false, countTokensModelInBody: true, anthropicVersionInBody: 'vertex-2023-10-16' } as const;

describe('upstreamHeaders', () => {
  it('sends the key, the JSON type and the default version; no beta header without betas', () => {
    expect(DEFAULT_VERSION).toBe('2023-06-01');
    expect(upstreamHeaders(target(), undefined, [])).toEqual({ 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'k' });
  });

  it('no key, no x-api-key; configured headers go too, the fixed ones over them', () => {
    const h = upstreamHeaders({ ...target({ headers: { 'x-extra': '1', 'content-type': 'text/plain' } }), apiKey: undefined }, undefined, []);
    expect(h).toStrictEqual({ 'x-extra': '1', 'content-type': 'application/json', 'anthropic-version': '2023-06-01' });
    expect(upstreamHeaders({ ...target(), apiKey: '' }, undefined, [])).not.toHaveProperty('x-api-key');
  });

  it("the caller's version wins over the configured one, which wins over the default", () => {
    expect(upstreamHeaders(target({ anthropicVersion: '2024-01-01' }), '2025-01-01', [])['anthropic-version']).toBe('2025-01-01');
    expect(upstreamHeaders(target({ anthropicVersion: '2024-01-01' }), undefined, [])['anthropic-version']).toBe('2024-01-01');
  });

  it('configured betas then the caller’s, each once, comma-joined', () => {
    const h = upstreamHeaders(target({ anthropicBeta: ['a-1', 'b-2'] }), undefined, ['b-2', 'c-3']);
    expect(h['anthropic-beta']).toBe('a-1,b-2,c-3');
  });

  it('betas outside the allow-list are reported and not sent; none left, no header', () => {
    const warnings: Warning[] = [];
    const h = upstreamHeaders(target({ anthropicBeta: ['x-1'], anthropicBetaAllow: ['ok-1'] }), undefined, ['y-2'], warnings);
    expect(h['anthropic-beta']).toBeUndefined();
    expect(warnings).toEqual([
      { code: 'dropped', path: 'anthropic-beta', detail: 'x-1', lossy: true },
      { code: 'dropped', path: 'anthropic-beta', detail: 'y-2', lossy: true },
    ]);
  });
});

describe('allowedBetas', () => {
  it('without an allow-list every beta passes, as a copy', () => {
    const betas = ['a', 'b'];
    const out = allowedBetas(betas, undefined);
    expect(out).toEqual(['a', 'b']);
    expect(out).not.toBe(betas);
  });

  it('exact names and `prefix*` patterns; a name is no prefix, a prefix needs its star', () => {
    const warnings: Warning[] = [];
    const out = allowedBetas(['context-1m-2025-08-07', 'context-1m', 'files-api-2025-04-14', 'files-api', 'other'], ['context-1m-*', 'files-api'], warnings);
    expect(out).toEqual(['context-1m-2025-08-07', 'files-api']);
    expect(warnings.map((w) => w.detail)).toEqual(['context-1m', 'files-api-2025-04-14', 'other']);
  });

  it('an empty allow-list lets nothing through; no warnings array, no throw', () => {
    expect(allowedBetas(['a'], [])).toEqual([]);
  });
});

describe('forHost', () => {
  const body = { model: 'm', stream: true, messages: [] };
  const headers = { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a-1, b-2', 'x-api-key': 'k' };

  it('a plain host takes body and headers as they are (the same objects)', () => {
    const [b, h] = forHost(body, headers, target());
    expect(b).toBe(body);
    expect(h).toBe(headers);
    expect(hostless({})).toBe(true);
  });

  it('Bedrock: no model, no stream; version and betas in the body, out of the headers', () => {
    const [b, h] = forHost(body, headers, target(BEDROCK));
    expect(b).toEqual({ messages: [], anthropic_version: 'bedrock-2023-05-31', anthropic_beta: ['a-1', 'b-2'] });
    expect(h).toEqual({ 'x-api-key': 'k' });
    expect(body).toEqual({ model: 'm', stream: true, messages: [] });
    expect(headers['anthropic-beta']).toBe('a-1, b-2');
  });

  it('betas in the body only when there are betas', () => {
    const [b, h] = forHost(body, { 'anthropic-version': 'v' }, target(BEDROCK));
    expect(b).not.toHaveProperty('anthropic_beta');
    expect(h).toEqual({});
  });

  it('Vertex AI: no model but for count_tokens; stream stays; betas stay in the header', () => {
    const [b, h] = forHost(body, headers, target(VERTEX));
    expect(b).toEqual({ stream: true, messages: [], anthropic_version: 'vertex-2023-10-16' });
    expect(h).toEqual({ 'anthropic-beta': 'a-1, b-2', 'x-api-key': 'k' });
    expect(forHost(body, headers, target(VERTEX), true)[0]).toHaveProperty('model', 'm');
    expect(forHost(body, headers, target({ modelInBody: false }), true)[0]).not.toHaveProperty('model');
  });

  it('each knob alone makes a host that is not plain', () => {
    for (const o of [{ modelInBody: false }, { anthropicVersionInBody: 'v' }, { betasInBody: true }, { streamInBody: false }]) expect(hostless(o)).toBe(false);
    expect(hostless({ modelInBody: true, streamInBody: true, betasInBody: false })).toBe(true);
    expect(forHost(body, headers, target({ streamInBody: false }))[0]).toEqual({ model: 'm', messages: [] });
    expect(forHost(body, headers, target({ betasInBody: true }))).toEqual([
      { ...body, anthropic_beta: ['a-1', 'b-2'] },
      { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' },
    ]);
  });

  it('blank betas in the header are left out of the body', () => {
    expect(forHost({}, { 'anthropic-beta': 'a-1,, ,b-2' }, target({ betasInBody: true }))[0]).toEqual({ anthropic_beta: ['a-1', 'b-2'] });
  });
});

describe('callerBetas', () => {
  const req = (fields?: Record<string, unknown>, dialect = 'anthropic'): ChatRequest =>
    ({ model: 'm', system: [], messages: [], stream: false, ...(fields && { extras: { dialect, fields } }) }) as ChatRequest;

  it("an Anthropic caller's betas, and ?beta=true only with them", () => {
    expect(callerBetas(req({ 'anthropic-beta': ['a-1', 7, 'b-2'], '?beta': 'true' }))).toEqual({ betas: ['a-1', 'b-2'], query: '?beta=true' });
    expect(callerBetas(req({ 'anthropic-beta': ['a-1'], '?beta': 'false' }))).toEqual({ betas: ['a-1'], query: '' });
    expect(callerBetas(req({ 'anthropic-beta': [], '?beta': 'true' }))).toEqual({ betas: [], query: '' });
    expect(callerBetas(req({ 'anthropic-beta': 'a-1' }))).toEqual({ betas: [], query: '' });
  });

  it('another dialect’s extras, or none, carry no betas', () => {
    expect(callerBetas(req({ 'anthropic-beta': ['a-1'], '?beta': 'true' }, 'openai-chat'))).toEqual({ betas: [], query: '' });
    expect(callerBetas(req())).toEqual({ betas: [], query: '' });
  });
});
