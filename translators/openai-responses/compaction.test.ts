import { decodeCompaction, type ChatRequest, type Compaction } from '../../src/canonical/index.ts';
import { describe, expect, it } from 'vitest';
import { testContext } from '../../test/support/fixtures.ts';
import { compacted, compactionTurn, compactionTurnFrames } from './compaction.ts';

type Data = Record<string, any>;

const made: Compaction = {
  summary: 'The user is refactoring auth.ts; tests pass.',
  origin: 'anthropic',
  model: 'claude-x',
  created: 1_700_000_123,
  usage: { inputTokens: 900, outputTokens: 60, totalTokens: 960, cachedInputTokens: 100 },
};

const req: ChatRequest = {
  model: 'caller-model',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Refactor auth.ts' }] }],
  stream: false,
};

const usageWire = { input_tokens: 900, input_tokens_details: { cached_tokens: 100, cache_write_tokens: 0 }, output_tokens: 60, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 960 };
const zeroUsage = { input_tokens: 0, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };

/** The one compaction item: our id, its carrier holding the summary and who wrote it. */
function expectCompactionItem(item: Data, id: string): void {
  expect(Object.keys(item).sort()).toEqual(['encrypted_content', 'id', 'type']);
  expect(item['id']).toBe(id);
  expect(item['type']).toBe('compaction');
  expect(decodeCompaction(item['encrypted_content'])).toEqual({ summary: made.summary, origin: 'anthropic' });
}

describe('compactionTurn', () => {
  it('a completed Response of the compaction model whose output is exactly the compaction item, with its usage', () => {
    const body = compactionTurn(made, req, testContext()) as Data;
    expect(body).toMatchObject({ id: 'resp_test0001', object: 'response', model: 'claude-x', created_at: 1_700_000_123, status: 'completed', usage: usageWire });
    expect(body['output']).toHaveLength(1);
    expectCompactionItem(body['output'][0], 'cmp_test0002');
  });

  it('without a usage, zeros', () => {
    const { usage: _, ...noUsage } = made;
    expect((compactionTurn(noUsage, req, testContext()) as Data)['usage']).toEqual(zeroUsage);
  });
});

describe('compactionTurnFrames', () => {
  // Made inside each test, so that the mutation run knows which tests reach the code.
  const run = () => {
    const frames = compactionTurnFrames(made, req, testContext());
    return { frames, data: frames.map((f) => JSON.parse(f.data) as Data) };
  };

  it('created, in progress, the item added and done, completed — numbered in order, each event named as its type', () => {
    const { frames, data } = run();
    const types = ['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed'];
    expect(frames.map((f) => f.event)).toEqual(types);
    expect(data.map((d) => d['type'])).toEqual(types);
    expect(data.map((d) => d['sequence_number'])).toEqual([0, 1, 2, 3, 4]);
  });

  it('the opening Response is in progress with no output; the item is the same added and done, at index 0', () => {
    const { data } = run();
    for (const d of data.slice(0, 2)) {
      expect(d['response']).toMatchObject({ id: 'resp_test0001', object: 'response', model: 'claude-x', created_at: 1_700_000_123, status: 'in_progress', output: [] });
      expect(d['response']).not.toHaveProperty('usage');
    }
    for (const d of data.slice(2, 4)) {
      expect(d['output_index']).toBe(0);
      expectCompactionItem(d['item'], 'cmp_test0002');
    }
  });

  it('the completed Response has the same id, the item as its one output and the usage', () => {
    const { data } = run();
    const done = data[4]!['response'] as Data;
    expect(done).toMatchObject({ id: 'resp_test0001', status: 'completed', usage: usageWire });
    expect(done['output']).toEqual([data[2]!['item']]);
  });

  it('without a usage, the completed Response reports zeros', () => {
    const { usage: _, ...noUsage } = made;
    const last = compactionTurnFrames(noUsage, req, testContext()).at(-1)!;
    expect(JSON.parse(last.data)['response']['usage']).toEqual(zeroUsage);
  });
});

describe('compacted (POST /responses/compact)', () => {
  const conversation: ChatRequest = {
    ...req,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Earlier summary' }], summary: true },
      { role: 'user', content: [{ type: 'text', text: 'Refactor auth.ts' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Running the tests.' }, { type: 'tool-call', id: 'call_1', name: 'shell', arguments: '{"cmd":"npm test"}' }] },
      { role: 'user', content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: 'ok' }] }, { type: 'text', text: 'Now the docs' }] },
    ],
  };

  it("a response.compaction: the caller's own user messages (no summary, no tool output, no assistant turn), then the item, and the usage", () => {
    const body = compacted(made, conversation, testContext()) as Data;
    expect(Object.keys(body).sort()).toEqual(['created_at', 'id', 'object', 'output', 'usage']);
    expect(body).toMatchObject({ id: 'resp_test0001', object: 'response.compaction', created_at: 1_700_000_123, usage: usageWire });
    const output = body['output'] as Data[];
    expect(output.slice(0, 2)).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Refactor auth.ts' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Now the docs' }] },
    ]);
    expect(output).toHaveLength(3);
    expectCompactionItem(output[2]!, 'cmp_test0002');
  });

  it('without a usage, zeros; with no user message, only the item', () => {
    const { usage: _, ...noUsage } = made;
    const body = compacted(noUsage, { ...req, messages: [{ role: 'assistant', content: [{ type: 'text', text: 'x' }] }] }, testContext()) as Data;
    expect(body['usage']).toEqual(zeroUsage);
    expect(body['output']).toHaveLength(1);
    expectCompactionItem(body['output'][0], 'cmp_test0002');
  });
});
