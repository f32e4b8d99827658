/**
 * The command line as a newcomer runs it: `npm start` serves with the built-in default config,
 * `--config`/`--port` work, a bad config stops the start naming the field, SIGTERM shuts down
 * gracefully, `--help` and bad arguments answer in one line without a stack trace, `check`
 * validates without starting, and a checkout path with a space in it still starts. Run from the
 * TypeScript source here; test/cli-compiled.test.ts runs the built dist/cli.js the same ways.
 */
import { mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/config/load.ts';
import { startupLine } from '../src/runtime/cli.ts';
import { run, start as startProcess, tsx } from './support/processes.ts';

const root = join(import.meta.dirname, '..');

const cliEnv = (env: Record<string, string>) => ({ ...process.env, PORT: '', HOST: '', ...env, INTERLINGUA_CONFIG: env.INTERLINGUA_CONFIG ?? '' });

function start(args: string[], env: Record<string, string> = {}, entry = 'src/runtime/cli.ts') {
  const p = startProcess(...tsx(entry, ...args), { env: cliEnv(env) });
  const listening = p.waitFor(/listening on (http:\/\/\S+)/).then((m) => m[1]!);
  listening.catch(() => {}); // a start that is meant to fail never listens
  return { listening, exited: p.exited, out: p.out, err: p.err, stop: () => p.stop() };
}

/** The command run to its end: status, stdout, stderr. */
const cli = (args: string[], env: Record<string, string> = {}) => run(...tsx('src/runtime/cli.ts', ...args), { env: cliEnv(env) });

/** One line on stderr, no stack trace. */
function oneLine(stderr: string): string {
  expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at .*:\d+:\d+\)?$|node:internal/m);
  return stderr.trim();
}

const tmp = () => mkdtempSync(join(tmpdir(), 'il-'));

describe('node entry', () => {
  it('serves /health and the default model list, logs a JSON line, and exits 0 on SIGTERM', async () => {
    const p = start(['--port', '0']);
    const url = await p.listening;
    // One start-up line: the address, where the config came from, how many routes and upstreams.
    expect(p.err()).toBe(`interlingua listening on ${url} (built-in default config, 3 routes, 3 upstreams)\n`);
    expect((await (await fetch(`${url}/health`)).json())).toEqual({ status: 'ok' });
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(['claude-*', 'gemini-*', '*']);
    await new Promise((r) => setTimeout(r, 100));
    const line = JSON.parse(p.out().trim().split('\n').at(-1)!);
    expect(line).toMatchObject({ route: 'models', status: 200 });
    expect(await p.stop()).toBe(0);
  });

  it('takes --config FILE, and a bad config stops the start naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ upstreams: { x: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } }, models: { 'only-this': { upstream: 'x' } } }));
    const p = start(['--config', good, '--port', '0']);
    const url = await p.listening;
    expect(p.err()).toContain(`listening on ${url} (config ${good}, 1 route, 1 upstream)`);
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(['only-this']);
    await p.stop();

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ upstreams: { x: { dialect: 'openai', baseUrl: 'nope' } }, models: {} }));
    const q = start(['--config', bad, '--port', '0']);
    expect(await q.exited).toBe(1);
    expect(q.err()).toBe(`interlingua: invalid config ${bad}: \`upstreams.x.baseUrl\` must be an absolute URL (https://…)\n`);
  });

  it('reads INTERLINGUA_CONFIG as inline JSON', async () => {
    const p = start(['--port', '0'], {
      INTERLINGUA_CONFIG: JSON.stringify({ upstreams: { x: { dialect: 'anthropic', baseUrl: 'http://127.0.0.1:9' } }, models: { inline: { upstream: 'x' } } }),
    });
    const url = await p.listening;
    const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual(['inline']);
    expect(await p.stop()).toBe(0);
  });

  it('--help prints the usage and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: interlingua \[options\]/);
    expect(r.stdout).toContain('--port N');
    expect(r.stdout).toContain('PORT, HOST');
    expect(r.stdout).toContain('one JSON line per request on stdout');
  });

  it.each([
    [['--port', 'abc'], /--port must be a whole number from 0 to 65535, not 'abc'/],
    [['--port', '70000'], /--port must be a whole number/],
    [['--nope'], /Unknown option '--nope'/],
    [['serve', 'now'], /unknown command 'serve now'/],
    [['--strict-env'], /--strict-env goes with check/],
  ])('%j is one line on stderr, exit 2, no stack trace', async (args, message) => {
    const r = await cli(args);
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toMatch(message);
  });

  it('PORT from the environment is checked the same way', async () => {
    const r = await cli([], { PORT: 'eighty' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/PORT must be a whole number from 0 to 65535, not 'eighty'/);
  });

  it('check validates the config and prints its routes without starting', async () => {
    const dir = tmp();
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ upstreams: { claude: { dialect: 'anthropic', baseUrl: 'https://api.anthropic.com' }, oai: { dialect: 'openai', baseUrl: 'https://api.openai.com/v1' } }, models: { 'gpt-4o': { upstream: ['claude', 'oai'], model: 'claude-sonnet-4-5', strict: true }, '*': { upstream: 'oai' } } }));
    const r = await cli(['check', '--config', file]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`config ${file}: valid`);
    expect(r.stdout).toContain('gpt-4o → claude as claude-sonnet-4-5 (anthropic, https://api.anthropic.com), then oai as claude-sonnet-4-5 (openai, https://api.openai.com/v1) [strict]');
    expect(r.stdout).toContain('* → oai (openai, https://api.openai.com/v1)');
    // A named provider is part of the line, with the base URL it defaults to.
    writeFileSync(file, JSON.stringify({ upstreams: { local: { dialect: 'openai', provider: 'vllm' } }, models: { 'qwen*': { upstream: 'local' } } }));
    const provider = await cli(['check', '--config', file]);
    expect(provider.stdout).toContain('qwen* → local (openai, provider vllm, http://127.0.0.1:8000/v1)');
    writeFileSync(file, JSON.stringify({ upstreams: {}, models: { x: { upstream: 'nope' } } }));
    const bad = await cli(['check', '--config', file]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/models\["x"\]\.upstream: no upstream named "nope"/);
  });

  it('check lists the environment a config reads, set or not, and passes without its secrets; --strict-env fails naming them all', async () => {
    const r = await cli(['check', '--config', 'examples/default.json'], { OPENAI_API_KEY: 'sk-set' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('config examples/default.json: valid');
    expect(r.stdout).toContain('environment it reads (3 of 4 not set: a start fails until they are):');
    expect(r.stdout).toMatch(/^ {2}OPENAI_API_KEY +set +\(upstreams\.openai\.apiKey\)$/m);
    expect(r.stdout).toMatch(/^ {2}INTERLINGUA_KEY +not set +\(keys\[0\]\)$/m);
    // The value of a set variable is never shown.
    expect(r.stdout).not.toContain('sk-set');
    const strict = await cli(['check', '--strict-env', '--config', 'examples/default.json'], { OPENAI_API_KEY: 'sk-set' });
    expect(strict.status).toBe(1);
    expect(oneLine(strict.stderr)).toBe(
      'interlingua: examples/default.json: environment variables not set: INTERLINGUA_KEY (keys[0]), ANTHROPIC_API_KEY (upstreams.anthropic.apiKey), GEMINI_API_KEY (upstreams.gemini.apiKey); set them before starting (`interlingua check` lists what a config reads)',
    );
    const all = await cli(['check', '--config', 'examples/default.json'], { OPENAI_API_KEY: 'a', ANTHROPIC_API_KEY: 'b', GEMINI_API_KEY: 'c', INTERLINGUA_KEY: 'd' });
    expect(all.stdout).toContain('environment it reads (all set):');
  });

  it('every shipped example checks before its secrets exist', async () => {
    const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.json'));
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const f of examples) {
      const r = await cli(['check', '--config', `examples/${f}`]);
      expect([f, r.status, r.stderr]).toEqual([f, 0, '']);
      expect(r.stdout).toContain(`config examples/${f}: valid`);
    }
  });

  it('--version prints the version of package.json', async () => {
    const r = await cli(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`interlingua ${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    expect((await cli(['-v'])).stdout).toBe(r.stdout);
  });
});

describe('node entry: every failure to start is one line and exit 1', () => {
  const file = (name: string, text: string) => {
    const f = join(tmp(), name);
    writeFileSync(f, text);
    return f;
  };

  it.each([
    ['an empty file', '', /^interlingua: config file \S+ is empty: write a config there/],
    ['a whitespace-only file', ' \n\t\n', /^interlingua: config file \S+ is empty/],
    ['a trailing comma', '{\n  "upstreams": {},\n  "models": {},\n}\n', /: not valid JSON at line 3, column 15: a trailing comma before `}`$/],
    ['a typo in a field', JSON.stringify({ upstreams: { openai: { dialect: 'openai', baseUrl: 'https://x/v1', apikey: 'sk-x' } }, models: {} }), /: unknown field `apikey` at upstreams\.openai \(did you mean `apiKey`\?\)$/],
    ['no upstreams', '{}', /: missing field `upstreams`; missing field `models`$/],
    ['a list', '[]', /: the document must be a JSON object .*not a list$/],
    ['keys not a list', JSON.stringify({ keys: 'k', upstreams: {}, models: {} }), /: `keys` must be a list of strings or objects, not a string$/],
  ])('%s', async (_, text, message) => {
    const f = file('c.json', text);
    const r = await cli(['--config', f, '--port', '0']);
    expect(r.status).toBe(1);
    expect(oneLine(r.stderr)).toMatch(message);
    // Nothing started: no start line credits the file.
    expect(r.stderr).not.toContain('listening');
  });

  it('every unset env: variable at once, and the config named by INTERLINGUA_CONFIG', async () => {
    const r = await cli(['--port', '0'], { INTERLINGUA_CONFIG: 'examples/default.json' });
    expect(r.status).toBe(1);
    expect(oneLine(r.stderr)).toMatch(/^interlingua: examples\/default\.json: environment variables not set: INTERLINGUA_KEY \(keys\[0\]\), ANTHROPIC_API_KEY .*GEMINI_API_KEY .*OPENAI_API_KEY \(upstreams\.openai\.apiKey\);/);
    const empty = await cli(['--port', '0'], { INTERLINGUA_CONFIG: file('e.json', '\n') });
    expect(oneLine(empty.stderr)).toMatch(/is empty: .*start without INTERLINGUA_CONFIG/);
  });

  it('an unreadable config: a missing file, a directory', async () => {
    const missing = await cli(['--config', 'no/such/config.json']);
    expect(missing.status).toBe(1);
    expect(oneLine(missing.stderr)).toBe('interlingua: cannot read config file no/such/config.json: no such file');
    const dir = await cli(['--config', tmp()]);
    expect(oneLine(dir.stderr)).toMatch(/: it is a directory, not a file$/);
  });

  it('a busy port, a host that does not resolve, an address this machine does not have', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const r = await cli(['--port', String(port)]);
      expect(r.status).toBe(1);
      expect(oneLine(r.stderr)).toBe(`interlingua: cannot listen on 127.0.0.1:${port}: the port is in use (another interlingua, or wrangler dev?); stop it, or pick another port with --port N (0 picks a free one)`);
    } finally {
      busy.close();
    }
    const host = await cli(['--port', '0', '--host', 'no-such-host.invalid']);
    expect(host.status).toBe(1);
    expect(oneLine(host.stderr)).toMatch(/^interlingua: cannot listen on no-such-host\.invalid:0: no such host; give --host an address of this machine/);
    // TEST-NET-1 (RFC 5737): never an address of this machine; binding sends nothing anywhere.
    const absent = await cli(['--port', '0', '--host', '192.0.2.1']);
    expect(absent.status).toBe(1);
    expect(oneLine(absent.stderr)).toMatch(/^interlingua: cannot listen on 192\.0\.2\.1:0: not an address of this machine/);
  });

  it('the start-up line brackets an IPv6 address and counts in the singular', () => {
    const config = { exact: new Map([['a', {}]]), globs: [], upstreams: { u: {} }, keys: [], store: {} } as unknown as Config;
    expect(startupLine(config, 'config x.json', '::1', 8787)).toBe('interlingua listening on http://[::1]:8787 (config x.json, 1 route, 1 upstream)');
  });

  it('the start-up line says the workers, the keys with limits and where they are counted, and a Redis that did not answer', () => {
    const keys = [{ key: 'a', name: 'a', limits: { requestsPerMinute: 1 } }, { key: 'b', name: 'b' }, { key: 'c', name: 'c', limits: { costPerDay: 1 } }];
    const config = { exact: new Map(), globs: [{}], upstreams: { u: {}, v: {} }, keys, store: {} } as unknown as Config;
    expect(startupLine(config, 'config x.json', '127.0.0.1', 1)).toBe('interlingua listening on http://127.0.0.1:1 (config x.json, 1 route, 2 upstreams, limits on 2 keys counted per process)');
    const shared = { ...config, store: { url: 'redis://:password@redis:6379' } } as unknown as Config;
    expect(startupLine(shared, 'c', 'h', 1, { workers: 4, redis: { reachable: true } })).toBe('interlingua listening on http://h:1 (c, 1 route, 2 upstreams, 4 workers, limits on 2 keys counted in Redis)');
    const down = startupLine(shared, 'c', 'h', 1, { redis: { reachable: false } });
    expect(down).toBe('interlingua listening on http://h:1 (c, 1 route, 2 upstreams, limits on 2 keys counted in Redis); Redis (store.url) unreachable: state answers 503 and limits fail open until it answers');
    expect(down).not.toContain('password');
  });

  it('a Redis that does not answer at start: said on the start line, and the proxy serves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-'));
    const file = join(dir, 'redis.json');
    const doc = { keys: [{ key: 'k', name: 'team', limits: { requestsPerMinute: 5 } }], upstreams: { x: { dialect: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } }, models: { m: { upstream: 'x' } }, store: { url: 'redis://127.0.0.1:9' } };
    writeFileSync(file, JSON.stringify(doc));
    const p = start(['--config', file, '--port', '0']);
    const url = await p.listening;
    expect(p.err()).toContain(`listening on ${url} (config ${file}, 1 route, 1 upstream, limits on 1 key counted in Redis); Redis (store.url) unreachable: state answers 503 and limits fail open until it answers`);
    expect((await fetch(`${url}/v1/models`, { headers: { authorization: 'Bearer k' } })).status).toBe(200);
    expect(await p.stop()).toBe(0);
  });

  it('starts from a checkout whose path contains a space', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il space-'));
    const link = join(dir, 'my checkout');
    symlinkSync(root, link);
    const p = start(['--port', '0'], {}, join(link, 'src', 'runtime', 'cli.ts'));
    const url = await p.listening;
    expect((await (await fetch(`${url}/health`)).json())).toEqual({ status: 'ok' });
    expect(await p.stop()).toBe(0);
  });
});
