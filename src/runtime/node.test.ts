import { describe, expect, it } from 'vitest';
import { heapFlag } from './node.ts';

describe('heapFlag: the heap growth npm start sets, unless the command line chose one', () => {
  it('sets 50 % by default, whatever other flags there are', () => {
    expect(heapFlag([])).toBe('--heap-growing-percent=50');
    expect(heapFlag(['--max-semi-space-size=8', '--enable-source-maps'])).toBe('--heap-growing-percent=50');
    expect(heapFlag(['--heap-growing-percentile=3'])).toBe('--heap-growing-percent=50');
  });

  it("leaves the command line's own growth alone, in any spelling V8 takes", () => {
    for (const argv of [['--heap-growing-percent=200'], ['--heap_growing_percent=100'], ['--inspect', '--heap-growing-percent', '300']]) {
      expect(heapFlag(argv), argv.join(' ')).toBeUndefined();
    }
  });
});
