import { describe, expect, it } from 'vitest';
import { parsedFields, peekJson } from '../kit/index.ts';
import { SESSION_FIELDS, sessionOfBody } from './session.ts';

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe('a request’s session identity', () => {
  const body = { model: 'm', prompt_cache_key: 'pck', metadata: { user_id: 'anthropic-user' }, user: 'openai-user' };

  it('first found wins: Claude Code’s header, Codex’s header, prompt_cache_key, metadata.user_id, user', () => {
    const both = { 'x-claude-code-session-id': 'claude-1', session_id: 'codex-1' };
    expect(sessionOfBody(both, body)).toBe('claude-1');
    expect(sessionOfBody({ session_id: 'codex-1' }, body)).toBe('codex-1');
    expect(sessionOfBody({}, body)).toBe('pck');
    expect(sessionOfBody({}, { ...body, prompt_cache_key: undefined })).toBe('anthropic-user');
    expect(sessionOfBody({}, { model: 'm', user: 'openai-user' })).toBe('openai-user');
    expect(sessionOfBody({}, { model: 'm' })).toBeUndefined();
  });

  it('takes only non-empty strings', () => {
    expect(sessionOfBody({ 'x-claude-code-session-id': '  ' }, { prompt_cache_key: '', metadata: { user_id: 7 }, user: ['x'] })).toBeUndefined();
    expect(sessionOfBody({}, null)).toBeUndefined();
    expect(sessionOfBody({}, [{ user: 'x' }])).toBeUndefined();
    expect(sessionOfBody({}, JSON.parse('{"__proto__": {"user": "inherited"}}'))).toBeUndefined();
  });

  it('reads a scanned body’s fields the same way, parsing only those', () => {
    for (const b of [body, { ...body, prompt_cache_key: undefined }, { model: 'm', user: 'u', messages: [{ role: 'user', content: 'x'.repeat(9000) }] }, { model: 'm' }]) {
      const flat = bytes(b);
      expect(sessionOfBody({}, parsedFields(flat, peekJson(flat)!, SESSION_FIELDS))).toBe(sessionOfBody({}, b));
    }
    expect(sessionOfBody({ session_id: 'codex' }, parsedFields(bytes(body), peekJson(bytes(body))!, SESSION_FIELDS))).toBe('codex');
  });
});
