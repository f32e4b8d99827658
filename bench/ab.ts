/**
 * A/B of the proxy itself at agent scale, for work on its hot paths: the raw node:http
 * passthrough, Interlingua built from a git revision (default HEAD) and Interlingua built from the
 * working tree, all three in the same run, their slices interleaved (the order rotates by round),
 * so that both versions are measured against the same raw passthrough on the same (shared, noisy)
 * machine. CPU per request (user and system), and per event for streams (marginal, 50 → N events).
 *
 * `npx tsx bench/ab.ts [--rev REV] [--pairs 'anthropic→anthropic,…'] [--sizes 30KB,2MB|none]
 * [--stream 2000|none] [--rounds 5] [--n30 150] [--only src/a.ts,src/b.ts] [--flags-before '…'] [--flags-after '…'] [--same] [--control]` (`--same`: both sides built
 * from the revision, to compare flags) (`--only`: the "after" side is the
 * revision with only these files taken from the working tree; `path=other` takes `other` as `path`)
 * (`--control`: the holding control, bench/holding-proxy.ts, as a fourth side of same-dialect
 * cases, and both versions' ratios to it: the same-dialect budget's measure).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { benchBundle } from '../scripts/node-bundle.ts';
import type { Dialect } from './agent-bodies.ts';
import { live, median, pin, proxyConfig, proxyReq, REPEATED_BODY_SETTINGS, SIZES, slice, start as startIn, upstreamReq, type Child } from './agent-harness.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, '.tmp', 'bench-ab');
const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : dflt;
};
const REV = arg('--rev', 'HEAD');
const PAIRS = arg('--pairs', 'anthropic→anthropic').split(',').map((p) => p.split('→') as [Dialect, Dialect]);
const sizes = arg('--sizes', '30KB,300KB,2MB').split(',').filter((s) => s in SIZES);
const STREAM = arg('--stream', '2000') === 'none' ? 0 : Number(arg('--stream', '2000'));
const ROUNDS = Number(arg('--rounds', '5'));
const ONLY = arg('--only', '').split(',').filter(Boolean);
/** Node flags for each side (e.g. the same build with another heap setting). */
const FLAGS_BEFORE = arg('--flags-before', '').split(' ').filter(Boolean);
const FLAGS_AFTER = arg('--flags-after', '').split(' ').filter(Boolean);
const COUNT: Record<string, number> = { '30KB': Number(arg('--n30', '150')), '300KB': 40, '2MB': 8 };
const STREAMS = { low: 20, high: 3 };
const CONTROL = args.includes('--control');

// ---------------------------------------------------------------------------------------------
// Bundles: the revision's source exported to .tmp/bench-ab/rev (node_modules linked), and ours.

async function bundles() {
  const rev = join(out, 'rev');
  rmSync(rev, { recursive: true, force: true });
  mkdirSync(rev, { recursive: true });
  execFileSync('sh', ['-c', `git -C '${root}' archive '${REV}' | tar -x -C '${rev}'`]);
  if (!existsSync(join(rev, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(rev, 'node_modules'));
  // The admin channel as in the working tree (what the stats carry), whatever the revision's.
  copyFileSync(join(root, 'bench', 'control.ts'), join(rev, 'bench', 'control.ts'));
  const common = benchBundle;
  await build({ ...common, entryPoints: { 'agent-mock': 'bench/agent-mock.ts', passthrough: 'bench/passthrough.ts', 'holding-proxy': 'bench/holding-proxy.ts' }, absWorkingDir: root, outdir: out });
  // `--only` files: the revision with just these files from the working tree (others' work in progress left out).
  let afterDir = args.includes('--same') ? rev : root;
  if (ONLY.length) {
    afterDir = join(out, 'only');
    rmSync(afterDir, { recursive: true, force: true });
    execFileSync('cp', ['-a', rev, afterDir]);
    for (const f of ONLY) {
      const [dest, from = dest] = f.split('=') as [string, string?];
      copyFileSync(join(root, from), join(afterDir, dest));
    }
  }
  await build({ ...common, entryPoints: { after: 'bench/proxy-entry.ts' }, absWorkingDir: afterDir, outdir: out });
  await build({ ...common, entryPoints: { before: 'bench/proxy-entry.ts' }, absWorkingDir: rev, outdir: out });
  return { afterDir, rev };
}

/** The repeated-body settings where that side's config knows them (a revision before the turn memo refuses its limits). */
const settingsFor = (dir: string) => (readFileSync(join(dir, 'src', 'config', 'schema.ts'), 'utf8').includes('turnMemoBytes') ? REPEATED_BODY_SETTINGS : {});

/** CPU µs per request, user and system apart. */
async function cpu(t: Child, r: Parameters<typeof slice>[1], n: number): Promise<{ user: number; sys: number }> {
  const { userUs, sysUs } = await slice(t, r, n);
  return { user: userUs, sys: sysUs };
}
const start = (file: string, argv: string[], core: number, flags: string[] = []) => startIn(out, file, argv, core, flags);

// ---------------------------------------------------------------------------------------------

process.on('SIGINT', () => (live.forEach((p) => p.kill()), process.exit(130)));
try {
  pin(process.pid, 1);
  const dirs = await bundles();
  const mock = await start('agent-mock.mjs', [], 1);
  const raw = await start('passthrough.mjs', [String(mock.port)], 0);
  const cfg = proxyConfig(mock.port);
  const before = await start('before.mjs', [proxyConfig(mock.port, settingsFor(dirs.rev))], 0, FLAGS_BEFORE);
  const after = await start('after.mjs', [proxyConfig(mock.port, settingsFor(dirs.afterDir))], 0, FLAGS_AFTER);
  const control = CONTROL ? await start('holding-proxy.mjs', [cfg], 0) : undefined;
  const sides = { raw, before, after, control: control ?? raw };
  type Side = keyof typeof sides;
  interface Case { label: string; sides: Side[]; run(side: Side): Promise<{ user: number; sys: number }> }
  const cases: Case[] = [];
  for (const [c, u] of PAIRS) {
    for (const s of sizes) {
      const pr = proxyReq(c, u, SIZES[s]!, false, 50);
      const rr = upstreamReq(u, SIZES[s]!, false, 50);
      cases.push({ label: `${c}→${u} ${s}`, sides: CONTROL && c === u ? ['raw', 'before', 'after', 'control'] : ['raw', 'before', 'after'], run: (side) => cpu(sides[side], side === 'raw' ? rr : pr, COUNT[s]!) });
    }
    if (STREAM) {
      const reqs = (n: number) => ({ p: proxyReq(c, u, 30_000, true, n), r: upstreamReq(u, 30_000, true, n) });
      const lo = reqs(50);
      const hi = reqs(STREAM);
      cases.push({
        label: `${c}→${u} per event (50→${STREAM})`,
        sides: ['raw', 'before', 'after'],
        run: async (side) => {
          const a = await cpu(sides[side], side === 'raw' ? lo.r : lo.p, STREAMS.low);
          const b = await cpu(sides[side], side === 'raw' ? hi.r : hi.p, STREAMS.high);
          return { user: (b.user - a.user) / (STREAM - 50), sys: (b.sys - a.sys) / (STREAM - 50) };
        },
      });
    }
  }
  // Warm-up: every case on every side.
  for (const k of cases) for (const side of k.sides) await k.run(side);
  const got = new Map<string, Record<Side, Array<{ user: number; sys: number }>>>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of cases) {
      const rec = got.get(k.label) ?? { raw: [], before: [], after: [], control: [] };
      got.set(k.label, rec);
      for (let i = 0; i < k.sides.length; i++) {
        const side = k.sides[(i + round) % k.sides.length]!;
        rec[side].push(await k.run(side));
      }
    }
    process.stderr.write(`  round ${round + 1}/${ROUNDS}\n`);
  }
  console.log(`\nrev ${REV} vs working tree; ${ROUNDS} rounds; CPU µs per request (per event for streams), medians; ratios are medians of per-round ratios to raw\n`);
  console.log(`| case | raw user+sys | before user+sys | after user+sys | before × raw | after × raw |${CONTROL ? ' control user+sys | before × control | after × control |' : ''}`);
  console.log(`| --- | --- | --- | --- | --- | --- |${CONTROL ? ' --- | --- | --- |' : ''}`);
  const f = (x: number) => x.toFixed(x < 100 ? 1 : 0);
  for (const [label, rec] of got) {
    const tot = (s: Side) => rec[s].map((x) => x.user + x.sys);
    const part = (s: Side) => `${f(median(rec[s].map((x) => x.user)))}+${f(median(rec[s].map((x) => x.sys)))}`;
    const ratio = (s: Side, to: Side = 'raw') => median(tot(s).map((x, i) => x / tot(to)[i]!)).toFixed(2);
    const held = CONTROL ? (rec.control.length ? ` ${part('control')} | ${ratio('before', 'control')} | ${ratio('after', 'control')} |` : ' | | |') : '';
    console.log(`| ${label} | ${part('raw')} | ${part('before')} | ${part('after')} | ${ratio('before')} | ${ratio('after')} |${held}`);
  }
  for (const c of [mock, raw, before, after, control]) c?.stop();
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  live.forEach((p) => p.kill());
}
