/**
 * Bedrock's stream framing, the AWS event stream (`application/vnd.amazon.eventstream`), as the
 * Anthropic SSE events it carries: `chunk` events hold them as base64 `{"bytes": …}`; exception
 * and error messages become Anthropic `error` events (typed by bedrock-errors.ts).
 * https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ResponseStream.html
 */
import { ParseError } from 'eventsource-parser';
import { base64ToUtf8 } from '../../kit/index.ts';
import { type SseEvent } from '../../canonical/index.ts';
import type { SseChunkParser } from '../../sse/parse.ts';
import { anthropicEnvelope, anthropicErrorType } from './bedrock-errors.ts';
import { EventStreamDecoder, type EventStreamMessage } from './event-stream.ts';

/** What invoke-with-response-stream answers with. */
export const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';

const payloadDecoder = new TextDecoder();

/** `event: error` with Anthropic's envelope: the anthropic stream decoder makes it an error event. */
function errorEvent(type: string | undefined, message: string): SseEvent {
  return { event: 'error', data: anthropicEnvelope(type ?? 'api_error', message) };
}

function stringHeader(m: EventStreamMessage, name: string): string | undefined {
  const v = m.headers[name];
  return typeof v === 'string' ? v : undefined;
}

/** The SSE event of one event-stream message; undefined for events it does not carry (skipped). */
function sseOfMessage(m: EventStreamMessage): SseEvent | undefined {
  const kind = stringHeader(m, ':message-type');
  if (kind === 'exception') {
    const name = stringHeader(m, ':exception-type');
    let message: string | undefined;
    try {
      const p = JSON.parse(payloadDecoder.decode(m.payload)) as { message?: unknown; Message?: unknown; originalMessage?: unknown };
      const s = [p.message, p.Message, p.originalMessage].find((x) => typeof x === 'string' && x);
      message = s as string | undefined;
    } catch {
      message = undefined;
    }
    return errorEvent(anthropicErrorType(name), message ?? `Bedrock stream exception${name ? ` ${name}` : ''}`);
  }
  if (kind === 'error') {
    const code = stringHeader(m, ':error-code');
    return errorEvent(anthropicErrorType(code), stringHeader(m, ':error-message') ?? `Bedrock stream error${code ? ` ${code}` : ''}`);
  }
  if (kind !== 'event' || stringHeader(m, ':event-type') !== 'chunk') return undefined;
  let text: string | undefined;
  try {
    const p = JSON.parse(payloadDecoder.decode(m.payload)) as { bytes?: unknown };
    text = typeof p.bytes === 'string' ? base64ToUtf8(p.bytes, true) : undefined;
  } catch {
    text = undefined;
  }
  if (text === undefined) return errorEvent('api_error', 'Bedrock sent a stream chunk without base64 JSON bytes.');
  // The event name is the JSON's `type` (the decoder reads the JSON either way).
  const type = /^\s*\{\s*"type"\s*:\s*"([A-Za-z_]+)"/.exec(text)?.[1];
  return type ? { event: type, data: text } : { data: text };
}

/**
 * Bedrock's event stream as SSE events for the one pipeline (`Provider.streamParser`): a frame
 * over `maxFrameBytes` sets `error` (the pipeline's frame-size failure); broken framing (either
 * checksum, impossible lengths, bad headers) or a body that ends inside a frame becomes an error
 * event, and nothing after it is read.
 */
export function createBedrockStreamParser(maxFrameBytes: number): SseChunkParser {
  const decoder = new EventStreamDecoder(maxFrameBytes);
  let sawBytes = false;
  let eventCount = 0;
  let error: ParseError | undefined;
  let broken = false;

  const collect = (messages: EventStreamMessage[]): SseEvent[] => {
    const out: SseEvent[] = [];
    for (const m of messages) {
      const e = sseOfMessage(m);
      if (e) out.push(e);
    }
    const failure = decoder.failure;
    if (failure && !broken) {
      broken = true;
      if (failure.type === 'too-large') error = new ParseError(`Bedrock event stream ${failure.message}`, { type: 'max-buffer-size-exceeded' });
      else out.push(errorEvent('api_error', `Bedrock event stream is corrupt: ${failure.message}.`));
    }
    eventCount += out.length;
    return out;
  };

  return {
    push(chunk) {
      if (chunk.byteLength > 0) sawBytes = true;
      return collect(decoder.push(chunk));
    },
    finish() {
      if (broken || decoder.pending === 0) return [];
      broken = true;
      eventCount++;
      return [errorEvent('api_error', `Bedrock event stream ended inside a frame (${decoder.pending} bytes of it received).`)];
    },
    get sawBytes() {
      return sawBytes;
    },
    get eventCount() {
      return eventCount;
    },
    get error() {
      return error;
    },
  };
}
