/**
 * The official Python SDKs as callers: a virtualenv under .tmp/py with exactly the versions
 * test/python/requirements.txt pins (.ci/run makes it; a test run makes it too when it is
 * missing), and a runner for the scripts in test/python/ (spec as JSON on stdin, one JSON line per
 * case on stdout). When the venv cannot be made, `ensurePython` throws and says what is missing:
 * the suites that need it fail, they never skip.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, start, type RunResult } from './processes.ts';

export const PYTHON_DIR = join(ROOT, 'test', 'python');
const REQUIREMENTS = join(PYTHON_DIR, 'requirements.txt');
const VENV = join(ROOT, '.tmp', 'py');
const PYTHON = join(VENV, 'bin', 'python');

/** `name==version` pins, in file order. */
function pins(): Array<[string, string]> {
  return readFileSync(REQUIREMENTS, 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map((l) => l.split('==') as [string, string]);
}

/** The installed version of each pinned distribution (undefined: not installed). */
async function installed(): Promise<Record<string, string | undefined>> {
  const names = pins().map(([n]) => n);
  const code = `import importlib.metadata as m, json, sys
out = {}
for n in sys.argv[1:]:
    try: out[n] = m.version(n)
    except m.PackageNotFoundError: out[n] = None
print(json.dumps(out))`;
  const r = await run(PYTHON, ['-c', code, ...names]);
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Record<string, string | undefined>;
}

async function matches(): Promise<boolean> {
  if (!existsSync(PYTHON)) return false;
  try {
    const have = await installed();
    return pins().every(([n, v]) => have[n] === v);
  } catch {
    return false;
  }
}

let ready: Promise<string> | undefined;

/**
 * The venv's python, with the pinned SDKs installed (made now if it is missing or differs). Throws
 * an error that names what is missing (python3, its venv module, pip's reach to the mirror).
 */
export function ensurePython(): Promise<string> {
  return (ready ??= (async () => {
    if (await matches()) return PYTHON;
    const tail = (r: RunResult) => (r.stderr || r.stdout).trim().split('\n').slice(-6).join('\n');
    const venv = await run('python3', ['-m', 'venv', VENV], { timeoutMs: 120_000 });
    if (venv.status !== 0) throw new Error(`The Python SDK tests need python3 with its venv module (to make ${VENV}); it failed:\n${tail(venv)}`);
    // --retries 0: an index this machine cannot reach fails fast instead of backing off for minutes.
    // pip reads the machine's own config (the package mirror lives in the user's pip.conf), not
    // the XDG_CONFIG_HOME a test run points inside the project for wrangler.
    const env = { ...process.env, XDG_CONFIG_HOME: process.env.INTERLINGUA_USER_XDG_CONFIG_HOME ?? (process.env.XDG_CONFIG_HOME?.startsWith(ROOT) ? '' : process.env.XDG_CONFIG_HOME) };
    const pip = await run(join(VENV, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '--retries', '0', '-r', REQUIREMENTS], { timeoutMs: 600_000, env });
    if (pip.status !== 0) throw new Error(`The Python SDK tests need pip to install ${pins().map((p) => p.join('==')).join(', ')} into ${VENV}; it failed:\n${tail(pip)}`);
    if (!(await matches())) throw new Error(`${VENV} does not hold the pinned SDKs (${REQUIREMENTS}): ${JSON.stringify(await installed())}`);
    return PYTHON;
  })());
}

export interface PythonCase {
  id: string;
  model: string;
  stream: boolean;
}

export type PythonResult = { id: string; text?: string; signatures?: Array<string | null>; error?: string; trace?: string };

/** Run test/python/<script>.py on `cases` against the proxy at `baseUrl`; one result per case. */
export async function runPython(script: string, baseUrl: string, apiKey: string, cases: PythonCase[]): Promise<Map<string, PythonResult>> {
  const python = await ensurePython();
  const p = start(python, [join(PYTHON_DIR, `${script}.py`)], { cwd: PYTHON_DIR, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, stdin: 'pipe' });
  p.child.stdin!.end(JSON.stringify({ base_url: baseUrl, api_key: apiKey, cases }));
  const timer = setTimeout(() => void p.stop('SIGKILL', 0), 240_000);
  const code = await p.exited;
  clearTimeout(timer);
  await p.stop('SIGKILL', 0);
  if (code !== 0) throw new Error(`${script}.py exited ${code}:\n${p.err().slice(-3000)}`);
  const stdout = p.out();
  const results = new Map<string, PythonResult>();
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as PythonResult;
    results.set(r.id, r);
  }
  return results;
}
