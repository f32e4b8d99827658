/**
 * `npx tsx bench/translate.ts [--pairs gemini→anthropic,…] [--sizes 300KB,2MB] [--runs 5] [--phases]`:
 * the request side of translation in process, against the floor's own work on the same bytes.
 * Floor: UTF-8 decode, `JSON.parse`, `JSON.stringify`, UTF-8 encode (what bench/floor.ts does to
 * a request). Translated: UTF-8 decode, `JSON.parse`, the caller's `decodeRequest`, the
 * upstream's `encodeRequest` (which writes the JSON), UTF-8 encode. CPU (`process.cpuUsage`,
 * garbage collection included) per request; the two interleaved, medians of the runs. A quick
 * loop for the agent bench's "× floor" of translated requests, without sockets or processes.
 * `--phases` also times each step alone (wall clock, after a collection; GC of a step's garbage
 * may land in a later step). `--only floor` or `--only translated` runs one side alone.
 */
import { conversation, render, type Dialect } from './agent-bodies.ts';
import { registry, type UpstreamDialect } from '../translators/index.ts';
import { ByteParts } from '../src/kit/index.ts';
import type { ChatCaller, TranslateContext, UpstreamTarget } from '../translators/types.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const SIZES: Record<string, number> = { '30KB': 30_000, '300KB': 300_000, '2MB': 2_000_000 };
const COUNT: Record<string, number> = { '30KB': 200, '300KB': 30, '2MB': 6 };
const CALLERS: Dialect[] = ['anthropic', 'responses', 'gemini'];
const UPSTREAMS: Dialect[] = ['openai', 'anthropic', 'gemini', 'responses'];
const all = CALLERS.flatMap((c) => UPSTREAMS.filter((u) => u !== c).map((u) => `${c}→${u}`));
const pairs = arg('--pairs')?.split(',') ?? all;
const sizes = arg('--sizes')?.split(',') ?? Object.keys(SIZES);
const RUNS = Number(arg('--runs') ?? 5);
const phases = args.includes('--phases');
/** `--only floor|translated`: run one side alone (for a profile or `--trace-gc` of it). */
const only = arg('--only');

const CALLER_ID: Record<Dialect, keyof typeof registry.chatCallers> = { openai: 'openai-chat', anthropic: 'anthropic', gemini: 'gemini', responses: 'openai-responses' };
const UPSTREAM_ID: Record<Dialect, UpstreamDialect> = { openai: 'openai', anthropic: 'anthropic', gemini: 'gemini', responses: 'openai-responses' };
const HEADERS: Record<Dialect, Record<string, string>> = {
  openai: { 'content-type': 'application/json' },
  responses: { 'content-type': 'application/json' },
  anthropic: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
  gemini: { 'content-type': 'application/json' },
};
let n = 0;
const ctx: TranslateContext = { now: () => 1_700_000_000_000, newId: (p) => `${p}${++n}` };
const target: UpstreamTarget = { name: 'bench', model: 'real-model', apiKey: 'k', options: {} };
const gc = (globalThis as { gc?: () => void }).gc;

function floor(bytes: Buffer): number {
  return Buffer.from(JSON.stringify(JSON.parse(bytes.toString('utf8')))).byteLength;
}

function translate(caller: ChatCaller, up: Dialect, from: Dialect, bytes: Buffer): number {
  const body: unknown = JSON.parse(bytes.toString('utf8'));
  const params: Record<string, string> = from === 'gemini' ? { model: 'agent-model', method: 'generateContent' } : {};
  const decoded = caller.decodeRequest({ body, headers: HEADERS[from], params, query: {} }, ctx);
  const enc = registry.chatUpstreams[UPSTREAM_ID[up]].encodeRequest(decoded.value, target, ctx);
  return bodyBytes(enc.value.body);
}

/** The encoded body's UTF-8 length: a big body is already bytes in pieces (src/kit/json-body.ts). */
function bodyBytes(body: unknown): number {
  return body instanceof ByteParts ? body.byteLength : Buffer.from(body as string).byteLength;
}

function cpu(f: () => number, count: number): number {
  gc?.();
  const t = process.cpuUsage();
  for (let i = 0; i < count; i++) f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / count;
}

function timed<T>(f: () => T): [T, number] {
  const t = performance.now();
  const out = f();
  return [out, performance.now() - t];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`| pair | size | floor µs | translated µs | × floor |\n| --- | --- | --- | --- | --- |`);
for (const size of sizes) {
  const c = conversation(SIZES[size]!);
  for (const pair of pairs) {
    const [from, up] = pair.split('→') as [Dialect, Dialect];
    const caller = registry.chatCallers[CALLER_ID[from]];
    const bytes = Buffer.from(JSON.stringify(render(from, c, 'agent-model', false)));
    const count = COUNT[size]!;
    const fl: number[] = [];
    const tr: number[] = [];
    for (let i = 0; i < 2; i++) (floor(bytes), translate(caller, up, from, bytes)); // warm-up
    for (let r = 0; r < RUNS; r++) {
      fl.push(only === 'translated' ? 1 : cpu(() => floor(bytes), count));
      tr.push(only === 'floor' ? 1 : cpu(() => translate(caller, up, from, bytes), count));
    }
    const [f, t] = [median(fl), median(tr)];
    console.log(`| ${pair} | ${size} | ${f.toFixed(0)} | ${t.toFixed(0)} | **${(t / f).toFixed(2)}** |`);
    if (phases) {
      const steps: Record<string, number[]> = {};
      const add = (k: string, ms: number) => (steps[k] ??= []).push(ms);
      for (let r = 0; r < Math.max(RUNS, 5); r++) {
        gc?.();
        const [text, a] = timed(() => bytes.toString('utf8'));
        add('utf8 decode', a);
        const [body, b] = timed(() => JSON.parse(text) as unknown);
        add('JSON.parse', b);
        const params: Record<string, string> = from === 'gemini' ? { model: 'agent-model', method: 'generateContent' } : {};
        const [decoded, d] = timed(() => caller.decodeRequest({ body, headers: HEADERS[from], params, query: {} }, ctx));
        add('decodeRequest', d);
        const [enc, e] = timed(() => registry.chatUpstreams[UPSTREAM_ID[up]].encodeRequest(decoded.value, target, ctx));
        add('encodeRequest (with its JSON)', e);
        const [, g] = timed(() => bodyBytes(enc.value.body));
        add('utf8 encode', g);
        const [, h] = timed(() => JSON.stringify(body));
        add('(floor) JSON.stringify', h);
      }
      console.log(Object.entries(steps).map(([k, v]) => `    ${k} ${median(v).toFixed(2)} ms`).join('\n'));
    }
  }
}
