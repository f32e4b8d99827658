/**
 * The small helpers of the Gemini dialect, through the translator: Vertex streamed argument
 * paths, which models need call signatures, cached and thought token counts, logprobs fields.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamEvent } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

/** The arguments a Vertex streamed call assembles from these partialArgs. */
function assembled(partials: unknown[][]): unknown {
  const d = gemini.createStreamDecoder(req, testContext());
  const events: StreamEvent[] = [];
  const chunk = (functionCall: unknown) => ({ data: JSON.stringify({ candidates: [{ content: { parts: [{ functionCall }] } }] }) });
  events.push(...d.push(chunk({ name: 'f', willContinue: true })));
  for (const p of partials) events.push(...d.push(chunk({ partialArgs: p, willContinue: true })));
  events.push(...d.push(chunk({})));
  const delta = events.find((e) => e.type === 'tool-call-delta');
  return delta && delta.type === 'tool-call-delta' ? JSON.parse(delta.argumentsDelta) : undefined;
}

describe('Vertex streamed arguments', () => {
  it('quoted keys with escapes, array slots created as arrays, null replaced by an object when a path goes through it', () => {
    expect(
      assembled([
        [{ jsonPath: "$['it\\'s']", stringValue: 'q' }],
        [{ jsonPath: '$.l[1]', numberValue: 5 }],
        [{ jsonPath: '$.n', nullValue: 'NULL_VALUE' }],
        [{ jsonPath: '$.n.inner', boolValue: false }],
      ]),
    ).toEqual({ "it's": 'q', l: [null, 5], n: { inner: false } });
  });

  it('a partial with no value, no path, a path not starting with $, or an unparsable path is skipped', () => {
    expect(assembled([[{ jsonPath: '$.x' }, { stringValue: 'v' }, { jsonPath: 'x', stringValue: 'v' }, { jsonPath: '$..x', stringValue: 'v' }, { jsonPath: '$', stringValue: 'v' }, { jsonPath: '$.ok', nullValue: 0 }]])).toEqual({ ok: null });
  });

  it('a continued string is appended; a value not marked to continue replaces it', () => {
    expect(
      assembled([
        [{ jsonPath: '$.s', stringValue: 'ab', willContinue: true }],
        [{ jsonPath: '$.s', stringValue: 'cd' }],
        [{ jsonPath: '$.s', stringValue: 'new' }],
      ]),
    ).toEqual({ s: 'new' });
    expect(assembled([[{ jsonPath: '$.s', stringValue: 'ab', willContinue: true }], [{ jsonPath: '$.s', stringValue: 'cd' }]])).toEqual({ s: 'abcd' });
  });
});
