/**
 * The documentation is tested: every config example in README.md and docs/ loads with the real
 * config loader as pasted (a whole document, or a fragment of one — a ```json block opening with
 * `"field":` — inside a minimal document), with the `env:` variables it names set to dummy values
 * (a service-account key shaped like one for the Vertex AI credentials); and every relative link
 * resolves to a file (and, with a `#fragment`, to a heading of that file).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Each ```json block, with the nearest heading above it (for the test name). */
function jsonBlocks(text: string): Array<{ where: string; json: string }> {
  const out: Array<{ where: string; json: string }> = [];
  let heading = '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{2,4} /.test(line)) heading = line.replace(/^#+ /, '');
    if (line.trim() !== '```json') continue;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== '```'; i++) body.push(lines[i]!);
    out.push({ where: `${heading} #${out.filter((b) => b.where.startsWith(heading)).length + 1}`, json: body.join('\n') });
  }
  return out;
}

/** A dummy service-account key: what the loader checks (JSON, client_email, a PKCS#8 PEM). */
const DUMMY_SERVICE_ACCOUNT = JSON.stringify({
  type: 'service_account',
  client_email: 'proxy@my-proj.iam.gserviceaccount.com',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIdummy\n-----END PRIVATE KEY-----\n',
});

function dummyEnv(json: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [, name] of json.matchAll(/"env:([A-Za-z_][A-Za-z0-9_]*)"/g)) env[name!] = /SERVICE_ACCOUNT/.test(name!) ? DUMMY_SERVICE_ACCOUNT : `dummy-${name!.toLowerCase()}`;
  return env;
}

/** A fragment (`"telemetry": {…}`) inside the smallest document that loads. */
function asDocument(json: string): string {
  if (!json.trimStart().startsWith('"')) return json;
  return `{ "keys": ["k"], "upstreams": { "u": { "dialect": "openai", "baseUrl": "http://127.0.0.1:9/v1" } }, "models": { "*": { "upstream": "u" } }, ${json} }`;
}

const blocks = DOCS.flatMap((file) => jsonBlocks(read(file)).map((b) => ({ ...b, where: `${file}: ${b.where}` })));

/** GitHub's anchor for a heading: lowercased, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

describe('docs: every relative link resolves', () => {
  const links = DOCS.flatMap((file) =>
    [...read(file).replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((href) => !/^[a-z]+:/i.test(href))
      .map((href) => [file, href] as const),
  );

  it('finds the links (the index in the README among them)', () => {
    expect(links.some(([file, href]) => file === 'README.md' && href === 'docs/configuration.md')).toBe(true);
  });

  it.each(links)('%s → %s', (file, href) => {
    const [target, fragment] = href.split('#') as [string, string | undefined];
    const resolved = target ? path.join(path.dirname(path.join(ROOT, file)), target) : path.join(ROOT, file);
    expect(existsSync(resolved), `${href} from ${file}`).toBe(true);
    if (fragment && resolved.endsWith('.md')) {
      const anchors = [...readFileSync(resolved, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!));
      expect(anchors, `#${fragment} in ${target || file}`).toContain(fragment);
    }
  });
});

describe('docs: every config example loads as pasted', () => {
  it('has the providers examples: Vertex AI, Bedrock (SigV4 and API key), Azure (deployment, v1, Responses), the compatible hosts', () => {
    const providers = blocks.filter((b) => b.where.startsWith('docs/providers.md'));
    expect(providers.length).toBeGreaterThanOrEqual(8);
    const all = providers.map((b) => b.json).join('\n');
    for (const needle of ['"provider": "vertex"', '"provider": "bedrock"', '"apiKey": "env:AWS_BEARER_TOKEN_BEDROCK"', '"accessKeyId"', '"apiVersion": "2024-10-21"', '"dialect": "openai-responses"', '"provider": "mistral"']) {
      expect(all).toContain(needle);
    }
  });

  it.each(blocks.map((b) => [b.where, b.json] as const))('%s', (_where, json) => {
    const config = parseConfig(asDocument(json), dummyEnv(json));
    expect(Object.keys(config.upstreams).length).toBeGreaterThan(0);
    expect(config.exact.size + config.globs.length).toBeGreaterThan(0);
    // Pasted as is, it is protected: callers present the inbound key.
    expect(config.keys.length).toBeGreaterThan(0);
  });
});
