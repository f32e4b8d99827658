import { describe, expect, it } from 'vitest';
import { joinUrl } from './index.ts';

describe('joinUrl', () => {
  it('appends the dialect path to the base, with or without a trailing slash', () => {
    expect(joinUrl('https://api.openai.com/v1', '/chat/completions')).toBe('https://api.openai.com/v1/chat/completions');
    expect(joinUrl('https://api.anthropic.com/', '/v1/messages?beta=true')).toBe('https://api.anthropic.com/v1/messages?beta=true');
  });

  it('never mangles a base that carries a query: the path goes before it, queries merge', () => {
    expect(joinUrl('https://res.example/openai?api-version=2024-10-21', '/chat/completions')).toBe('https://res.example/openai/chat/completions?api-version=2024-10-21');
    expect(joinUrl('https://g.example/x?key=v', '/v1beta/models/m:streamGenerateContent?alt=sse')).toBe('https://g.example/x/v1beta/models/m:streamGenerateContent?key=v&alt=sse');
  });
});
