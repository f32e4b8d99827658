import { describe, expect, it } from 'vitest';
import { cacheControlWarnings } from './hints.ts';
import type { ChatRequest } from './chat.ts';

const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };
const eph = { ttl: '1h' as const };

describe('cacheControlWarnings', () => {
  it('is empty without markers', () => {
    expect(cacheControlWarnings(base)).toEqual([]);
  });
  it('finds markers on system, message parts, nested tool results and tools, once', () => {
    const dropped = [{ code: 'dropped', path: 'cache_control' }];
    expect(cacheControlWarnings({ ...base, system: [{ type: 'text', text: 's', cache: eph }] })).toEqual(dropped);
    const nested: ChatRequest = {
      ...base,
      messages: [{ role: 'user', content: [{ type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'r', cache: eph }] }] }],
    };
    expect(cacheControlWarnings(nested)).toEqual(dropped);
    expect(cacheControlWarnings({ ...base, tools: [{ name: 't', cache: eph }] })).toEqual(dropped);
  });
});
