/**
 * Same-dialect passthrough: what a Responses stream encoder must know of the upstream's own
 * stream, forwarded to the caller as it was, to end it with an error that continues it: the
 * Response `response.created` opened (its id), the items already done, the last `sequence_number`.
 * Read cheaply: only `response.created` and `response.output_item.done` frames are parsed; the
 * sequence number is read where it stands without parsing the frame.
 */
import type { SseEvent } from '../../src/canonical/index.ts';
import type { Wire } from './encode-settings.ts';

export interface ForwardedFrame {
  type?: string;
  sequenceNumber?: number;
  /** `response.created`: the Response it opened. */
  response?: Wire;
  /** `response.output_item.done`: the complete item and its place. */
  item?: { at: number; item: Wire };
}

const SEQ = '"sequence_number":';

/** The `sequence_number` of a frame's JSON, or undefined (some hosts send none). */
function sequenceNumberOf(data: string): number | undefined {
  const at = data.indexOf(SEQ);
  if (at < 0) return undefined;
  let i = at + SEQ.length;
  while (data.charCodeAt(i) === 32) i++;
  let n = 0;
  const from = i;
  for (let c = data.charCodeAt(i); c >= 48 && c <= 57; c = data.charCodeAt(++i)) n = n * 10 + (c - 48);
  return i > from ? n : undefined;
}

/** The frame's type: its `event:` line, else the JSON's leading `type`. */
function typeOf(frame: SseEvent): string | undefined {
  if (frame.event) return frame.event;
  return /^\s*\{\s*"type"\s*:\s*"([^"]+)"/.exec(frame.data)?.[1];
}

/** The frame's JSON (a value of another shape reads as having no fields), or undefined. */
function parsed(data: string): Wire | null | undefined {
  try {
    return JSON.parse(data) as Wire | null;
    // Stryker disable next-line BlockStatement: an emptied catch returns undefined all the same
  } catch {
    return undefined;
  }
}

export function readForwarded(frame: SseEvent): ForwardedFrame {
  const type = typeOf(frame);
  const out: ForwardedFrame = { type, sequenceNumber: sequenceNumberOf(frame.data) };
  if (type === 'response.created') {
    const r = parsed(frame.data)?.['response'];
    // Only an object has a string `id` (`"r".id` is undefined).
    if (r && typeof (r as Wire)['id'] === 'string') out.response = r as Wire;
  } else if (type === 'response.output_item.done') {
    const json = parsed(frame.data);
    const at = json?.['output_index'];
    // Stryker disable next-line OptionalChaining: a null JSON has no number output_index, so its item is never read
    if (typeof at === 'number' && json?.['item'] && typeof json['item'] === 'object') out.item = { at, item: json['item'] as Wire };
  }
  return out;
}
