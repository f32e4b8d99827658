/**
 * `npm run bench:agent -- --growing [--runs N] [--pairs …] [--sizes 300KB,2MB]`: an agent's
 * conversation growing turn by turn. Each turn is the last one plus one assistant tool call and
 * its result (bench/agent-bodies.ts), sent by one caller in sequence, from about 300 KB or 2 MB
 * on. Every translated pair runs against the raw passthrough and the parse-and-re-serialise floor
 * (each sent the same turns in the upstream's dialect) and two Interlingua processes, one with the
 * turn memo (docs/performance.md "Translating only what changed") and one without it
 * (`limits.turnMemoBytes: 0`), interleaved: each process is sent the same turns in the same order,
 * a slice of SLICE turns at a time (the order of the four rotates by run), after WARM turns of
 * warm-up; CPU per turn from each process's own counters, ratios per run, medians over runs.
 */
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conversation, render, type Conversation, type Dialect } from './agent-bodies.ts';
import { HEADERS, median, pathOf, proxyConfig, SIZES, UPSTREAMS, type Child, type Req } from './agent-harness.ts';

const CALLERS: Dialect[] = ['anthropic', 'responses', 'gemini'];
const WARM = 3;

type Start = (file: string, argv: string[], core: number, execArgv?: string[]) => Promise<Child>;

/** The conversation's turns from about `bytes` on, `n` of them, each one tool call and its result longer. */
export function growingTurns(bytes: number, n: number): Conversation[] {
  const start = conversation(bytes).turns.length;
  const whole = conversation(bytes + n * 10_000);
  if (whole.turns.length < start + n) throw new Error(`not enough turns for ${n} more from ${bytes} bytes`);
  return Array.from({ length: n }, (_, k) => ({ ...whole, turns: whole.turns.slice(0, start + k) }));
}

export const req = (d: Dialect, model: string, c: Conversation, prefix = ''): Req => ({ path: `${prefix}${pathOf(d, model, false)}`, headers: HEADERS[d], body: Buffer.from(JSON.stringify(render(d, c, model, false))) });

function send(port: number, r: Req, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const q = http.request({ host: '127.0.0.1', port, path: r.path, method: 'POST', headers: { ...r.headers, 'content-length': String(r.body.byteLength) }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    q.on('error', reject);
    q.end(r.body);
  });
}

/** The turns `reqs` to `t` one after another: CPU per turn. */
async function turnsSlice(t: Child, reqs: readonly Req[]): Promise<number> {
  const before = await t.ask('gc');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (const r of reqs) {
    const status = await send(t.port, r, agent);
    if (status !== 200) throw new Error(`${r.path}: ${status}`);
  }
  const after = await t.ask('stats');
  agent.destroy();
  return (after.cpuUs - before.cpuUs) / reqs.length;
}

export async function growing(o: { out: string; args: string[]; start: Start; startFlags: string[]; runs: number; quick: boolean }): Promise<void> {
  const arg = (name: string) => {
    const i = o.args.indexOf(name);
    return i >= 0 ? o.args[i + 1] : undefined;
  };
  const slice: Record<string, number> = o.quick ? { '300KB': 8, '2MB': 3 } : { '300KB': 20, '2MB': 6 };
  const sizes = (arg('--sizes')?.split(',') ?? ['300KB', '2MB']).filter((s) => s in SIZES);
  const all = CALLERS.flatMap((c) => UPSTREAMS.filter((u) => u !== c).map((u) => [c, u] as [Dialect, Dialect]));
  const key = ([c, u]: [Dialect, Dialect]) => `${c}→${u}`;
  const pairs = arg('--pairs') ? all.filter((p) => arg('--pairs')!.split(',').includes(key(p))) : all;
  const mock = await o.start('agent-mock.mjs', [], 1);
  const base = await o.start('passthrough.mjs', [String(mock.port)], 0);
  const floor = await o.start('floor.mjs', [String(mock.port)], 0);
  const config = JSON.parse(proxyConfig(mock.port)) as Record<string, unknown>;
  const on = await o.start('proxy.mjs', [JSON.stringify(config)], 0, o.startFlags);
  const off = await o.start('proxy.mjs', [JSON.stringify({ ...config, limits: { turnMemoBytes: 0 } })], 0, o.startFlags);
  const rows = ['| pair (caller→upstream) | size | raw µs/turn | floor µs/turn | memo off µs/turn | memo on µs/turn | on × floor | on × raw | off × floor | budget ≤0.5× floor |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
  const results: Record<string, Record<string, number>> = {};
  for (const p of pairs) {
    const [caller, up] = p;
    for (const s of sizes) {
      const n = slice[s]!;
      const turns = growingTurns(SIZES[s]!, WARM + o.runs * n);
      const sides = {
        base: { t: base, reqs: turns.map((c) => req(up, `real-${up}`, c, '/e50')) },
        floor: { t: floor, reqs: turns.map((c) => req(up, `real-${up}`, c, '/e50')) },
        off: { t: off, reqs: turns.map((c) => req(caller, `agent-${up}-50`, c)) },
        on: { t: on, reqs: turns.map((c) => req(caller, `agent-${up}-50`, c)) },
      };
      const names = Object.keys(sides) as Array<keyof typeof sides>;
      for (const name of names) await turnsSlice(sides[name].t, sides[name].reqs.slice(0, WARM));
      const per: Record<string, number[]> = { base: [], floor: [], off: [], on: [], onFloor: [], onRaw: [], offFloor: [] };
      for (let run = 0; run < o.runs; run++) {
        const got: Record<string, number> = {};
        const from = WARM + run * n;
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + run) % names.length]!;
          got[name] = await turnsSlice(sides[name].t, sides[name].reqs.slice(from, from + n));
        }
        for (const k of names) per[k]!.push(got[k]!);
        per.onFloor!.push(got.on! / got.floor!);
        per.onRaw!.push(got.on! / got.base!);
        per.offFloor!.push(got.off! / got.floor!);
      }
      const m = Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)]));
      results[`${key(p)} ${s}`] = m;
      const kb = (sides.on.reqs[WARM]!.body.byteLength / 1000).toFixed(0);
      rows.push(`| ${key(p)} | ${s} (${kb} KB) | ${m.base!.toFixed(0)} | ${m.floor!.toFixed(0)} | ${m.off!.toFixed(0)} | ${m.on!.toFixed(0)} | **${m.onFloor!.toFixed(2)}** | ${m.onRaw!.toFixed(2)} | ${m.offFloor!.toFixed(2)} | ${m.onFloor! <= 0.5 ? 'met' : 'MISS'} |`);
      console.log(rows.at(-1));
    }
  }
  for (const c of [mock, base, floor, on, off]) c.stop();
  console.log(`\nGrowing conversations (one caller, each turn the last plus a tool call and its result; ${WARM} warm-up turns, then ${o.runs} interleaved slices per process; medians):\n`);
  console.log(rows.join('\n'));
  writeFileSync(join(o.out, 'agent-growing.json'), JSON.stringify({ runs: o.runs, quick: o.quick, results }, null, 2));
}
