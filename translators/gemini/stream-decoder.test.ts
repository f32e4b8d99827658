import { describe, expect, it } from 'vitest';
import type { ChatRequest, SseEvent, StreamEvent } from '../../src/canonical/index.ts';
import { fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const req: ChatRequest = { model: 'gemini-x', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: true };

function run(events: SseEvent[], r = req): StreamEvent[] {
  const d = gemini.createStreamDecoder(r, testContext());
  const out: StreamEvent[] = [];
  for (const e of events) out.push(...d.push(e));
  out.push(...d.finish());
  return out;
}
const fixture = (name: string, r = req) => run(fixtureSse('gemini', name), r);
const data = (...chunks: unknown[]): SseEvent[] => chunks.map((c) => ({ data: typeof c === 'string' ? c : JSON.stringify(c) }));
const types = (events: StreamEvent[]) => events.map((e) => e.type);

describe('stream decoder: fixtures', () => {
  it('stream-text-basic: one chunk with text and finish', () => {
    expect(fixture('stream-text-basic.sse')).toEqual([
      { type: 'message-start', id: '4HkhaaajEJaY0-kPyI_b2A4', model: 'gemini-2.5-flash', created: 1_700_000_000 },
      { type: 'text-start' },
      { type: 'text-delta', text: '1, 2, 3' },
      { type: 'text-end' },
      { type: 'usage', usage: { inputTokens: 8, outputTokens: 30, totalTokens: 38, reasoningTokens: 23 } },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
    ]);
  });

  it('stream-finish-max-tokens: cumulative usage becomes one final usage event', () => {
    const events = fixture('stream-finish-max-tokens.sse');
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-delta', 'text-delta', 'text-end', 'usage', 'finish']);
    expect(events.at(-2)).toEqual({ type: 'usage', usage: { inputTokens: 7, outputTokens: 198, totalTokens: 205, reasoningTokens: 45 } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: { unified: 'length', raw: 'MAX_TOKENS' } });
  });

  it('stream-gemini3-text-thought-signature: the empty-text signature part closes the text block with it', () => {
    const events = fixture('stream-gemini3-text-thought-signature.sse');
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-delta', 'text-end', 'usage', 'finish']);
    expect(events[4]).toEqual({ type: 'text-end', signature: { origin: 'gemini', value: expect.stringMatching(/^EqsFCqgFAb4/) } });
  });

  it('stream-gemini3-tool-call: whole call with its signature, then an unsigned empty text part', () => {
    const events = fixture('stream-gemini3-tool-call.sse', { ...req, messages: [...req.messages, ...req.messages] });
    expect(events.slice(1)).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_2_0', name: 'weather', signature: { origin: 'gemini', value: expect.stringMatching(/^EpEgCo4gAb4/) } },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"location":"San Francisco"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'usage', usage: { inputTokens: 29, outputTokens: 819, totalTokens: 848, reasoningTokens: 804 } },
      { type: 'finish', reason: { unified: 'tool-calls', raw: 'STOP' } },
    ]);
  });

  it('stream-tool-call-thought-signature', () => {
    const events = fixture('stream-tool-call-thought-signature.sse');
    expect(types(events)).toEqual(['message-start', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'usage', 'finish']);
    expect(events[2]).toEqual({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"location":"Tokyo"}' });
  });

  it('stream-function-call-no-index and multi-turn-after-function-call: candidate index absent', () => {
    const a = fixture('stream-function-call-no-index.sse');
    expect(a[1]).toEqual({ type: 'tool-call-start', index: 0, id: 'call_1_0', name: 'customDivide' });
    expect(a[2]).toEqual({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"denominator":2,"numerator":100}' });
    expect(a.at(-1)).toEqual({ type: 'finish', reason: { unified: 'tool-calls', raw: 'STOP' } });
    const b = fixture('multi-turn-after-function-call.sse');
    expect(b[2]).toEqual({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"denominator":2,"numerator":50}' });
  });

  it('stream-tool-result-followup: multibyte text', () => {
    const events = fixture('stream-tool-result-followup.sse');
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(text).toBe('今日の東京の天気は曇りで、気温は22度です。\n');
    expect(events.at(-2)).toEqual({ type: 'usage', usage: { inputTokens: 138, outputTokens: 15, totalTokens: 153 } });
  });

  it('vertex streamed args: thought block, whole call, then three assembled partialArgs calls', () => {
    const events = fixture('vertex-stream-thought-parallel-streamed-args.sse');
    expect(types(events)).toEqual([
      'message-start',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      ...['tool-call-start', 'tool-call-delta', 'tool-call-end'],
      ...['tool-call-start', 'tool-call-delta', 'tool-call-end'],
      ...['tool-call-start', 'tool-call-delta', 'tool-call-end'],
      ...['tool-call-start', 'tool-call-delta', 'tool-call-end'],
      'usage',
      'finish',
    ]);
    const calls = events.filter((e) => e.type === 'tool-call-start').map((e) => (e.type === 'tool-call-start' ? [e.id, e.name] : []));
    expect(calls).toEqual([
      ['call_1_0', 'read_theme'],
      ['call_1_1', 'read_screen'],
      ['call_1_2', 'read_screen'],
      ['call_1_3', 'read_screen'],
    ]);
    const args = events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.argumentsDelta] : []));
    expect(args).toEqual(['{}', '{"id":"A"}', '{"id":"B"}', '{"id":"C"}']);
    expect(events.at(-2)).toEqual({ type: 'usage', usage: { inputTokens: 249, outputTokens: 241, totalTokens: 490, reasoningTokens: 183 } });
  });

  it('stream-candidate-prohibited-content', () => {
    const events = fixture('stream-candidate-prohibited-content.sse');
    expect(events.slice(1)).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'No' },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'content-filter', raw: 'PROHIBITED_CONTENT' } },
    ]);
  });

  it('stream-prompt-blocked-prohibited-content → usage + prompt-blocked', () => {
    expect(fixture('stream-prompt-blocked-prohibited-content.sse').slice(1)).toEqual([
      { type: 'usage', usage: { inputTokens: 4438, outputTokens: 0, totalTokens: 4438 } },
      { type: 'prompt-blocked', reason: 'PROHIBITED_CONTENT' },
    ]);
  });

  it('stream-malformed-function-call-finish-message → an error event (never a clean finish)', () => {
    const events = fixture('stream-malformed-function-call-finish-message.sse').slice(1);
    expect(events[0]).toEqual({ type: 'usage', usage: { inputTokens: 130, outputTokens: 0, totalTokens: 130 } });
    expect(events).toHaveLength(2);
    const e = events[1]!;
    expect(e.type).toBe('error');
    if (e.type === 'error') {
      expect(e.error.kind).toBe('upstream');
      expect(e.error.code).toBe('MALFORMED_FUNCTION_CALL');
      expect(e.error.message).toContain('MALFORMED_FUNCTION_CALL');
      expect(e.error.message).toContain("print(default_api.create(name='test'))");
    }
    expect(events.some((x) => x.type === 'finish')).toBe(false);
  });
});

describe('stream decoder: edge cases', () => {
  it('text after thought parts opens a new block', () => {
    const events = run(
      data(
        { candidates: [{ content: { parts: [{ text: 'hmm', thought: true }] } }] },
        { candidates: [{ content: { parts: [{ text: 'answer' }] } }] },
        { candidates: [{ content: { parts: [{ text: 'more thought', thought: true }] }, finishReason: 'STOP' }] },
      ),
    );
    expect(types(events).slice(1)).toEqual([
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-end',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'finish',
    ]);
  });

  it('an error chunk → error event with the status kept', () => {
    const events = run(data({ error: { code: 429, message: 'slow down', status: 'RESOURCE_EXHAUSTED' } }));
    expect(events).toHaveLength(1);
    const e = events[0]!;
    expect(e.type).toBe('error');
    if (e.type === 'error') {
      expect(e.error.kind).toBe('rate-limit');
      expect(e.error.status).toBe(429);
      expect(e.error.message).toBe('slow down');
    }
  });

  it('unparsable JSON → one upstream error event, never a throw, then silence', () => {
    const events = run(data('{"candidates": [', 'null', { candidates: [{ content: { parts: [{ text: 'late' }] }, finishReason: 'STOP' }] }));
    expect(events.map((e) => (e.type === 'error' ? e.error.kind : e.type))).toEqual(['upstream']);
  });

  it('a stream cut short closes its blocks, then reports that it ended early (no invented finish)', () => {
    const events = run(data({ candidates: [{ content: { parts: [{ text: 'partial' }] } }] }));
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-end', 'error']);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', message: expect.stringContaining('ended before it was complete') } });
  });

  it.each(['{"hello":"world"}', '[]', '5', '{"candidates":"x"}', '{"candidates":[5]}', '{"responseId":"r"}'])(
    'a chunk of the wrong shape (%s) is an error event, then silence',
    (bad) => {
      const events = run(data(bad, { candidates: [{ content: { parts: [{ text: 'late' }] }, finishReason: 'STOP' }] }));
      expect(types(events)).toEqual(['error']);
      expect(events[0]).toMatchObject({ error: { kind: 'upstream', message: expect.stringContaining('not a GenerateContentResponse') } });
    },
  );

  it('a usage-only or prompt-blocked chunk is a response chunk; a blocked prompt is complete', () => {
    const usage = { usageMetadata: { promptTokenCount: 1, totalTokenCount: 1 } };
    expect(types(run(data(usage, { promptFeedback: { blockReason: 'SAFETY' } })))).toEqual(['message-start', 'usage', 'prompt-blocked']);
  });

  it('every candidate needs its finishReason', () => {
    const events = run(
      data({
        candidates: [
          { content: { parts: [{ text: 'a' }] }, index: 0, finishReason: 'STOP' },
          { content: { parts: [{ text: 'b' }] }, index: 1 },
        ],
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { message: expect.stringContaining('no finishReason') } });
  });

  it('two candidates stream side by side with their own blocks and call indexes', () => {
    const events = run(
      data({
        candidates: [
          { content: { parts: [{ text: 'a' }] }, index: 0, finishReason: 'STOP' },
          { content: { parts: [{ functionCall: { name: 'f', args: {} } }] }, index: 1, finishReason: 'STOP' },
        ],
      }),
    );
    expect(events.slice(1)).toEqual([
      { type: 'text-start' },
      { type: 'text-delta', text: 'a' },
      { type: 'tool-call-start', choice: 1, index: 0, id: 'call_1_c1_0', name: 'f' },
      { type: 'tool-call-delta', choice: 1, index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', choice: 1, index: 0 },
      { type: 'text-end' },
      { type: 'finish', reason: { unified: 'stop', raw: 'STOP' } },
      { type: 'finish', choice: 1, reason: { unified: 'tool-calls', raw: 'STOP' } },
    ]);
  });

  it('nested and numeric partialArgs paths are assembled', () => {
    const events = run(
      data(
        { candidates: [{ content: { parts: [{ functionCall: { name: 'g', willContinue: true } }] } }] },
        {
          candidates: [
            {
              content: {
                parts: [
                  {
                    functionCall: {
                      partialArgs: [
                        { jsonPath: '$.q.text', stringValue: 'hel', willContinue: true },
                        { jsonPath: '$.n', numberValue: 3 },
                        { jsonPath: "$['flag']", boolValue: true },
                        { jsonPath: '$.list[0]', nullValue: 'NULL_VALUE' },
                      ],
                      willContinue: true,
                    },
                  },
                ],
              },
            },
          ],
        },
        { candidates: [{ content: { parts: [{ functionCall: { partialArgs: [{ jsonPath: '$.q.text', stringValue: 'lo' }] } }] }, finishReason: 'STOP' }] },
      ),
    );
    expect(events.find((e) => e.type === 'tool-call-delta')).toEqual({
      type: 'tool-call-delta',
      index: 0,
      argumentsDelta: '{"q":{"text":"hello"},"n":3,"flag":true,"list":[null]}',
    });
  });
});

describe('gemini stream parts the fixtures do not show', () => {
  const cand = (parts: unknown[], finishReason?: string) => ({ candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }], responseId: 'r', modelVersion: 'gemini-x' });

  it('code execution parts stream as fenced text; empty frames and [DONE] say nothing', () => {
    const events = run(data(cand([{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }, { executableCode: {} }, { codeExecutionResult: {} }]), cand([{ text: 'done' }], 'STOP'), '', '[DONE]'));
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual(['```python\nprint(1)\n```', '\n```output\n1\n```', '\n```python\n\n```', '\n```output\n\n```', '\ndone']);
    expect(types(events)).toEqual(['message-start', 'text-start', 'text-delta', 'text-delta', 'text-delta', 'text-delta', 'text-delta', 'text-end', 'finish']);
  });

  it('a fence gets its own lines: a break between code parts and the text around them, unless one ends the text already', () => {
    const deltas = (parts: unknown[]) =>
      run(data(cand(parts, 'STOP'))).flatMap((e) => (e.type === 'text-delta' || e.type === 'reasoning-delta' ? [`${e.type[0]}:${e.text}`] : e.type === 'text-start' || e.type === 'reasoning-start' ? ['|'] : []));
    expect(deltas([{ text: 'Let me run' }, { executableCode: { language: 'PYTHON', code: 'x' } }, { text: 'so' }, { text: ' 2' }])).toEqual(['|', 't:Let me run', 't:\n```python\nx\n```', 't:\nso', 't: 2']);
    expect(deltas([{ text: 'Run:\n' }, { codeExecutionResult: { output: '1' } }, { text: '\nok' }, { executableCode: { language: 'LANGUAGE_UNSPECIFIED', code: 'z' } }])).toEqual([
      '|',
      't:Run:\n',
      't:```output\n1\n```',
      't:\n\nok',
      't:\n```\nz\n```',
    ]);
    // a block closed by a signature starts the next one afresh; a thought block is a block of its own
    expect(deltas([{ text: 'a', thoughtSignature: 'S' }, { executableCode: { code: 'y' } }, { text: 'b', thought: true }, { codeExecutionResult: { output: '2' }, thought: true }])).toEqual([
      '|',
      't:a',
      '|',
      't:```python\ny\n```',
      '|',
      'r:b',
      'r:\n```output\n2\n```',
    ]);
  });

  it('a signature on a part with no stream event (inline data) still closes a signed block', () => {
    const events = run(data(cand([{ inlineData: { mimeType: 'image/png', data: 'x' }, thoughtSignature: 'SIG' }, { text: 'a' }], 'STOP')));
    expect(events.slice(1, 3)).toEqual([{ type: 'reasoning-start' }, { type: 'reasoning-end', signature: { origin: 'gemini', value: 'SIG' } }]);
  });

  it('MALFORMED_FUNCTION_CALL without a message fails the stream with a fixed detail', () => {
    const events = run(data(cand([], 'MALFORMED_FUNCTION_CALL')));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { kind: 'upstream', code: 'MALFORMED_FUNCTION_CALL', message: 'Upstream stopped with MALFORMED_FUNCTION_CALL: the model produced an invalid response.' } });
  });
});
