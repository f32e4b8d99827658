/** Hosted web tools through an Anthropic upstream: another dialect's written as Anthropic's, forced by name, the fetch beta. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, NativeTool } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import type { UpstreamTarget } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { encodeRequest } from './encode-request.ts';

const target: UpstreamTarget = { name: 'claude', model: 'claude-sonnet-4-5', apiKey: 'k', options: {} };
const base: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false };

function encode(req: Partial<ChatRequest>) {
  const { value, warnings } = encodeRequest({ ...base, ...req }, target, testContext());
  return { body: JSON.parse(value.body as string) as Record<string, any>, headers: value.headers, warnings };
}

const foreignFetch: NativeTool = { dialect: 'openai-responses', definition: { type: 'web_fetch' }, path: 'tools[1]', web: { kind: 'fetch', blockedDomains: ['x.com'], contextSize: 'low' } };
const foreignSearch: NativeTool = { dialect: 'gemini', definition: { googleSearch: {} }, web: { kind: 'search' } };

describe('anthropic upstream: hosted web tools', () => {
  it('another dialect’s web tools as Anthropic’s, losses reported at the caller’s path (or nativeTools[i])', () => {
    const { body, warnings } = encode({ nativeTools: [foreignSearch, foreignFetch] });
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search' },
      { type: 'web_fetch_20250910', name: 'web_fetch', blocked_domains: ['x.com'] },
    ]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools[1].contextSize' }]);
    const noPath = encode({ nativeTools: [foreignSearch, { ...foreignFetch, path: undefined }] });
    expect(noPath.warnings).toEqual([{ code: 'dropped', path: 'nativeTools[1].contextSize' }]);
  });

  it('another dialect’s built-in tool that is no web tool is dropped, reported by its path or index', () => {
    const { body, warnings } = encode({ nativeTools: [{ dialect: 'openai-responses', definition: { type: 'code_interpreter' } }] });
    expect(body).not.toHaveProperty('tools');
    expect(warnings).toEqual([{ code: 'dropped', path: 'nativeTools[0]', detail: 'code_interpreter', lossy: true }]);
  });

  it('an Anthropic caller’s own tools go as they came', () => {
    const own = { type: 'web_search_20250305', name: 'search_it', max_uses: 1 };
    expect(encode({ nativeTools: [{ dialect: 'anthropic', definition: own, web: { kind: 'search', maxUses: 1 } }] }).body.tools).toEqual([own]);
  });

  it('a forced web tool by the caller’s own tool name, else Anthropic’s default names', () => {
    const own: NativeTool = { dialect: 'anthropic', definition: { type: 'web_search_20250305', name: 'search_it' }, web: { kind: 'search' } };
    expect(encode({ nativeTools: [own], toolChoice: { type: 'web', kind: 'search' } }).body.tool_choice).toEqual({ type: 'tool', name: 'search_it' });
    expect(encode({ nativeTools: [own, foreignFetch], toolChoice: { type: 'web', kind: 'fetch' } }).body.tool_choice).toEqual({ type: 'tool', name: 'web_fetch' });
    expect(encode({ nativeTools: [foreignSearch], toolChoice: { type: 'web', kind: 'search' }, parallelToolCalls: false }).body.tool_choice).toEqual({ type: 'tool', name: 'web_search', disable_parallel_tool_use: true });
    const unnamed: NativeTool = { dialect: 'anthropic', definition: { type: 'web_search_20250305', name: 7 }, web: { kind: 'search' } };
    expect(encode({ nativeTools: [unnamed], toolChoice: { type: 'web', kind: 'search' } }).body.tool_choice).toEqual({ type: 'tool', name: 'web_search' });
  });

  it('a fetch from another dialect adds its beta once; Anthropic’s own fetch or a search adds none', () => {
    expect(encode({ nativeTools: [foreignFetch] }).headers['anthropic-beta']).toBe('web-fetch-2025-09-10');
    const withCaller = encode({ nativeTools: [foreignFetch], extras: { dialect: 'anthropic', fields: { 'anthropic-beta': ['web-fetch-2025-09-10', 'b-1'] } } });
    expect(withCaller.headers['anthropic-beta']).toBe('web-fetch-2025-09-10,b-1');
    expect(encode({ nativeTools: [foreignSearch] }).headers).not.toHaveProperty('anthropic-beta');
  });
});

describe('anthropic caller: hosted web tools and context editing decoded', () => {
  const H = { 'anthropic-version': '2023-06-01' };
  const decode = (body: Record<string, unknown>) => decodeRequest({ body: { model: 'c', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...body }, headers: H, params: {}, query: {} }).value;

  it('web tools are native tools with their neutral form; others have none', () => {
    const req = decode({ tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }, { type: 'bash_20250124', name: 'bash' }] });
    expect(req.nativeTools).toEqual([
      { dialect: 'anthropic', definition: { type: 'web_search_20250305', name: 'web_search', max_uses: 2 }, path: 'tools[0]', web: { kind: 'search', maxUses: 2 } },
      { dialect: 'anthropic', definition: { type: 'bash_20250124', name: 'bash' }, path: 'tools[1]' },
    ]);
  });

  it('tool_choice naming a web tool forces that web tool; naming another tool, that tool', () => {
    const tools = [{ type: 'web_fetch_20250910', name: 'web_fetch' }, { type: 'bash_20250124', name: 'bash' }];
    expect(decode({ tools, tool_choice: { type: 'tool', name: 'web_fetch' } }).toolChoice).toEqual({ type: 'web', kind: 'fetch' });
    expect(decode({ tools, tool_choice: { type: 'tool', name: 'bash' } }).toolChoice).toEqual({ type: 'tool', name: 'bash' });
    expect(decode({ tool_choice: { type: 'tool', name: 'web_fetch' } }).toolChoice).toEqual({ type: 'tool', name: 'web_fetch' });
  });

  it('context_management: its edits decoded, the raw kept for an Anthropic upstream, and sent back as it came', () => {
    const cm = { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] };
    const req = decode({ context_management: cm });
    expect(req.contextManagement).toEqual({ dialect: 'anthropic', edits: [{ type: 'clear-thinking', keep: 'all' }], raw: cm });
    expect(req.extras).toBeUndefined();
    expect(encode(req).body.context_management).toEqual(cm);
    expect(decode({ context_management: null }).contextManagement).toBeUndefined();
    expect(encode({ contextManagement: { dialect: 'openai-responses', edits: [], raw: { x: 1 } } as ChatRequest['contextManagement'] }).body).not.toHaveProperty('context_management');
  });

  it('a compaction block brought back: its summary the first user turn, the messages before it gone, paths as the caller counts them', () => {
    const req = decode({
      messages: [
        { role: 'user', content: 'old' },
        { role: 'assistant', content: [{ type: 'compaction', content: 'SUM' }] },
        { role: 'user', content: 'next' },
      ],
    });
    // The summary and the next user turn are one user turn, as consecutive same-role turns are.
    expect(req.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'SUM' }, { type: 'text', text: 'next' }], summary: true }]);
    expect(() => decode({ messages: [{ role: 'assistant', content: [{ type: 'compaction', content: 'S' }] }, { role: 'user', content: [] }, { role: 'assistant', content: 'x' }] })).toThrow(/^messages\.1: all messages must have non-empty content/);
  });
});
