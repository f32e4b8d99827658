/**
 * Any JSON a caller may send: decodeRequest lets only ProxyErrors escape (each naming a
 * parameter), and whatever it accepts, encodeRequest and the state rules can handle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { fixtureJson } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { encodeRequest } from './encode-request.ts';
import { interactionsState } from './state.ts';

/** Arbitrary JSON, biased towards Interactions-looking keys and types so validation paths get exercised. */
const key = fc.constantFrom('model', 'input', 'type', 'content', 'text', 'data', 'uri', 'mime_type', 'signature', 'summary', 'id', 'name', 'arguments', 'call_id', 'result', 'is_error', 'tools', 'parameters', 'generation_config', 'tool_choice', 'allowed_tools', 'mode', 'response_format', 'schema', 'system_instruction', 'stream', 'store', 'x');
const type = fc.constantFrom('text', 'image', 'audio', 'document', 'video', 'user_input', 'model_output', 'thought', 'function_call', 'function_result', 'google_search', 'function', 'google_search_call');
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.string(),
    type,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

const target = { name: 'g', model: 'gemini-3-flash-preview', options: {} };

/** Decode; when it is accepted, encode it too. Only a ProxyError naming a parameter may escape. */
function check(body: unknown): void {
  try {
    const { value } = decodeRequest({ body, headers: {}, params: {}, query: {} });
    const out = encodeRequest(value, target).value;
    expect(typeof out.body).toBe('string');
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    expect((e as ProxyError).param).toBeTruthy();
  }
  expect(() => interactionsState.references(body)).not.toThrow();
}

describe('robustness', () => {
  it('decodeRequest: arbitrary bodies', () => {
    fc.assert(fc.property(json, (body) => check(body)), { numRuns: 1500 });
  });

  it('decodeRequest: arbitrary inputs under a model', () => {
    fc.assert(fc.property(json, (input) => check({ model: 'm', input })), { numRuns: 1500 });
  });

  it('decodeRequest: mutations of a real request', () => {
    const base = fixtureJson('gemini-interactions', 'function-calling-stateless.request.json');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), json), { maxLength: 4 }), (edits) => {
        const body = structuredClone(base);
        for (const [n, v] of edits) {
          const steps = body.input as Array<Record<string, unknown>>;
          const step = steps[n % steps.length]!;
          const keys = Object.keys(step);
          step[keys[n % keys.length]!] = v;
        }
        check(body);
      }),
      { numRuns: 1000 },
    );
  });
});
