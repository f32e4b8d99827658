/**
 * A config's mistakes (`ConfigError`) and its `env:NAME` values: resolved from the environment
 * the runtime hands over, each one recorded (set or not), every unset one named at once.
 */

/** The environment a runtime hands over (`process.env`, a Worker's bindings). */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  /** What is wrong, without the `invalid config: ` the message starts with. */
  readonly detail: string;
  /** The variables of `env:` values that are not set, when that is what is wrong. */
  readonly unsetEnv: string[];
  constructor(detail: string, unsetEnv: string[] = []) {
    super(`invalid config: ${detail}`);
    this.name = 'ConfigError';
    this.detail = detail;
    this.unsetEnv = unsetEnv;
  }
}

/** An `env:NAME` value of the config: the variable, the field that names it, whether it is set. */
export interface EnvRef {
  name: string;
  path: string;
  set: boolean;
}

/** Resolves `env:NAME` values, recording each one it meets (set or not). */
export class EnvResolver {
  readonly refs: EnvRef[] = [];
  constructor(private readonly env: Env) {}

  resolve(value: string | undefined, path: string): string | undefined {
    if (value === undefined || !value.startsWith('env:')) return value;
    const name = value.slice(4);
    const resolved = this.env[name];
    const set = resolved !== undefined && resolved !== '';
    this.refs.push({ name, path, set });
    return set ? resolved : value;
  }

  headers(headers: Record<string, string>, path: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = this.resolve(value, `${path}.${name}`)!;
    return out;
  }

  /** Whether the value at `path` named a variable that is not set. */
  unset(path: string): boolean {
    return this.refs.some((r) => r.path === path && !r.set);
  }

  /** Every unset variable at once, each with the fields that name it. */
  missing(): ConfigError | undefined {
    const byName = new Map<string, string[]>();
    for (const r of this.refs) if (!r.set) byName.set(r.name, [...(byName.get(r.name) ?? []), r.path]);
    if (byName.size === 0) return undefined;
    const list = [...byName].map(([name, paths]) => `${name} (${paths.join(', ')})`).join(', ');
    return new ConfigError(`${byName.size === 1 ? 'environment variable' : 'environment variables'} not set: ${list}`, [...byName.keys()]);
  }
}
