/**
 * Shared pieces of the Interactions end-to-end suites: the config with a `gemini-interactions`
 * upstream on the mock, `@google/genai`'s interactions client pointed at the proxy, readers for
 * a stream's events (checked for the order a client depends on) and for the SDK's errors.
 */
import { GoogleGenAI } from '@google/genai';
import { expect } from 'vitest';
import { parseSse } from '../support/fixtures.ts';
import { INBOUND_KEY, responsesE2eConfig } from '../support/proxy.ts';

export { GoogleGenAI };

/** The key of the Interactions upstream (scanned for like the others: it must never come back). */
export const INTERACTIONS_KEY = 'AIza-upstream-interactions-SECRET-5555';
/** The model `to-interactions` becomes upstream. */
export const INTERACTIONS_MODEL = 'gemini-3-flash-preview';
export const INTERACTIONS_PATH = '/v1beta/interactions';

/**
 * `responsesE2eConfig` plus a `gemini-interactions` upstream on the mock (`{mock}/v1beta/interactions`),
 * the route `to-interactions` → gemini-3-flash-preview and `interactions-*` (names kept).
 */
export function interactionsE2eConfig(mockUrl: string, overrides: Record<string, unknown> = {}) {
  const base = responsesE2eConfig(mockUrl);
  return {
    ...base,
    upstreams: {
      ...base.upstreams,
      interactions: { dialect: 'gemini-interactions', baseUrl: mockUrl, apiKey: INTERACTIONS_KEY, retry: { attempts: 1 } },
    },
    models: {
      ...base.models,
      'to-interactions': { upstream: 'interactions', model: INTERACTIONS_MODEL },
      'interactions-*': { upstream: 'interactions' },
    },
    ...overrides,
  };
}

/** `@google/genai` against the proxy (interactions at `{base}/v1beta/interactions`, key in `x-goog-api-key`). */
export function genai(proxyUrl: string, apiKey = INBOUND_KEY): GoogleGenAI {
  return new GoogleGenAI({ apiKey, httpOptions: { baseUrl: proxyUrl } });
}

/** Request options: no retries (the SDK retries 429 and 5xx four times by default). */
export const NO_RETRY = { maxRetries: 0 } as const;

export type InteractionEvent = { event_type: string; index?: number; [k: string]: any };

/** Every event the SDK yields, in order. */
export async function collect(stream: AsyncIterable<unknown>): Promise<InteractionEvent[]> {
  const out: InteractionEvent[] = [];
  for await (const e of stream) out.push(e as InteractionEvent);
  return out;
}

/**
 * Checked for what a client depends on: `interaction.created` first; every `step.delta` and
 * `step.stop` after its `step.start`; step indexes 0, 1, 2 …; exactly one terminal event
 * (`interaction.completed` or `error`), last.
 */
export function checked(events: InteractionEvent[]): InteractionEvent[] {
  expect(events[0]?.event_type).toBe('interaction.created');
  expect(events[0]!.interaction.id).toBeTruthy();
  const started: number[] = [];
  for (const e of events) {
    if (e.event_type === 'step.start') {
      expect(e.index).toBe(started.length);
      started.push(e.index!);
    } else if (e.event_type === 'step.delta' || e.event_type === 'step.stop') {
      expect(started, `${e.event_type} of step ${e.index} before its step.start`).toContain(e.index);
    }
  }
  const terminal = events.filter((e) => e.event_type === 'interaction.completed' || e.event_type === 'error');
  expect(terminal).toHaveLength(1);
  expect(events.at(-1)).toBe(terminal[0]);
  return events;
}

/** The steps a stream built: what each `step.start` carried plus its deltas. */
export function streamedSteps(events: InteractionEvent[]): any[] {
  const steps: any[] = [];
  const args: string[] = [];
  for (const e of events) {
    if (e.event_type === 'step.start') {
      steps[e.index!] = structuredClone(e.step);
      args[e.index!] = '';
    } else if (e.event_type === 'step.delta') {
      const s = steps[e.index!];
      const d = e.delta;
      if (d.type === 'text') (s.content ??= []).push({ type: 'text', text: d.text });
      else if (d.type === 'thought_summary') (s.summary ??= []).push(d.content);
      else if (d.type === 'thought_signature') s.signature = d.signature;
      else if (d.type === 'arguments_delta') args[e.index!] += d.arguments ?? '';
    }
  }
  return steps.map((s, i) => {
    if (s.type === 'function_call' && args[i]) return { ...s, arguments: JSON.parse(args[i]!) };
    if (s.type === 'model_output') return { ...s, content: [{ type: 'text', text: s.content.map((c: any) => c.text ?? '').join('') }] };
    return s;
  });
}

/** The text of a stream's text deltas (and of text its step.start events already carried). */
export function streamedText(events: InteractionEvent[]): string {
  return streamedSteps(events)
    .filter((s) => s.type === 'model_output')
    .map((s) => s.content[0].text)
    .join('');
}

/** What an SDK error (its unexported APIError classes) says: class name, status, headers, Google's error body. */
export function sdkError(e: unknown): { name: string; status: number; headers: Headers | undefined; body: { code?: number; message?: string; status?: string } } {
  expect(e).toBeInstanceOf(Error);
  const err = e as { constructor: { name: string }; status: number; headers?: Headers; error?: any };
  return { name: err.constructor.name, status: err.status, headers: err.headers, body: err.error?.error ?? err.error ?? {} };
}

/** Catch what a promise rejects with (or fail when it resolves). */
export { rejection } from './helpers-gemini.ts';

/** A raw POST to the proxy's interactions endpoint (for what the SDK hides: frames, bytes, status). */
export function postRaw(proxyUrl: string, body: unknown, path = INTERACTIONS_PATH): Promise<Response> {
  return fetch(`${proxyUrl}${path}`, {
    method: 'POST',
    headers: { 'x-goog-api-key': INBOUND_KEY, 'content-type': 'application/json', ...(isStream(body) ? { accept: 'text/event-stream' } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
const isStream = (body: unknown) => (typeof body === 'string' ? /"stream":\s*true/.test(body) : (body as { stream?: boolean }).stream === true);

/** An SSE body's frames: each `event:` equal to its data's `event_type`, the last `done` / `[DONE]`. */
export function framesChecked(text: string): InteractionEvent[] {
  const frames = parseSse(text);
  expect(frames.at(-1)).toMatchObject({ event: 'done', data: '[DONE]' });
  const events = frames.slice(0, -1).map((f) => {
    const data = JSON.parse(f.data) as InteractionEvent;
    expect(data.event_type).toBe(f.event);
    return data;
  });
  return events;
}

export const weatherFn = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Weather for a place',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
};
