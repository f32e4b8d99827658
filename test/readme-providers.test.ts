/**
 * Every config example under README.md's "## Providers" is a whole document a user can paste: each
 * ```json block there is loaded with the real config loader, with the `env:` variables it names
 * set to dummy values (a service-account key shaped like one for the Vertex AI credentials).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The text of one `## ` section, its subsections included. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no "${heading}" section`);
  const end = markdown.indexOf('\n## ', start + heading.length + 2);
  return markdown.slice(start, end < 0 ? undefined : end);
}

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

const blocks = jsonBlocks(section(README, '## Providers'));

describe('README "## Providers": every config example loads as pasted', () => {
  it('has the examples: Vertex AI, Bedrock (SigV4 and API key), Azure (deployment, v1, Responses), the compatible hosts', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const all = blocks.map((b) => b.json).join('\n');
    for (const needle of ['"provider": "vertex"', '"provider": "bedrock"', '"apiKey": "env:AWS_BEARER_TOKEN_BEDROCK"', '"accessKeyId"', '"apiVersion": "2024-10-21"', '"dialect": "openai-responses"', '"provider": "mistral"']) {
      expect(all).toContain(needle);
    }
  });

  it.each(blocks.map((b) => [b.where, b.json] as const))('%s', (_where, json) => {
    const config = parseConfig(json, dummyEnv(json));
    expect(Object.keys(config.upstreams).length).toBeGreaterThan(0);
    expect(config.exact.size + config.globs.length).toBeGreaterThan(0);
    // Pasted as is, it is protected: callers present the inbound key.
    expect(config.keys.length).toBeGreaterThan(0);
  });
});
