/**
 * Forwarding against decoding for same-dialect requests, in process: openai-chat → openai-chat
 * and anthropic → anthropic through `dispatch` with an instant fake upstream, once with the
 * dialects' `forward` step (src/flows/forward/) and once without it (the request parsed and
 * decoded, as before forwarding), each in its own process, interleaved runs, median CPU µs per
 * request. Bodies: a small request, and the 30 KB / 300 KB agent turns of bench/agent-bodies.ts.
 * `npx tsx bench/forward.ts [runs]`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createProxy } from '../src/app.ts';
import type { CallerRequest } from '../src/http/inbound.ts';
import { parseConfig } from '../src/config/load.ts';
import { registry, type Registry } from '../translators/index.ts';
import { conversation, render } from './agent-bodies.ts';

const CASES = ['openai small', 'anthropic small', 'openai 30KB', 'anthropic 30KB', 'anthropic 300KB'] as const;
type Case = (typeof CASES)[number];

async function measure(mode: 'forward' | 'decode', which: Case): Promise<number> {
  const [caller, size] = which.split(' ') as ['openai' | 'anthropic', string];
  const fixture = caller === 'openai' ? 'openai-chat/__fixtures__/text-basic.json' : 'anthropic/__fixtures__/text-basic.json';
  const answer = readFileSync(new URL(`../translators/${fixture}`, import.meta.url), 'utf8');
  const doc = {
    open: true,
    log: { requests: false },
    upstreams: { o: { dialect: 'openai', baseUrl: 'http://up/v1', apiKey: 'k' }, a: { dialect: 'anthropic', baseUrl: 'http://up', apiKey: 'k' } },
    models: { 'gpt-alias': { upstream: 'o', model: 'gpt-real' }, 'claude-alias': { upstream: 'a', model: 'claude-real' } },
  };
  const without = (d: Registry['chatCallers'][keyof Registry['chatCallers']]) => ({ ...d, forward: undefined });
  const reg: Registry = mode === 'forward' ? registry : { ...registry, chatCallers: { ...registry.chatCallers, 'openai-chat': without(registry.chatCallers['openai-chat']), anthropic: without(registry.chatCallers.anthropic) } };
  const proxy = createProxy({ config: parseConfig(doc), registry: reg, fetch: async () => new Response(answer, { headers: { 'content-type': 'application/json' } }) });
  const model = caller === 'openai' ? 'gpt-alias' : 'claude-alias';
  const body =
    size === 'small'
      ? JSON.stringify({ model, max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] })
      : JSON.stringify(render(caller, conversation(size === '30KB' ? 30_000 : 300_000), model, false));
  const bytes = Buffer.from(body);
  const req = (): CallerRequest => ({
    method: 'POST',
    path: caller === 'openai' ? '/v1/chat/completions' : '/v1/messages',
    origin: 'http://proxy',
    headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
    query: {},
    bytes: async () => bytes,
    text: async () => body,
    onGone: () => {},
  });
  const n = size === 'small' ? 10_000 : size === '30KB' ? 2_000 : 300;
  const run = async (k: number) => {
    for (let i = 0; i < k; i++) {
      const r = await proxy.dispatch(req());
      if (r.status !== 200) throw new Error(`request failed: ${r.status} ${String(r.body).slice(0, 300)}`);
    }
  };
  await run(Math.ceil(n / 5));
  const t = process.cpuUsage();
  await run(n);
  const c = process.cpuUsage(t);
  return (c.user + c.system) / n;
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'forward' || mode === 'decode') {
  console.log(String(await measure(mode, rest.join(' ') as Case)));
} else {
  const runs = Number(mode ?? 5);
  const self = fileURLToPath(import.meta.url);
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  for (const which of CASES) {
    const got: Record<'forward' | 'decode', number[]> = { forward: [], decode: [] };
    for (let i = 0; i < runs; i++) {
      for (const m of i % 2 ? (['decode', 'forward'] as const) : (['forward', 'decode'] as const)) {
        got[m].push(Number(execFileSync(process.execPath, ['--import', 'tsx', self, m, ...which.split(' ')], { encoding: 'utf8' }).trim()));
      }
    }
    const f = median(got.forward);
    const d = median(got.decode);
    console.log(`${which}: forwarded ${f.toFixed(1)} µs CPU/request, decoded ${d.toFixed(1)} (${(f / d).toFixed(2)}×; median of ${runs})`);
  }
}
