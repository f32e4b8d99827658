/**
 * Minimal raw-HTTP callers of each chat dialect, and checks of each dialect's error shape, for
 * the fault-injection and hygiene suites (the official SDKs are exercised in test/e2e).
 */
import { INBOUND_KEY } from '../support/proxy.ts';

export type CallerDialect = 'openai-chat' | 'anthropic' | 'gemini' | 'openai-responses';
export const CALLERS: CallerDialect[] = ['openai-chat', 'anthropic', 'gemini'];
/** Every chat caller dialect (translators/index.ts), the Responses dialect included. */
export const ALL_CALLERS: CallerDialect[] = [...CALLERS, 'openai-responses'];

export interface RawResult {
  status: number;
  headers: Headers;
  text: string;
  json?: any;
}

export function requestFor(dialect: CallerDialect, base: string, model: string, stream: boolean): [string, RequestInit] {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  switch (dialect) {
    case 'openai-chat':
      headers.authorization = `Bearer ${INBOUND_KEY}`;
      return [
        `${base}/v1/chat/completions`,
        { method: 'POST', headers, body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'Hi' }] }) },
      ];
    case 'openai-responses':
      headers.authorization = `Bearer ${INBOUND_KEY}`;
      return [`${base}/v1/responses`, { method: 'POST', headers, body: JSON.stringify({ model, stream, input: 'Hi' }) }];
    case 'anthropic':
      headers['x-api-key'] = INBOUND_KEY;
      headers['anthropic-version'] = '2023-06-01';
      return [
        `${base}/v1/messages`,
        { method: 'POST', headers, body: JSON.stringify({ model, stream, max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }) },
      ];
    case 'gemini':
      headers['x-goog-api-key'] = INBOUND_KEY;
      return [
        `${base}/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        { method: 'POST', headers, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }) },
      ];
  }
}

export async function call(dialect: CallerDialect, base: string, model: string, stream = false, signal?: AbortSignal): Promise<RawResult> {
  const [url, init] = requestFor(dialect, base, model, stream);
  const res = await fetch(url, { ...init, signal });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The error message if `body` is an error in this dialect's envelope, else undefined. */
export function errorMessage(dialect: CallerDialect, body: any): string | undefined {
  switch (dialect) {
    case 'openai-chat':
    case 'openai-responses':
      return typeof body?.error?.message === 'string' && typeof body.error.type === 'string' ? body.error.message : undefined;
    case 'anthropic':
      return body?.type === 'error' && typeof body.error?.type === 'string' ? body.error.message : undefined;
    case 'gemini':
      return typeof body?.error?.status === 'string' && typeof body.error.code === 'number' ? body.error.message : undefined;
  }
}

function parsed(data: string): any {
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** The data payloads of an SSE body. */
export function sseData(text: string): Array<{ event?: string; data: string }> {
  const out: Array<{ event?: string; data: string }> = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length) out.push({ event, data: data.join('\n') });
  }
  return out;
}

/** Did a streamed body end with an error event in the dialect, then close properly? */
export function streamEndedWithError(dialect: CallerDialect, text: string): boolean {
  const events = sseData(text);
  switch (dialect) {
    case 'openai-chat':
      return events.at(-1)?.data === '[DONE]' && events.some((e) => parsed(e.data)?.error);
    case 'anthropic':
      return events.some((e) => e.event === 'error');
    case 'gemini':
      return events.some((e) => parsed(e.data)?.error !== undefined);
    case 'openai-responses':
      return events.at(-1)?.event === 'response.failed' && events.some((e) => e.event === 'error');
  }
}

/** Did a streamed body close properly in the dialect (without an error)? */
export function streamClosedCleanly(dialect: CallerDialect, text: string): boolean {
  const events = sseData(text);
  switch (dialect) {
    case 'openai-chat':
      return events.at(-1)?.data === '[DONE]' && !events.some((e) => parsed(e.data)?.error);
    case 'anthropic':
      return events.at(-1)?.event === 'message_stop';
    case 'gemini': {
      const last = parsed(events.at(-1)?.data ?? 'null');
      return !!last?.candidates?.[0]?.finishReason;
    }
    case 'openai-responses':
      return events.at(-1)?.event === 'response.completed' || events.at(-1)?.event === 'response.incomplete';
  }
}
