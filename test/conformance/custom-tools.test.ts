/**
 * Codex's freeform `apply_patch` through every upstream without freeform tools, the way the flow
 * runs it: the Responses request decoded, `lowerCustomTools` before the upstream's encoder, the
 * upstream's answer in its own wire format (made by that dialect's caller-side encoder, cut at
 * arbitrary bytes), decoded, `raiseCustomToolStream` / `raiseCustomToolCalls`, and encoded for the
 * Responses caller. The patch must arrive byte for byte as a `custom_tool_call`: if it does not,
 * Codex edits nothing and reports no error.
 */
import { describe, expect, it } from 'vitest';
import {
  lowerCustomTools,
  raiseCustomToolCalls,
  raiseCustomToolStream,
} from '../../src/flows/custom-tools.ts';
import {
  type ChatResponse,
  type StreamEvent,
} from '../../src/canonical/index.ts';
import { createSseChunkParser } from '../../src/sse/parse.ts';
import { chatDialects } from '../../translators/index.ts';
import { openaiResponses } from '../../translators/openai-responses/index.ts';
import type { ChatDialect, UpstreamTarget } from '../../translators/types.ts';
import { fixtureJson, testContext } from '../support/fixtures.ts';

const PATCH = '*** Begin Patch\n*** Update File: src/a b/"q".ts\n@@ fn()\n-\told("\\\\")\n+\tnew(`Grüß 👋 \u2028`)\n*** End Patch\n';

const callerBody = fixtureJson<Record<string, unknown>>('openai-responses', 'codex-reasoning-summaries-apply-patch.request.json');
const caller = openaiResponses.decodeRequest({ body: callerBody, headers: {}, params: {}, query: {} }, testContext()).value;
const target: UpstreamTarget = { name: 'up', model: 'm', apiKey: 'k', options: {} };
const upstreams = chatDialects.filter((d) => !d.customTools);

/** The upstream's answer: a function call to the lowered apply_patch, arguments cut mid-escape. */
function answer(args: string[]): StreamEvent[] {
  return [
    { type: 'message-start', id: 'up-1', model: 'm', created: 1 },
    { type: 'text-start' },
    { type: 'text-delta', text: 'Patching.' },
    { type: 'text-end' },
    { type: 'tool-call-start', index: 0, id: 'call_p', name: 'apply_patch' },
    ...args.map((a): StreamEvent => ({ type: 'tool-call-delta', index: 0, argumentsDelta: a })),
    { type: 'tool-call-end', index: 0 },
    { type: 'usage', usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 } },
    { type: 'finish', reason: { unified: 'tool-calls' } },
  ];
}

const ARGS = JSON.stringify({ input: PATCH });
const pieces = (step: number) => Array.from({ length: Math.ceil(ARGS.length / step) }, (_, i) => ARGS.slice(i * step, (i + 1) * step));

/** The upstream's SSE bytes for these events, as that dialect writes them. */
function upstreamBytes(d: ChatDialect, events: StreamEvent[]): Uint8Array {
  const enc = d.createStreamEncoder({ ...caller, stream: true }, testContext());
  const frames = [...events.flatMap((e) => enc.push(e)), ...enc.finish()];
  return new TextEncoder().encode(frames.map((f) => `${f.event ? `event: ${f.event}\n` : ''}data: ${f.data}\n\n`).join(''));
}

describe.each(upstreams.map((d) => [d.id, d] as const))('Codex apply_patch through %s', (_id, d) => {
  const lowered = lowerCustomTools(caller).value;

  it('the request: apply_patch is a function taking one string, earlier patches are JSON calls', () => {
    const body = JSON.stringify(JSON.parse(d.encodeRequest(lowered, target, testContext()).value.body as string));
    expect(body).toContain('apply_patch');
    expect(body).toMatch(/"input":\{"type":"string"/i);
    expect(body).not.toContain('"type":"custom"');
    // The earlier freeform call went as a function call whose arguments hold the patch as a string.
    expect(body).toContain(JSON.stringify('*** Add File: NOTES.md').slice(1, -1));
  });

  it.each([1, 3, 7, 64])('a streamed answer, arguments in pieces of %i, bytes cut everywhere, comes back as a freeform call', (step) => {
    const bytes = upstreamBytes(d, answer(pieces(step)));
    for (const cut of [0, 1, 17, Math.floor(bytes.length / 2), bytes.length - 3]) {
      const parser = createSseChunkParser(1 << 22);
      const dec = d.createStreamDecoder(lowered, testContext());
      const raise = raiseCustomToolStream(caller);
      const enc = openaiResponses.createStreamEncoder(caller, testContext());
      const frames = [];
      const feed = (sse: ReturnType<typeof parser.push>) => {
        for (const e of sse) for (const c of dec.push(e)) for (const r of raise.push(c)) frames.push(...enc.push(r));
      };
      feed(parser.push(bytes.subarray(0, cut)));
      feed(parser.push(bytes.subarray(cut)));
      feed(parser.finish());
      for (const c of dec.finish()) for (const r of raise.push(c)) frames.push(...enc.push(r));
      frames.push(...enc.finish());
      const events = frames.map((f) => JSON.parse(f.data) as Record<string, any>);
      const deltas = events.filter((e) => e['type'] === 'response.custom_tool_call_input.delta').map((e) => e['delta'] as string);
      expect(deltas.join('')).toBe(PATCH);
      const done = events.find((e) => e['type'] === 'response.output_item.done' && e['item']['type'] === 'custom_tool_call');
      expect(done?.['item']).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: PATCH, status: 'completed' });
      expect(events.at(-1)!['type']).toBe('response.completed');
    }
  });

  it('a JSON answer comes back as a freeform call', () => {
    const upstreamResponse: ChatResponse = {
      id: 'up-1',
      model: 'm',
      created: 1,
      choices: [{ index: 0, content: [{ type: 'text', text: 'Patching.' }, { type: 'tool-call', id: 'call_p', name: 'apply_patch', arguments: ARGS }], finishReason: { unified: 'tool-calls' } }],
    };
    const wire = JSON.parse(JSON.stringify(d.encodeResponse(upstreamResponse, lowered, testContext())));
    const decoded = d.decodeResponse(wire, lowered, testContext());
    const body = openaiResponses.encodeResponse(raiseCustomToolCalls(decoded, caller), caller, testContext()) as { output: Array<Record<string, unknown>> };
    expect(body.output.find((i) => i['type'] === 'custom_tool_call')).toMatchObject({ name: 'apply_patch', input: PATCH });
  });
});
