import { describe, expect, it } from 'vitest';
import type { ChatRequest, Part, Warning } from '../../src/canonical/index.ts';
import { encodeInput } from './encode-input.ts';

const withToolResult = (content: Part[]): ChatRequest => ({
  model: 'm',
  system: [],
  stream: false,
  messages: [
    { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'run', arguments: '{}' }] },
    { role: 'user', content: [{ type: 'tool-result', callId: 'c1', content }] },
  ],
});

const outputOf = (req: ChatRequest) => {
  const warnings: Warning[] = [];
  const item = encodeInput(req, warnings).input.find((i) => i['type'] === 'function_call_output');
  return item?.['output'];
};

describe('tool results with several text parts', () => {
  it('keep their separation in the function_call_output string', () => {
    const out = outputOf(withToolResult([{ type: 'text', text: 'line one' }, { type: 'text', text: '```py\nprint(1)\n```' }]));
    expect(out).toBe('line one\n```py\nprint(1)\n```');
  });

  it('a single text part is sent as it is', () => {
    expect(outputOf(withToolResult([{ type: 'text', text: 'only' }]))).toBe('only');
  });
});
