/** Test helpers for captured wire data in `translators/<dialect>/__fixtures__/`. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { createParser } from 'eventsource-parser';
import type { SseEvent } from '../../src/canonical/index.ts';

const root = fileURLToPath(new URL('../../translators/', import.meta.url));

/** Raw text of a fixture, e.g. `fixtureText('anthropic', 'stream-tool-use.sse')`. */
export function fixtureText(dialect: string, name: string): string {
  return readFileSync(`${root}${dialect}/__fixtures__/${name}`, 'utf8');
}

/** Parsed JSON of a fixture. */
export function fixtureJson<T = any>(dialect: string, name: string): T {
  return JSON.parse(fixtureText(dialect, name)) as T;
}

/** The SSE events of a text body, parsed by eventsource-parser as the proxy does. */
export function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e) => out.push({ event: e.event, data: e.data, ...(e.id ? { id: e.id } : {}) }),
  });
  parser.feed(text);
  return out;
}

/** The SSE events of a fixture file. */
export function fixtureSse(dialect: string, name: string): SseEvent[] {
  return parseSse(fixtureText(dialect, name));
}

export { EventSourceParserStream };

/** A deterministic TranslateContext for tests. */
export function testContext(start = 1_700_000_000_000) {
  let n = 0;
  return {
    now: () => start,
    newId: (prefix: string) => `${prefix}test${String(++n).padStart(4, '0')}`,
  };
}
