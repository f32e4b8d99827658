/**
 * The Dockerfile, without Docker (it cannot run here): its shape (multi-stage, production
 * dependencies only at run time, a non-root user, port 8787, a health check by Node on /health,
 * the compiled command on 0.0.0.0), every file it COPYs from the context exists and survives
 * .dockerignore, and the build stage's COPYs are enough: the same files, copied into an empty
 * directory as the Dockerfile copies them, build a dist/cli.js that starts and imports nothing
 * but Node's modules and production dependencies. The HEALTHCHECK
 * command itself runs against a live server and against a dead port.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, start, tsx } from './support/processes.ts';

const root = join(import.meta.dirname, '..');

interface Instruction {
  op: string;
  args: string;
}

/** Instructions with their continuation lines joined; comments and blank lines dropped. */
function parseDockerfile(text: string): Array<Instruction & { stage: number }> {
  const joined = text.replace(/\\\n/g, ' ');
  const out: Array<Instruction & { stage: number }> = [];
  let stage = -1;
  for (const line of joined.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(t);
    if (!m) continue;
    const op = m[1]!.toUpperCase();
    if (op === 'FROM') stage++;
    out.push({ op, args: m[2]!.trim(), stage });
  }
  return out;
}

/** .dockerignore patterns (the subset this repository uses: names, `*`, `**\/`) as one test. */
function ignoredBy(patterns: string[]): (path: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/(?<!\.)\*/g, '[^/]*')}$`));
  return (path) => {
    const parts = path.split('/');
    // A path is excluded when it or any folder above it matches.
    return parts.some((_, i) => res.some((re) => re.test(parts.slice(0, i + 1).join('/'))));
  };
}

const steps = parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const ignored = ignoredBy(
  readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#')),
);
const lastStage = Math.max(...steps.map((s) => s.stage));
const runtime = steps.filter((s) => s.stage === lastStage);
const build = steps.filter((s) => s.stage === 0);
const json = (args: string) => JSON.parse(args) as string[];

/** COPY from the build context (not --from): sources and destination. */
function contextCopies(stage: Instruction[]): Array<{ sources: string[]; dest: string }> {
  return stage
    .filter((s) => s.op === 'COPY' && !s.args.startsWith('--from'))
    .map((s) => {
      const words = s.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      return { sources: words.slice(0, -1), dest: words.at(-1)! };
    });
}

/** The files of the context under `path` that .dockerignore lets through. */
function contextFiles(path: string): string[] {
  const abs = join(root, path);
  if (!statSync(abs).isDirectory()) return ignored(path.replace(/\/$/, '')) ? [] : [path];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((p) => !ignored(p));
}

function contextFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

const work = join(root, '.tmp', `docker-context-${process.pid}`);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('Dockerfile', () => {
  it('builds in one stage and runs from another, on a Node slim image', () => {
    const froms = steps.filter((s) => s.op === 'FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(froms[0]!.args).toMatch(/\bAS build$/);
    const image = steps.find((s) => s.op === 'ARG' && s.args.startsWith('NODE_IMAGE='))?.args.split('=')[1];
    expect(image).toMatch(/^node:20[\w.-]*-slim$/);
    expect(build.some((s) => s.op === 'RUN' && /npm ci\b/.test(s.args))).toBe(true);
    expect(build.some((s) => s.op === 'RUN' && /npm run build\b/.test(s.args))).toBe(true);
  });

  it('runtime stage: production dependencies, dist/ from the build stage, non-root, 8787, /health by node', () => {
    const install = runtime.find((s) => s.op === 'RUN' && /npm ci\b/.test(s.args));
    expect(install?.args).toMatch(/--omit=dev/);
    const fromBuild = runtime.filter((s) => s.op === 'COPY' && s.args.startsWith('--from=build'));
    expect(fromBuild.map((s) => s.args.split(/\s+/)[1])).toEqual(expect.arrayContaining(['/app/dist/cli.js', '/app/dist/chunks/']));
    // Nothing of the sources or dev tooling in the final image.
    expect(contextCopies(runtime).flatMap((c) => c.sources)).not.toEqual(expect.arrayContaining(['src/', 'translators/', 'node_modules']));
    const user = runtime.filter((s) => s.op === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    // The user is set before the command runs, after every install step.
    expect(runtime.findIndex((s) => s.op === 'USER')).toBeGreaterThan(runtime.findIndex((s) => s.op === 'RUN'));
    expect(runtime.find((s) => s.op === 'EXPOSE')?.args).toBe('8787');
    const health = runtime.find((s) => s.op === 'HEALTHCHECK')!;
    expect(health.args).toMatch(/CMD \["node", "-e"/);
    expect(health.args).toContain('/health');
    const command = [...json(runtime.find((s) => s.op === 'ENTRYPOINT')!.args), ...json(runtime.find((s) => s.op === 'CMD')!.args)];
    expect(command).toEqual(['node', 'dist/cli.js', '--host', '0.0.0.0']);
  });

  it('every file it COPYs from the context exists and is not excluded by .dockerignore', () => {
    const sources = [...contextCopies(build), ...contextCopies(runtime)].flatMap((c) => c.sources);
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      expect(existsSync(join(root, src)), src).toBe(true);
      expect(contextFiles(src).length, `${src} is empty after .dockerignore`).toBeGreaterThan(0);
    }
    // Secrets and local state never reach the context.
    for (const p of ['.dev.vars', '.env', 'node_modules/x', 'dist/cli.js', '.tmp/x', '.git/config']) expect(ignored(p), p).toBe(true);
  });

  it("the build stage's COPYs are enough to build a dist/cli.js that starts", async () => {
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    for (const { sources, dest } of contextCopies(build)) {
      for (const src of sources) {
        for (const file of contextFiles(src)) {
          // `COPY a b ./` keeps names; `COPY dir/ dir/` copies the folder's contents into dest.
          const target = src.endsWith('/') ? join(work, dest, relative(src, file)) : join(work, dest, file.split('/').at(-1)!);
          mkdirSync(dirname(target), { recursive: true });
          cpSync(join(root, file), target);
        }
      }
    }
    expect(existsSync(join(work, 'translators', 'anthropic', '__fixtures__'))).toBe(false);
    // `npm ci` stands in as the repository's own node_modules.
    symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
    const compiled = await run(...tsx(join(work, 'scripts', 'build-cli.ts')), { cwd: work });
    expect(compiled.status, compiled.stderr).toBe(0);
    const r = await run(process.execPath, [join(work, 'dist', 'cli.js'), '--help'], { cwd: work });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: interlingua/);
    // What the built files import at run time is Node's own or a production dependency: the
    // runtime stage's `npm ci --omit=dev` has it.
    const deps = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
    const built = contextFilesUnder(join(work, 'dist')).map((f) => readFileSync(f, 'utf8')).join('\n');
    const bare = [...built.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([@a-z][^"']*)["']/g)].map((m) => m[1]!);
    expect(bare.length).toBeGreaterThan(0);
    for (const spec of new Set(bare)) expect(spec.startsWith('node:') || deps.includes(spec), spec).toBe(true);
  }, 60_000);

  it('its HEALTHCHECK command answers 0 for a live server and 1 for a dead port', async () => {
    const health = runtime.find((s) => s.op === 'HEALTHCHECK')!;
    const argv = json(health.args.slice(health.args.indexOf('CMD ') + 4));
    const cli = join(root, 'dist', 'cli.js');
    // The compiled CLI of this checkout (npm ci / npm run build made it); else the source via tsx.
    const cmd = existsSync(cli) ? [process.execPath, cli] : [process.execPath, '--import', 'tsx', join(root, 'src', 'runtime', 'cli.ts')];
    const server = start(cmd[0]!, [...cmd.slice(1), '--port', '0'], { env: { ...process.env, INTERLINGUA_CONFIG: '', HOST: '' } });
    const port = (await server.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1]!;
    const probe = async (p: string) => (await run(process.execPath, argv.slice(1), { env: { PORT: p }, timeoutMs: 10_000 })).status;
    expect(argv[0]).toBe('node');
    expect(await probe(port)).toBe(0);
    await server.stop();
    expect(await probe(port)).toBe(1);
  }, 30_000);
});
