/**
 * Hostile upstream data: huge choice and tool-call indexes, absurd counts. Every decoder →
 * encoder pair must stay bounded (a sparse array indexed by a wire value would not).
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest, StreamFrame } from '../../src/canonical/index.ts';
import { chatDialects } from '../../translators/index.ts';
import { testContext } from '../support/fixtures.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [], stream: true, streamUsage: true };

const hostile: Record<string, string[]> = {
  'openai-chat': [
    JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 1_000_000_000, delta: { role: 'assistant', content: 'hi' }, finish_reason: null }] }),
    JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { tool_calls: [{ index: 2_000_000_000, id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, finish_reason: null }] }),
    JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: -5, delta: { content: 'neg' }, finish_reason: 'stop' }] }),
  ],
  anthropic: [
    JSON.stringify({ type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'm', content: [], usage: { input_tokens: 1, output_tokens: 1 } } }),
    JSON.stringify({ type: 'content_block_start', index: 1_000_000_000, content_block: { type: 'text', text: '' } }),
    JSON.stringify({ type: 'content_block_delta', index: 1_000_000_000, delta: { type: 'text_delta', text: 'hi' } }),
    JSON.stringify({ type: 'content_block_stop', index: 1_000_000_000 }),
  ],
  gemini: [
    JSON.stringify({ candidates: [{ index: 1_000_000_000, content: { role: 'model', parts: [{ text: 'hi' }] } }] }),
    JSON.stringify({ candidates: [{ index: 3, content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] }, finishReason: 'STOP' }] }),
  ],
  'openai-responses': [
    JSON.stringify({ type: 'response.output_item.added', output_index: 1_000_000_000, item: { type: 'message', id: 'm', role: 'assistant', content: [] } }),
    JSON.stringify({ type: 'response.output_text.delta', output_index: 1_000_000_000, content_index: 2_000_000_000, delta: 'hi' }),
    JSON.stringify({ type: 'response.output_item.added', output_index: -7, item: { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' } }),
    JSON.stringify({ type: 'response.reasoning_summary_part.added', output_index: 3, summary_index: 1_000_000_000 }),
    JSON.stringify({ type: 'response.completed', response: { status: 'completed' } }),
  ],
  'gemini-interactions': [
    JSON.stringify({ event_type: 'step.start', index: 1_000_000_000, step: { type: 'model_output', content: [{ type: 'text', text: 'hi' }] } }),
    JSON.stringify({ event_type: 'step.delta', index: 2_000_000_000, delta: { type: 'text', text: 'orphan' } }),
    JSON.stringify({ event_type: 'step.start', index: -3, step: { type: 'function_call', id: 'c', name: 'f', arguments: {} } }),
    JSON.stringify({ event_type: 'step.delta', index: -3, delta: { type: 'arguments_delta', arguments: '{"a":1}' } }),
    JSON.stringify({ event_type: 'step.stop', index: 1_000_000_000 }),
    JSON.stringify({ event_type: 'interaction.completed', interaction: { id: 'i', status: 'completed' } }),
  ],
};

describe.each(chatDialects.map((d) => [d.id, d] as const))('hostile %s upstream', (_id, up) => {
  it.each(chatDialects.map((d) => [d.id, d] as const))('→ %s caller stays bounded', (_c, caller) => {
    const dec = up.createStreamDecoder({ ...req }, testContext());
    const enc = caller.createStreamEncoder({ ...req }, testContext());
    const frames: StreamFrame[] = [];
    for (const data of hostile[up.id]!) for (const e of dec.push({ data })) frames.push(...enc.push(e));
    for (const e of dec.finish()) frames.push(...enc.push(e));
    frames.push(...enc.finish());
    const bytes = frames.reduce((n, f) => n + f.data.length, 0);
    expect(bytes).toBeLessThan(100_000);
  });
});
