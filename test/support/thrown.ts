/**
 * The ProxyError a call throws (a decoder's or checker's refusal), for tests that then look at its
 * message, param, code and status. The call must throw, and what it throws must be a ProxyError.
 */
import { expect } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';

export function proxyErrorOf(run: () => unknown): ProxyError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ProxyError);
    return e as ProxyError;
  }
  throw new Error('expected a ProxyError');
}
