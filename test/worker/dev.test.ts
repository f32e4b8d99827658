/**
 * `npm run dev:worker`: the Worker in local workerd, built once at start. Wrangler's own custom
 * build ran twice (before serving and when its watcher was ready) and reloaded workerd after
 * "Ready", answering requests in flight with 503; scripts/dev-worker.ts builds it itself.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { devConfig } from '../../scripts/dev-worker.ts';
import { start } from '../support/processes.ts';
import { wranglerEnv } from '../support/worker.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('npm run dev:worker', () => {
  it('gives wrangler its config without [build], main the bundle built here', () => {
    const toml = ['name = "x"', 'main = ".wrangler/build/worker.js"', '[build]', 'command = "make"', 'watch_dir = ["src"]', '', '[vars]', 'A = "1"', ''].join('\n');
    expect(devConfig(toml, '/abs/worker.js')).toBe(['name = "x"', 'main = "/abs/worker.js"', '[vars]', 'A = "1"', ''].join('\n'));
  });

  it('builds once, serves from "Ready" on with no restart, and every request in the first seconds is answered', async () => {
    const port = await freePort();
    const dev = start('npm', ['run', 'dev:worker', '--silent', '--', '--port', String(port)], { env: wranglerEnv() });
    try {
      await dev.waitFor(/Ready on http:\/\/127\.0\.0\.1:\d+/, 90_000);
      const statuses: number[] = [];
      const until = Date.now() + 4_000;
      while (Date.now() < until) {
        const batch = await Promise.all(
          Array.from({ length: 4 }, () =>
            fetch(`http://127.0.0.1:${port}/health`)
              .then(async (r) => (await r.text(), r.status))
              .catch(() => 0),
          ),
        );
        statuses.push(...batch);
        await new Promise((r) => setTimeout(r, 50));
      }
      const log = dev.out() + dev.err();
      expect(log).not.toMatch(/restarting build|Reloading local server|restarted/i);
      expect(log.match(/\[custom build\]/g) ?? []).toEqual([]);
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
    } finally {
      await dev.stop('SIGINT', 10_000);
    }
  }, 120_000);
});
