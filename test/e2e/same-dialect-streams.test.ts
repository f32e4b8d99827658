/**
 * Same dialect means untouched, for Interactions too (the four other dialects are in
 * test/reliability/stream-guarantees.test.ts): a stream the upstream fails itself reaches the
 * caller exactly as the upstream sent it, its own `error` event and `done` included, nothing
 * added; a frame cut before its data is never forwarded, and the stream ends with the dialect's
 * error event after the last whole frame.
 */
import { describe, expect, it } from 'vitest';
import { parseSse } from '../support/fixtures.ts';
import { interactionsSseChunks } from '../support/interactions-upstream.ts';
import { TARGETS, useHarness } from '../support/proxy.ts';
import { interactionsE2eConfig, postRaw } from './interactions-helpers.ts';

const script = { steps: [{ type: 'text' as const, text: 'Hello there' }, { type: 'text' as const, text: 'never' }] };
const sse = (chunks: string[], destroy = false) => ({ headers: { 'content-type': 'text/event-stream' }, chunks, ...(destroy ? { destroy: true } : {}) });

describe.each(TARGETS)('%s: an Interactions stream to an Interactions upstream', (target) => {
  const h = useHarness(target, interactionsE2eConfig);
  const body = { model: 'to-interactions', input: 'Hi', stream: true, store: false };

  it('that the upstream fails itself is forwarded as it sent it, frame for frame', async () => {
    const chunks = interactionsSseChunks({ ...script, failAfter: { steps: 1, message: 'Deadline exceeded.', code: 'deadline_exceeded' } });
    h.mock.reply(sse(chunks));
    const res = await postRaw(h.proxy.url, body);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(chunks.join(''));
  });

  it.each([false, true])('cut before a frame’s data (connection broken: %s): whole frames, then the error event', async (destroy) => {
    const chunks = interactionsSseChunks(script);
    const whole = chunks.slice(0, 3);
    h.mock.reply(sse([...whole, 'event: step.delta\n'], destroy));
    const res = await postRaw(h.proxy.url, body);
    const text = await res.text();
    expect(text.startsWith(whole.join(''))).toBe(true);
    const rest = parseSse(text.slice(whole.join('').length));
    expect(rest.map((e) => e.event)).toEqual(['error', 'done']);
    expect(text).not.toContain('event: step.delta\n\n');
  });
});
