/**
 * Interlingua as `npm start` runs it (its heap tuning, then startNode: the Node fast paths and the
 * one log line per request, written to stdout, which the bench sends to /dev/null; the start
 * script's Node flags come from bench/run.ts), plus the bench's admin channel. `node proxy.mjs CONFIG_JSON` (forked by bench/run.ts).
 */
import { serveControl } from './control.ts';

const configText = process.argv[2]!;
// cli.ts runs only as the program itself; this bundle imports node.ts, the library.
const { configFromEnv } = await import('../src/config/load.ts');
const { startNode, tuneHeap } = await import('../src/runtime/node.ts');
tuneHeap();
const running = await startNode({ config: configFromEnv(process.env, configText), port: 0, hostname: '127.0.0.1' });
serveControl(running.port);
