/**
 * The house's shape (DESIGN.md "Layout", STYLE.md "Boundaries"), held by reading import specifiers:
 * which folder may import which, no flow reaching into another flow, and no import cycle; and no
 * function over 120 lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatDialects } from '../translators/index.ts';
import { functionLengths } from './support/function-lengths.ts';

const root = join(import.meta.dirname, '..');

function sources(dir: string, withTests = false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) {
      if (name !== '__fixtures__') out.push(...sources(path, withTests));
    } else if (name.endsWith('.ts') && (withTests || !name.endsWith('.test.ts'))) out.push(path);
  }
  return out;
}

interface Import {
  spec: string;
  /** `import type` / `export type`: erased when compiled, no runtime edge. */
  typeOnly: boolean;
  /** `import('…')`: loaded when first needed. */
  dynamic: boolean;
}

/** Comments out of the way (a `/* … *\/` block, a line that is a `//` comment), so prose never counts. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/**
 * Every module specifier a source names: `import … from`, `export … from`, side-effect
 * `import '…'`, and dynamic `import('…')`.
 */
function importsOf(source: string): Import[] {
  const text = withoutComments(source);
  const found: Array<Import & { at: number }> = [];
  for (const m of text.matchAll(/(?:^|[\n;])\s*(?:import|export)(\s+type)?\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g)) {
    found.push({ spec: m[2]!, typeOnly: !!m[1], dynamic: false, at: m.index });
  }
  for (const m of text.matchAll(/(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g)) found.push({ spec: m[1]!, typeOnly: false, dynamic: false, at: m.index });
  for (const m of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*[,)]/g)) found.push({ spec: m[1]!, typeOnly: false, dynamic: true, at: m.index });
  return found.sort((a, b) => a.at - b.at).map(({ spec, typeOnly, dynamic }) => ({ spec, typeOnly, dynamic }));
}

function imports(file: string): Import[] {
  return importsOf(readFileSync(join(root, file), 'utf8'));
}

function resolved(file: string, spec: string): string {
  return spec.startsWith('.') ? relative(root, join(root, file, '..', spec)) : spec;
}

/** Every project file's imports of other project files and packages, resolved. */
function edges(files: string[]): Array<{ from: string; to: string; typeOnly: boolean }> {
  return files.flatMap((f) => imports(f).map((i) => ({ from: f, to: resolved(f, i.spec), typeOnly: i.typeOnly })));
}

const allSources = () => [...sources('src'), ...sources('translators')];
const folderOf = (path: string) => (/^src\/([^/]+)\//.exec(path)?.[1] ?? (path === 'src/app.ts' ? 'app' : path.split('/')[0]!));

/**
 * What each src folder may import besides itself and packages: STYLE.md "Boundaries" (and for the
 * folders it does not list, DESIGN.md's layering). `src/kit` (bytes, JSON, HTTP, base64 machinery)
 * imports nothing of the project, and every folder may use it; `src/canonical` (the neutral model)
 * imports only the kit, and every folder may use it; `translators/types.ts` is the dialect contract
 * (types only), `translators/index.ts` the registry, never a dialect's internals. `app` and `http`
 * are one row in STYLE.md, so the app may use the http edge.
 */
const BASE = ['kit', 'canonical'];
const ALLOWED: Record<string, string[]> = {
  kit: [],
  canonical: ['kit'],
  config: BASE,
  observe: [...BASE, 'translators/types.ts'],
  sse: [...BASE, 'observe'],
  upstream: [...BASE, 'config', 'observe', 'sse', 'translators/types.ts'],
  flows: [...BASE, 'config', 'observe', 'sse', 'upstream', 'translators/types.ts', 'translators/index.ts'],
  http: [...BASE, 'config', 'observe', 'flows', 'translators/types.ts'],
  app: [...BASE, 'config', 'observe', 'flows', 'http', 'translators/types.ts', 'translators/index.ts'],
  runtime: [...BASE, 'config', 'app', 'demo'],
  // `interlingua demo`'s upstreams: the dialects' own encoders and the one SSE serializer.
  demo: [...BASE, 'sse', 'translators/types.ts', 'translators/index.ts'],
};

/** Each dialect's vendor: the one folder of shared wire code (translators/vendor/<v>/) it may import. */
const VENDOR_OF: Record<string, string | undefined> = {
  'openai-chat': 'openai',
  'openai-images': 'openai',
  'openai-embeddings': 'openai',
  'bedrock-embeddings': undefined,
  'openai-responses': 'openai',
  gemini: 'google',
  'gemini-interactions': 'google',
  anthropic: undefined,
};

/**
 * Edges that exist today although STYLE.md's table does not allow them, each named file to file
 * with its reason. A new edge of the same kind fails; an exception no longer used fails too, so
 * the list shrinks as code moves.
 */
const EXCEPTIONS: Array<{ from: string; to: string; why: string }> = [
  // The composition root builds what FlowDeps holds and hands the runtimes their stores.
  { from: 'src/app.ts', to: 'src/upstream/guarded-fetch.ts', why: 'builds the guarded media fetcher of FlowDeps' },
  { from: 'src/app.ts', to: 'src/upstream/state-scope.ts', why: 'binds the state store to callers (stateScopes) for FlowDeps: flows never get the store itself' },
  { from: 'src/app.ts', to: 'src/upstream/state-store.ts', why: 're-exports the memory and KV state stores for the runtime entries, which may only import app' },
  { from: 'src/app.ts', to: 'src/upstream/meter.ts', why: 'builds the meter the serve edge asks before an upstream call (limits) and after the request (cost)' },
  { from: 'src/app.ts', to: 'src/upstream/limits/counters.ts', why: 'the default limit counters (memory), and re-exports the counter stores for the runtime entries' },
  { from: 'src/app.ts', to: 'src/upstream/key-pool.ts', why: 'builds the key pools of FlowDeps (cooldowns, session pins) over the shared state store' },
  { from: 'src/app.ts', to: 'src/upstream/image-store.ts', why: 'builds the default image store of FlowDeps; the hosted-image route path (HOSTED_PREFIX) is the store\'s' },
  // The edge turns a streamed Reply into a Web Response body.
  { from: 'src/http/respond.ts', to: 'src/sse/byte-step.ts', why: 'a streamed Reply (PipeBody) becomes a Web stream (PipeBody.toStream)' },
  // The Node fast path: node:http straight to the route table, no Web Request/Response on the way.
  { from: 'src/runtime/node-server.ts', to: 'src/http/inbound.ts', why: 'builds the runtime-neutral CallerRequest from an IncomingMessage' },
  { from: 'src/runtime/node-server.ts', to: 'src/flows/reply.ts', why: 'writes a flow’s Reply (type) straight to the socket' },
  { from: 'src/runtime/node-server.ts', to: 'src/sse/byte-step.ts', why: 'drives the stream step (type) from the upstream sockets' },
  // The Responses WebSocket: every turn is a POST through the route table, its SSE answer read back into one message per event.
  { from: 'src/http/responses-socket.ts', to: 'src/sse/byte-step.ts', why: 'reads a streamed Reply (PipeBody.toStream) to send its events as messages' },
  { from: 'src/http/responses-socket.ts', to: 'src/sse/parse.ts', why: 'splits a turn’s SSE answer into its events, one message each' },
  { from: 'src/runtime/node-websocket.ts', to: 'src/flows/reply.ts', why: 'writes a refused upgrade’s Reply (type) straight to the socket' },
  { from: 'src/runtime/node-client.ts', to: 'src/http/inbound.ts', why: 'an oversized caller body read from the socket is the edge’s 413 (tooLarge)' },
  // The inspector (Node only, loaded when on): its routes sit before the app on node:http.
  { from: 'src/runtime/inspector.ts', to: 'src/observe/inspector/recorder.ts', why: 'builds the exchange recorder the app is handed as its inspector hook' },
  { from: 'src/runtime/inspector.ts', to: 'src/http/auth.ts', why: 'the inspector asks for the inbound key by the same check as every route' },
  { from: 'src/runtime/inspector.ts', to: 'src/http/inbound.ts', why: 'a replay is a CallerRequest dispatched through the app (dry-run)' },
  { from: 'src/runtime/inspector.ts', to: 'src/upstream/secrets.ts', why: 'redacts recorded exchanges with the one secret list' },
  { from: 'src/runtime/inspector.ts', to: 'src/upstream/resolve.ts', why: 'shows an exchange’s plan: the route’s targets and fallbacks' },
];

/** Flow plumbing any flow may use; the flows themselves may only call each other's entry points as listed. */
// (custom-tools, custom-input, image-chat and context-edits: the model-to-model transforms the flows apply.)
const FLOW_PLUMBING = new Set(['context.ts', 'plan.ts', 'upstream-answer.ts', 'reply.ts', 'image-calls.ts', 'state.ts', 'session.ts', 'custom-tools.ts', 'custom-input.ts', 'image-chat.ts', 'context-edits.ts']);
const FLOW_CALLS: Record<string, string[]> = {
  // The chat flow's own steps: forwarded, or decoded and made ready (which hands over to the flows that serve it), then called and answered.
  'chat.ts': ['forward/index.ts', 'chat-decoded.ts', 'chat-answer.ts'],
  'chat-decoded.ts': ['fan-out.ts', 'chat-to-images.ts', 'compaction.ts', 'web-search.ts'],
  'forward/index.ts': ['chat-to-images.ts'],
  // The search loop's own files (web-search.ts), and Codex's standalone search, which runs its searches alike.
  'web-search.ts': ['web-search-cite.ts', 'web-search-loop.ts', 'web-search-stream.ts'],
  'web-search-stream.ts': ['web-search-cite.ts', 'web-search-loop.ts', 'web-search-run.ts'],
  'web-search-loop.ts': ['web-search-run.ts'],
  'alpha-search.ts': ['web-search-run.ts'],
};
/** A flow in a folder of its own (`flows/forward/`): one entry (its index.ts), its other files its own. */
const flowFolder = (path: string) => /^([^/]+)\//.exec(path)?.[1];

/**
 * What every chat dialect folder holds (docs/architecture.md, Adding a dialect): the six
 * translation files, the wire types and errors, the setting names, the wiring and the dialect's
 * exceptions to the conformance suite.
 */
const DIALECT_CORE = ['index.ts', 'wire.ts', 'decode-request.ts', 'encode-request.ts', 'decode-response.ts', 'encode-response.ts', 'stream-decoder.ts', 'stream-encoder.ts', 'errors.ts', 'setting-names.ts', 'conformance-exceptions.ts'];
/** Each optional piece of the contract (translators/types.ts) and the one file it lives in, present exactly when the dialect has the piece. */
const DIALECT_PIECES: Record<string, string[]> = {
  'passthrough.ts': ['encodePassthrough', 'forwardRequest'],
  'model-list.ts': ['encodeModelList', 'encodeModelListRequest', 'decodeModelList'],
  'count-tokens.ts': ['encodeCountTokensResponse', 'encodeCountTokens', 'decodeCountTokens'],
};

/** Tests of a whole dialect rather than one of its files: its vendor's SDK reading what it writes, arbitrary input at every entry. */
const CROSS_CUTTING_TESTS = new Set(['sdk', 'robustness']);

describe('architecture', () => {
  it('kit imports nothing of the project; canonical only the kit', () => {
    for (const f of sources('src/kit')) {
      for (const { spec } of imports(f)) expect(resolved(f, spec), `${f} imports ${spec}`).toMatch(/^src\/kit\//);
    }
    for (const f of sources('src/canonical')) {
      for (const { spec } of imports(f)) expect(resolved(f, spec), `${f} imports ${spec}`).toMatch(/^src\/(canonical|kit)\//);
    }
  });

  it('a dialect imports only canonical, the kit, the contract, valibot, its vendor\'s folder and its own; a vendor folder only canonical, the kit, valibot and itself', () => {
    const dialects = readdirSync(join(root, 'translators')).filter((d) => statSync(join(root, 'translators', d)).isDirectory() && d !== 'vendor');
    expect(dialects.sort()).toEqual(Object.keys(VENDOR_OF).sort());
    for (const f of sources('translators')) {
      if (f === 'translators/index.ts' || f === 'translators/types.ts') continue;
      const [, folder, sub] = f.split('/');
      const own = folder === 'vendor' ? `translators/vendor/${sub}/` : `translators/${folder}/`;
      const vendor = folder === 'vendor' ? undefined : VENDOR_OF[folder!];
      for (const { spec } of imports(f)) {
        const r = resolved(f, spec);
        const ok =
          r === 'valibot' ||
          r.startsWith('src/canonical/') ||
          r.startsWith('src/kit/') ||
          r.startsWith(own) ||
          (folder !== 'vendor' && r === 'translators/types.ts') ||
          (vendor !== undefined && r.startsWith(`translators/vendor/${vendor}/`));
        expect(ok, `${f} imports ${spec}`).toBe(true);
      }
    }
  });

  it('no dialect folder, tests included, imports another dialect folder', () => {
    for (const f of sources('translators', true)) {
      const dialect = f.split('/')[1]!;
      if (!f.split('/')[2] || dialect === 'vendor') continue;
      for (const { spec } of imports(f)) {
        const other = /^translators\/([^/]+)\//.exec(resolved(f, spec))?.[1];
        if (other && other !== dialect && other !== 'vendor') expect.fail(`${f} imports ${spec}`);
      }
    }
  });

  it('reads every form of import: static, type-only, side-effect, dynamic, re-export', () => {
    const sample = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import {\n  c,\n  type C,\n} from './c.ts';",
      "import './d.ts';",
      "export * from './e.ts';",
      "export type { F } from './f.ts';",
      "const g = await import('./g.ts');",
      "// import { h } from './h.ts';",
      "/* import('./i.ts') */",
      "const s = 'not from here';",
    ].join('\n');
    expect(importsOf(sample)).toEqual([
      { spec: './a.ts', typeOnly: false, dynamic: false },
      { spec: './b.ts', typeOnly: true, dynamic: false },
      { spec: './c.ts', typeOnly: false, dynamic: false },
      { spec: './d.ts', typeOnly: false, dynamic: false },
      { spec: './e.ts', typeOnly: false, dynamic: false },
      { spec: './f.ts', typeOnly: true, dynamic: false },
      { spec: './g.ts', typeOnly: false, dynamic: true },
    ]);
  });

  it('each src folder imports only what STYLE.md allows, but for the named exceptions', () => {
    const bad: string[] = [];
    const used = new Set<string>();
    for (const { from, to } of edges(sources('src'))) {
      if (!to.startsWith('src/') && !to.startsWith('translators/')) {
        if (to.startsWith('node:') && folderOf(from) !== 'runtime') bad.push(`${from} → ${to} (only src/runtime may use Node)`);
        continue;
      }
      const src = folderOf(from);
      const dst = to.startsWith('translators/') ? to : folderOf(to);
      if (src === dst || (ALLOWED[src] ?? []).includes(dst)) continue;
      const exception = EXCEPTIONS.find((e) => e.from === from && e.to === to);
      if (exception) used.add(`${from} → ${to}`);
      else bad.push(`${from} → ${to}`);
    }
    expect(bad).toEqual([]);
    expect(EXCEPTIONS.map((e) => `${e.from} → ${e.to}`).filter((e) => !used.has(e)), 'exceptions no longer needed').toEqual([]);
  });

  it('packages stay in their rooms: Hono at the edge, eventsource-parser in sse (and a host’s own framing)', () => {
    const bad: string[] = [];
    for (const { from, to } of edges(sources('src'))) {
      if (/^hono(\/|$)/.test(to) && !['app', 'http', 'runtime'].includes(folderOf(from))) bad.push(`${from} → ${to}`);
      if (/^@hono\/node-server/.test(to) && folderOf(from) !== 'runtime') bad.push(`${from} → ${to}`);
      if (to === 'eventsource-parser' && !['sse', 'upstream'].includes(folderOf(from))) bad.push(`${from} → ${to}`);
    }
    expect(bad).toEqual([]);
  });

  it('no flow imports another flow, but for the entry points the chat flow hands over to', () => {
    const bad: string[] = [];
    for (const { from, to } of edges(sources('src/flows'))) {
      if (!to.startsWith('src/flows/')) continue;
      const [a, b] = [from.slice('src/flows/'.length), to.slice('src/flows/'.length)];
      if (flowFolder(b) !== undefined && flowFolder(b) === flowFolder(a)) continue;
      if (!FLOW_PLUMBING.has(b) && !(FLOW_CALLS[a] ?? []).includes(b)) bad.push(`${from} → ${to}`);
    }
    expect(bad).toEqual([]);
  });

  it('every chat dialect folder has the same file set: the core, and each optional piece in the file of its name', async () => {
    for (const d of chatDialects) {
      const dir = join(root, 'translators', d.id);
      const files = new Set(readdirSync(dir));
      for (const f of DIALECT_CORE) expect(files.has(f), `translators/${d.id}/${f}`).toBe(true);
      for (const [file, pieces] of Object.entries(DIALECT_PIECES)) {
        const has = pieces.filter((p) => (d as unknown as Record<string, unknown>)[p] !== undefined);
        expect(files.has(file), `translators/${d.id}/${file} (the dialect has ${has.join(', ') || 'none of ' + pieces.join(', ')})`).toBe(has.length > 0);
        if (has.length === 0) continue;
        const mod = (await import(`../translators/${d.id}/${file}`)) as Record<string, unknown>;
        for (const p of has) expect(typeof mod[p], `${p} in translators/${d.id}/${file}`).toBe('function');
      }
      // index.ts wires the pieces together: it defines no function of its own.
      const index = withoutComments(readFileSync(join(dir, 'index.ts'), 'utf8'));
      expect(index.match(/^\s*(export\s+)?(async\s+)?function\b.*$/gm) ?? [], `translators/${d.id}/index.ts`).toEqual([]);
    }
  });

  it('a dialect folder’s tests are named for what they test: a source file of the folder, or one aspect of it', () => {
    const bad: string[] = [];
    for (const dir of readdirSync(join(root, 'translators'))) {
      const folder = join(root, 'translators', dir);
      if (!statSync(folder).isDirectory() || dir === 'vendor') continue;
      const names = readdirSync(folder);
      const stems = names.filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).map((n) => n.slice(0, -3));
      for (const t of names.filter((n) => n.endsWith('.test.ts'))) {
        const stem = t.slice(0, -'.test.ts'.length);
        // (Why a test was written, `-edges`, `-more`, is no aspect.)
        const why = /-(edges|more|paths|details|misc|rest|other)$/.test(stem);
        if (!why && (CROSS_CUTTING_TESTS.has(stem) || stems.some((s) => stem === s || stem.startsWith(`${s}-`)))) continue;
        bad.push(`translators/${dir}/${t}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the fast path is one folder with one entry: nothing outside src/flows/forward/ imports another of its files', () => {
    const bad: string[] = [];
    for (const { from, to } of edges(allSources())) {
      if (to.startsWith('src/flows/forward/') && !from.startsWith('src/flows/forward/') && to !== 'src/flows/forward/index.ts') bad.push(`${from} → ${to}`);
    }
    expect(bad).toEqual([]);
    expect(readdirSync(join(root, 'src/flows')).filter((f) => /memo|forward|peek/.test(f))).toEqual(['forward']);
    expect(readdirSync(join(root, 'src/kit')).filter((f) => /memo|forward|peeked/.test(f))).toEqual([]);
  });

  /**
   * Type-only imports are left out: `import type` is erased when compiled (verbatimModuleSyntax),
   * so it never loads a module and cannot make one run before what it needs; a contract and its
   * user naming each other's types is no cycle at run time. They still count for the boundaries
   * above. Dynamic imports do load modules, so they count.
   */
  it('there is no import cycle among src/ and translators/ (type-only imports aside)', () => {
    const files = allSources();
    const known = new Set(files);
    const out = new Map(files.map((f) => [f, [] as string[]]));
    for (const { from, to, typeOnly } of edges(files)) {
      const target = known.has(to) ? to : known.has(`${to}.ts`) ? `${to}.ts` : undefined;
      if (target && !typeOnly) out.get(from)!.push(target);
    }
    // Tarjan's strongly connected components.
    let i = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const on = new Set<string>();
    const cycles: string[][] = [];
    const strong = (v: string) => {
      index.set(v, i);
      low.set(v, i++);
      stack.push(v);
      on.add(v);
      for (const w of out.get(v)!) {
        if (!index.has(w)) {
          strong(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) === index.get(v)) {
        const c: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          c.push(w);
        } while (w !== v);
        if (c.length > 1) cycles.push(c.sort());
      }
    };
    for (const f of files) if (!index.has(f)) strong(f);
    expect(cycles).toEqual([]);
  });

  it('the demo is loaded only when asked: by a dynamic import of the CLI, by no other file', () => {
    const into = allSources().flatMap((f) => (f.startsWith('src/demo/') ? [] : imports(f).filter((i) => resolved(f, i.spec).startsWith('src/demo/')).map((i) => ({ from: f, ...i }))));
    expect(into.map(({ from, dynamic, typeOnly }) => ({ from, dynamic: dynamic || typeOnly }))).toEqual([{ from: 'src/runtime/cli.ts', dynamic: true }]);
  });

  it('no function in src/ or translators/ is over 120 lines (STYLE.md; heuristic: test/function-lengths.test.ts)', () => {
    const long = allSources().flatMap((f) =>
      functionLengths(readFileSync(join(root, f), 'utf8'))
        .filter((fn) => fn.lines > 120)
        .map((fn) => `${f}:${fn.line} ${fn.name} (${fn.lines} lines)`),
    );
    expect(long).toEqual([]);
  });

  it('runtime entries never import translators', () => {
    for (const f of sources('src/runtime')) {
      for (const { spec } of imports(f)) expect(resolved(f, spec).startsWith('translators/'), `${f} imports ${spec}`).toBe(false);
    }
  });
});
