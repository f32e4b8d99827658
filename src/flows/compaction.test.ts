import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../canonical/index.ts';
import { SUMMARY_PROMPT, summarisingRequest } from './compaction.ts';

const base: ChatRequest = {
  model: 'm',
  system: [{ type: 'text', text: 'You are a coding agent.' }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'Rename notes.txt' }] },
    { role: 'assistant', content: [{ type: 'reasoning', text: 'ls first', signature: { origin: 'anthropic', value: 'sig' } }, { type: 'tool-call', id: 'c1', name: 'exec_command', arguments: '{"cmd":"ls"}' }] },
    { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content: [{ type: 'text', text: 'notes.txt' }] }] },
  ],
  stream: true,
  streamUsage: true,
  compact: true,
  toolChoice: { type: 'required' },
  responseFormat: { type: 'json' },
};

describe('the summarising turn', () => {
  it('is the conversation as it is (signed reasoning kept), the instruction last in the user turn, not streamed', () => {
    const s = summarisingRequest(base);
    expect(s.system).toEqual(base.system);
    expect(s.messages.slice(0, 2)).toEqual(base.messages.slice(0, 2));
    expect(s.messages).toHaveLength(3);
    expect(s.messages[2]!.content).toEqual([...base.messages[2]!.content, { type: 'text', text: SUMMARY_PROMPT }]);
    expect(s.stream).toBe(false);
    expect(s).not.toHaveProperty('compact');
    expect(s).not.toHaveProperty('streamUsage');
    expect(s).not.toHaveProperty('responseFormat');
  });

  it('offers the tools the history calls, none to be called (Anthropic wants them defined)', () => {
    const s = summarisingRequest(base);
    expect(s.tools).toEqual([{ name: 'exec_command', parameters: { type: 'object' } }]);
    expect(s.toolChoice).toEqual({ type: 'none' });
    const own = summarisingRequest({ ...base, tools: [{ name: 'exec_command', description: 'd' }] });
    expect(own.tools).toEqual([{ name: 'exec_command', description: 'd' }]);
    const plain = summarisingRequest({ ...base, messages: [base.messages[0]!, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }] });
    expect(plain).not.toHaveProperty('tools');
    expect(plain).not.toHaveProperty('toolChoice');
    // After an assistant turn the instruction is a user turn of its own.
    expect(plain.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: SUMMARY_PROMPT }] });
  });

  it('an earlier summary stays its own turn: the instruction follows it', () => {
    const s = summarisingRequest({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'old summary' }], summary: true }] });
    expect(s.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'old summary' }], summary: true }, { role: 'user', content: [{ type: 'text', text: SUMMARY_PROMPT }] }]);
  });
});

describe('the request answered on its compaction', () => {
  const c = { summary: 'S', origin: 'gemini' as const, model: 'm', created: 1 };
  it('is the summary, then the new question as it came; tool results are left to the summary', async () => {
    const { compactedRequest } = await import('./compaction.ts');
    const ask: ChatRequest = { ...base, messages: [...base.messages, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: [{ type: 'text', text: 'Next?' }] }] };
    const r = compactedRequest(ask, c);
    expect(r.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'S' }], summary: true }, { role: 'user', content: [{ type: 'text', text: 'Next?' }] }]);
    expect(r.compacted).toBe(c);
    expect(r.system).toEqual(base.system);
    expect(compactedRequest(base, c).messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'S' }], summary: true }]);
  });
});
