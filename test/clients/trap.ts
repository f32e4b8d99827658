/**
 * A trap for a real client's stray connections: a listener set as the environment's HTTP(S)
 * proxy that records the first line of anything sent through it and refuses it, so a test can
 * prove the client reached no host but 127.0.0.1.
 */
import net from 'node:net';

/** A listener that accepts any proxied connection, records its request line and closes it. */
export async function startTrap(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = net.createServer((s) => {
    s.once('data', (d) => {
      seen.push(d.toString('utf8').split('\r\n')[0] ?? '');
      s.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
    });
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The environment that sends every connection but 127.0.0.1's through the trap at `url`. */
export function proxyEnv(url: string): Record<string, string> {
  return { HTTP_PROXY: url, HTTPS_PROXY: url, ALL_PROXY: url, http_proxy: url, https_proxy: url, all_proxy: url, NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' };
}
