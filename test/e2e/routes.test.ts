/**
 * Requests that match no route answer in the dialect their path belongs to, with the right status
 * and code: a mistyped path is not a missing model, and a Gemini action is never a model to GET.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';

for (const target of TARGETS) {
  describe(`${target}: unknown routes`, () => {
    const h = useHarness(target);
    const goog = { 'x-goog-api-key': INBOUND_KEY, 'content-type': 'application/json' };

    it('a mistyped OpenAI path is a 404 that does not claim a missing model', async () => {
      const client = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
      const err = (await client.post('/chat/completion', { body: { model: 'gpt-4o', messages: [] } }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect(err.code).not.toBe('model_not_found');
      expect(err.message).toContain('POST /v1/chat/completion');
      expect(h.mock.requests).toHaveLength(0);
    });

    it('a mistyped Anthropic path is a not_found_error in Anthropic shape', async () => {
      const client = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
      const err = (await client.post('/v1/messages/count', { body: {} }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
      expect(err).toBeInstanceOf(Anthropic.NotFoundError);
      expect((err.error as { type: string; error: { type: string } }).error.type).toBe('not_found_error');
    });

    it('GET on a Gemini action path is a 404 in Gemini shape, not a model named "X:generateContent"', async () => {
      for (const path of ['/v1beta/models/gemini-2.5-flash:generateContent', '/v1/models/gemini-2.5-flash:streamGenerateContent']) {
        const res = await fetch(`${h.proxy.url}${path}`, { headers: goog });
        expect(res.status, path).toBe(404);
        const body = (await res.json()) as { error: { code: number; status: string; message: string } };
        expect(body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
      }
    });

    it('unknown paths and methods under the Interactions prefixes (/v1 and /v1beta) answer in Google shape, nothing sent upstream', async () => {
      const cases: Array<[string, string]> = [
        ['GET', '/v1/interactions'],
        ['GET', '/v1/interactions/v1_abc/steps'],
        ['PUT', '/v1/interactions/v1_abc'],
        ['POST', '/v1/interactions/v1_abc'],
        ['GET', '/v1beta/interactions/v1_abc/x/y'],
        ['PATCH', '/v1beta/interactions'],
      ];
      for (const [method, path] of cases) {
        const res = await fetch(`${h.proxy.url}${path}`, { method, headers: goog, ...(method === 'GET' ? {} : { body: '{}' }) });
        expect(res.status, `${method} ${path}`).toBe(404);
        const body = (await res.json()) as { error: Record<string, unknown> };
        expect(body.error, `${method} ${path}`).toMatchObject({ code: 404, status: 'NOT_FOUND' });
        expect(body.error.message).toContain(path);
        expect(body.error).not.toHaveProperty('type');
      }
      expect(h.mock.requests).toHaveLength(0);
    });

    it('HEAD /health and HEAD / answer 200 with no body, with no key (load balancers, Claude Code)', async () => {
      for (const path of ['/health', '/']) {
        const res = await headRaw(`${h.proxy.url}${path}`);
        expect([path, res.status, res.bytes]).toEqual([path, 200, 0]);
      }
      // GET / is still no route.
      expect((await fetch(`${h.proxy.url}/`)).status).toBe(404);
    });

    it('PUT on a Gemini /v1/models action answers in Gemini shape', async () => {
      const res = await fetch(`${h.proxy.url}/v1/models/gemini-2.5-flash:generateContent`, { method: 'PUT', headers: goog, body: '{}' });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { status: string } }).error.status).toBe('NOT_FOUND');
    });
  });
}

/** A HEAD request over a raw socket: its status and how many body bytes came (fetch would hide any). */
function headRaw(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'HEAD' }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}
