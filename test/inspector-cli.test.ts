/**
 * The inspector from the command line (`interlingua --inspect` prints its URL and serves the page)
 * and its gate: a non-loopback peer is refused unless `allowRemote`, and the key is asked for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.ts';
import { inspectorUrl, parseCli } from '../src/runtime/cli.ts';
import { createInspector } from '../src/runtime/inspector.ts';
import { start, tsx } from './support/processes.ts';

/** A request from `remoteAddress` through the inspector's handler; its status and body. */
function ask(inspector: ReturnType<typeof createInspector>, url: string, remoteAddress: string, headers: Record<string, string> = {}) {
  let status = 0;
  let body = '';
  const req = { url, method: 'GET', headers: { host: '127.0.0.1:8787', ...headers }, socket: { remoteAddress }, resume() {} } as unknown as IncomingMessage;
  const res = {
    writeHead(s: number) {
      status = s;
      return this;
    },
    end(b: string) {
      body = b;
    },
  } as unknown as ServerResponse;
  inspector.handle(req, res);
  return { status, body };
}

describe('inspector: command line and gate', () => {
  it('--inspect is parsed, and the URL printed is a loopback one for wildcard listens', () => {
    expect(parseCli(['--inspect'], {}).inspect).toBe(true);
    expect(parseCli([], {}).inspect).toBe(false);
    expect(inspectorUrl('127.0.0.1', 8787)).toBe('http://127.0.0.1:8787/_inspector');
    expect(inspectorUrl('0.0.0.0', 9000)).toBe('http://127.0.0.1:9000/_inspector');
    expect(inspectorUrl('::1', 9000)).toBe('http://[::1]:9000/_inspector');
  });

  it('interlingua --inspect prints the inspector URL, which serves the page', async () => {
    const p = start(...tsx('src/runtime/cli.ts', '--inspect', '--port', '0'), { env: { ...process.env, PORT: '', HOST: '', INTERLINGUA_CONFIG: '' } });
    const url = (await p.waitFor(/inspector: (http:\S+)/))[1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_inspector$/);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Interlingua inspector');
    expect(await p.stop()).toBe(0);
  }, 30_000);

  it('refuses non-loopback peers and non-loopback Host names unless allowRemote, and wants the inbound key when keys are set', () => {
    const doc = { keys: ['inbound-key-1234'], upstreams: { o: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } }, models: { '*': { upstream: 'o' } } };
    const local = createInspector(parseConfig({ ...doc, inspector: true }));
    expect(ask(local, '/_inspector/api/exchanges', '10.1.2.3', { authorization: 'Bearer inbound-key-1234' }).status).toBe(403);
    expect(ask(local, '/_inspector/api/exchanges', '127.0.0.1').status).toBe(401);
    expect(ask(local, '/_inspector/api/exchanges?key=inbound-key-1234', '127.0.0.1')).toEqual({ status: 200, body: '{"exchanges":[]}' });
    // DNS rebinding: a loopback peer, but a page of another site by its Host.
    expect(ask(local, '/_inspector/api/exchanges?key=inbound-key-1234', '127.0.0.1', { host: 'evil.example:8787' }).status).toBe(403);
    for (const host of ['localhost:8787', '[::1]:8787', '127.0.0.2']) expect(ask(local, '/_inspector/api/exchanges?key=inbound-key-1234', '127.0.0.1', { host }).status).toBe(200);
    local.close();
    const remote = createInspector(parseConfig({ ...doc, inspector: { allowRemote: true } }));
    expect(ask(remote, '/_inspector/api/exchanges', '10.1.2.3').status).toBe(401);
    expect(ask(remote, '/_inspector/api/exchanges', '10.1.2.3', { 'x-api-key': 'inbound-key-1234', host: 'proxy.internal:8787' }).status).toBe(200);
    remote.close();
  });
});
