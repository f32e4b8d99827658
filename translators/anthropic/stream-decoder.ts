/**
 * Upstream side: Anthropic SSE events → canonical stream events.
 * https://docs.claude.com/en/docs/build-with-claude/streaming
 *
 * - `ping` and unknown events are ignored; JSON padding is irrelevant (always parsed).
 * - A block still open when the next starts, at `message_delta` or at the end is closed here:
 *   the real service sends no `content_block_stop` when max_tokens cuts a tool input.
 * - A tool call whose input had no non-empty `input_json_delta` gets a `{}` delta.
 * - Thinking ends with its signature (`signature_delta`) on `reasoning-end`.
 * - Usage: `message_start` usage merged with `message_delta` usage (cumulative; older streams
 *   repeat only `output_tokens`); every change is emitted as a full `usage` event.
 * - A web search or fetch (`server_tool_use` and its result block) is one `web-search` event
 *   when its result ends (web-search.ts); other server-tool blocks are skipped with their deltas.
 * - `citations_delta` → a `citation` of the open text block (the whole block: it has no span).
 * - A `json_response` tool answering a structured-output request streams as text.
 * - `event: error` → an `error` event (kind by error type, e.g. overloaded_error → overloaded).
 * - A frame that is not an event (no `type`, fields of the wrong type) → an `error` event.
 * - A stream that ends without `message_stop` is incomplete: `finish()` reports an `error`.
 */
import * as v from 'valibot';
import {
  incompleteStream,
  ProxyError,
  type ChatRequest,
  type SseEvent,
  type StreamEvent,
  type StreamStep,
} from '../../src/canonical/index.ts';
import {
  safeParseAsIs,
} from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import { errorOfEnvelope } from './errors.ts';
import { decodeStopReason } from './finish-reason.ts';
import { answerOf, JSON_TOOL, jsonToolMode } from './structured-output.ts';
import { decodeUsage } from './usage.ts';
import { decodeCitation } from './citations.ts';
import { decodeWebSearch, isWebToolUse } from './web-search.ts';
import { AnthropicStreamEventSchema, type AnthropicUsageIn } from './wire.ts';

type Open =
  | { kind: 'text' }
  | { kind: 'thinking'; signature?: string }
  | { kind: 'redacted' }
  | { kind: 'tool'; index: number; hasArgs: boolean }
  | { kind: 'json'; wrapped: boolean; buffer: string }
  | { kind: 'server-use'; block: Record<string, unknown>; json: string }
  | { kind: 'server-result'; block: Record<string, unknown> }
  | { kind: 'skip' };

export class AnthropicStreamDecoder implements StreamStep<SseEvent, StreamEvent> {
  private started = false;
  private stopped = false;
  private sawStop = false;
  private open: Open | null = null;
  private toolCount = 0;
  private usage: AnthropicUsageIn = {};
  private answered = false;
  /** Web search and fetch tool uses, by id, until their result block comes. */
  private readonly serverUses = new Map<unknown, Record<string, unknown>>();
  private readonly jsonTool: { wrapped: boolean } | undefined;

  constructor(
    req: ChatRequest,
    private readonly ctx: TranslateContext,
  ) {
    this.jsonTool = jsonToolMode(req);
  }

  push(sse: SseEvent): StreamEvent[] {
    if (this.stopped) return [];
    let json: unknown;
    try {
      json = JSON.parse(sse.data);
    } catch {
      return this.fail(`Anthropic stream sent an unparsable event: ${sse.data.slice(0, 200)}`);
    }
    // Valid as it is (nearly always): no copy.
    const parsed = safeParseAsIs(v.safeParse, AnthropicStreamEventSchema, json);
    if (!parsed.success) return this.fail(`Anthropic stream sent an unexpected event: ${sse.data.slice(0, 200)}`);
    const e = parsed.output;
    const out: StreamEvent[] = [];
    switch (e.type) {
      case 'message_start': {
        const m = e.message;
        if (!this.started) {
          this.started = true;
          out.push({
            type: 'message-start',
            id: m?.id ?? this.ctx.newId('msg_'),
            model: m?.model ?? '',
            created: Math.floor(this.ctx.now() / 1000),
          });
        }
        if (m?.usage) this.mergeUsage(m.usage, out);
        break;
      }
      case 'content_block_start':
        this.ensureStarted(out);
        this.close(out);
        this.start(e.content_block ?? { type: 'unknown' }, out);
        break;
      case 'content_block_delta':
        this.ensureStarted(out);
        this.delta(e.delta ?? {}, out);
        break;
      case 'content_block_stop':
        this.close(out);
        break;
      case 'message_delta': {
        this.ensureStarted(out);
        this.close(out);
        const d: Record<string, unknown> = e.delta ?? {};
        const reason = typeof d.stop_reason === 'string' ? d.stop_reason : undefined;
        const seq = typeof d.stop_sequence === 'string' ? d.stop_sequence : undefined;
        let finish = decodeStopReason(reason, seq);
        // The structured-output tool answered: for the caller that is a plain stop.
        if (this.answered && finish.unified === 'tool-calls' && this.toolCount === 0) {
          finish = { unified: 'stop', raw: reason };
        }
        out.push({ type: 'finish', reason: finish });
        if (e.usage) this.mergeUsage(e.usage, out);
        break;
      }
      case 'message_stop':
        this.ensureStarted(out);
        this.close(out);
        this.sawStop = true;
        break;
      case 'error': {
        this.stopped = true;
        out.push({ type: 'error', error: errorOfEnvelope(json, undefined, sse.data), upstreamFrame: true });
        break;
      }
      default:
        // `ping` and events this version does not know.
        break;
    }
    return out;
  }

  finish(): StreamEvent[] {
    if (this.stopped) return [];
    this.stopped = true;
    const out: StreamEvent[] = [];
    this.close(out);
    if (!this.sawStop) out.push({ type: 'error', error: incompleteStream('no message_stop') });
    return out;
  }

  private fail(message: string): StreamEvent[] {
    this.stopped = true;
    return [{ type: 'error', error: new ProxyError('upstream', message) }];
  }

  private ensureStarted(out: StreamEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'message-start', id: this.ctx.newId('msg_'), model: '', created: Math.floor(this.ctx.now() / 1000) });
  }

  private mergeUsage(u: AnthropicUsageIn, out: StreamEvent[]): void {
    const merged: AnthropicUsageIn = { ...this.usage };
    for (const [k, val] of Object.entries(u)) if (val != null) (merged as Record<string, unknown>)[k] = val;
    this.usage = merged;
    out.push({ type: 'usage', usage: decodeUsage(merged) });
  }

  private start(block: Record<string, unknown> & { type: string }, out: StreamEvent[]): void {
    switch (block.type) {
      case 'text': {
        this.open = { kind: 'text' };
        out.push({ type: 'text-start' });
        if (typeof block.text === 'string' && block.text) out.push({ type: 'text-delta', text: block.text });
        break;
      }
      case 'thinking': {
        const sig = typeof block.signature === 'string' && block.signature ? block.signature : undefined;
        this.open = { kind: 'thinking', ...(sig ? { signature: sig } : {}) };
        out.push({ type: 'reasoning-start' });
        if (typeof block.thinking === 'string' && block.thinking) {
          out.push({ type: 'reasoning-delta', text: block.thinking });
        }
        break;
      }
      case 'redacted_thinking':
        this.open = { kind: 'redacted' };
        out.push({
          type: 'reasoning-start',
          redacted: { origin: 'anthropic', value: typeof block.data === 'string' ? block.data : '' },
        });
        break;
      case 'tool_use': {
        if (this.jsonTool && block.name === JSON_TOOL) {
          this.open = { kind: 'json', wrapped: this.jsonTool.wrapped, buffer: '' };
          this.answered = true;
          out.push({ type: 'text-start' });
          break;
        }
        const index = this.toolCount++;
        const input = block.input;
        const initial =
          input && typeof input === 'object' && Object.keys(input).length ? JSON.stringify(input) : '';
        this.open = { kind: 'tool', index, hasArgs: initial !== '' };
        out.push({ type: 'tool-call-start', index, id: String(block.id ?? ''), name: String(block.name ?? '') });
        if (initial) out.push({ type: 'tool-call-delta', index, argumentsDelta: initial });
        break;
      }
      case 'web_search_tool_result':
      case 'web_fetch_tool_result':
        this.open = { kind: 'server-result', block };
        break;
      default:
        this.open = isWebToolUse(block) ? { kind: 'server-use', block, json: '' } : { kind: 'skip' };
    }
  }

  private delta(d: Record<string, unknown>, out: StreamEvent[]): void {
    const open = this.open;
    if (!open) return;
    switch (d.type) {
      case 'text_delta':
        if (open.kind === 'text' && typeof d.text === 'string' && d.text) out.push({ type: 'text-delta', text: d.text });
        break;
      case 'thinking_delta':
        if (open.kind === 'thinking' && typeof d.thinking === 'string' && d.thinking) {
          out.push({ type: 'reasoning-delta', text: d.thinking });
        }
        break;
      case 'signature_delta':
        if (open.kind === 'thinking' && typeof d.signature === 'string') open.signature = d.signature;
        break;
      case 'input_json_delta':
        if (typeof d.partial_json !== 'string' || !d.partial_json) break;
        if (open.kind === 'tool') {
          open.hasArgs = true;
          out.push({ type: 'tool-call-delta', index: open.index, argumentsDelta: d.partial_json });
        } else if (open.kind === 'server-use') {
          open.json += d.partial_json;
        } else if (open.kind === 'json') {
          // Streamed as text unless the schema was wrapped (then unwrapped whole at the end).
          open.buffer += d.partial_json;
          if (!open.wrapped) out.push({ type: 'text-delta', text: d.partial_json });
        }
        break;
      case 'citations_delta':
        // Of the whole block, before its text (Claude cites a sentence as a block of its own).
        if (open.kind === 'text' && d.citation !== undefined) out.push({ type: 'citation', citation: decodeCitation(d.citation) });
        break;
      default:
        // Future delta types.
        break;
    }
  }

  private close(out: StreamEvent[]): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    switch (open.kind) {
      case 'text':
        out.push({ type: 'text-end' });
        break;
      case 'thinking':
        out.push({
          type: 'reasoning-end',
          ...(open.signature ? { signature: { origin: 'anthropic' as const, value: open.signature } } : {}),
        });
        break;
      case 'redacted':
        out.push({ type: 'reasoning-end' });
        break;
      case 'tool':
        if (!open.hasArgs) out.push({ type: 'tool-call-delta', index: open.index, argumentsDelta: '{}' });
        out.push({ type: 'tool-call-end', index: open.index });
        break;
      case 'json': {
        let text = open.wrapped ? open.buffer : open.buffer === '' ? '{}' : '';
        if (open.wrapped) {
          try {
            text = answerOf(JSON.parse(open.buffer), true);
          } catch {
            // Cut short (max_tokens): hand over what came.
          }
        }
        if (text) out.push({ type: 'text-delta', text });
        out.push({ type: 'text-end' });
        break;
      }
      case 'server-use': {
        let input = open.block.input;
        try {
          if (open.json) input = JSON.parse(open.json);
        } catch {
          // Cut short: the start block's input stands.
        }
        this.serverUses.set(open.block.id, { ...open.block, input });
        break;
      }
      case 'server-result': {
        const use = this.serverUses.get(open.block.tool_use_id);
        if (!use) break;
        this.serverUses.delete(open.block.tool_use_id);
        out.push({ type: 'web-search', part: decodeWebSearch(use, open.block) });
        break;
      }
      case 'skip':
        break;
    }
  }
}

export function createStreamDecoder(req: ChatRequest, ctx: TranslateContext): AnthropicStreamDecoder {
  return new AnthropicStreamDecoder(req, ctx);
}
