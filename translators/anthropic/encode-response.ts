/**
 * Caller side: canonical ChatResponse → Anthropic Message.
 * https://docs.claude.com/en/api/messages (response body)
 */
import {
  assertNever,
  encodeSignature,
  lendCallSignatures,
  type ChatRequest,
  type ChatResponse,
  type Part,
  type Signature,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { encodeStopReason } from './finish-reason.ts';
import { callerToolId } from './tool-id.ts';
import { compactionBlock, encodeAppliedEdits } from './context-management.ts';
import { encodeUsage } from './usage.ts';
import { DIRECT_CALLER, type AnthropicMessage, type AnthropicResponseBlock } from './wire.ts';
import { citedTextBlocks, encodeWebSearch, serverToolUse } from './web-search.ts';

/** A signature as the caller must echo it: raw for Anthropic's own, a carrier for others. */
export function wireSignature(sig: Signature): string {
  return sig.origin === 'anthropic' ? sig.value : encodeSignature(sig);
}

/** Tool `input` must be an object: parse the arguments, `{}` when empty or not an object. */
export function inputOf(args: string): Record<string, unknown> {
  if (!args.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A message id the SDKs accept (`msg_…`). */
export function messageId(id: string, ctx: TranslateContext): string {
  return id.startsWith('msg_') ? id : ctx.newId('msg_');
}

/**
 * Parts → response blocks. A Gemini thought signature on a text part has no Anthropic field:
 * it rides in an empty `thinking` block (signature = carrier) right AFTER that text block, the
 * one position a stream can also produce (the signature arrives when the text ends). A thinking
 * block Gemini left unsigned (it signs the call after it) shows that call's signature.
 */
export function encodeBlocks(parts: readonly Part[]): AnthropicResponseBlock[] {
  const blocks: AnthropicResponseBlock[] = [];
  for (const p of lendCallSignatures(parts)) {
    switch (p.type) {
      case 'text':
        if (p.text !== '') blocks.push(...citedTextBlocks(p));
        if (p.signature) blocks.push({ type: 'thinking', thinking: '', signature: wireSignature(p.signature) });
        break;
      case 'refusal':
        if (p.text !== '') blocks.push({ type: 'text', text: p.text, citations: null });
        break;
      case 'reasoning':
        if (p.redacted) blocks.push({ type: 'redacted_thinking', data: wireSignature(p.redacted) });
        else {
          blocks.push({
            type: 'thinking',
            thinking: p.text,
            signature: p.signature ? wireSignature(p.signature) : '',
          });
        }
        break;
      case 'tool-call':
        blocks.push({
          type: 'tool_use',
          id: callerToolId(p.id, p.signature),
          name: p.name,
          input: inputOf(p.arguments),
          caller: DIRECT_CALLER,
        });
        break;
      case 'web-search':
        blocks.push(...encodeWebSearch(p));
        break;
      case 'image':
      case 'audio':
      case 'file':
      case 'tool-result':
        // No response block carries these; an assistant reply holding them has nowhere to put them.
        break;
      default:
        assertNever(p, 'part');
    }
  }
  return blocks;
}

export function encodeResponse(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): AnthropicMessage {
  const choice = res.choices[0];
  const parts = choice?.content ?? [];
  const hasToolCalls = parts.some((p) => p.type === 'tool-call');
  const reason = choice?.finishReason ?? (res.promptBlocked ? { unified: 'refusal' as const } : undefined);
  const { stop_reason, stop_sequence } = encodeStopReason(reason, hasToolCalls);
  // A compaction the proxy made before the turn comes first (compact_20260112).
  const content = [...(req.compacted ? [compactionBlock(req.compacted) as unknown as AnthropicResponseBlock] : []), ...encodeBlocks(parts)];
  // Server-tool blocks of an Anthropic upstream (decode-response.ts) go back where they were.
  const server = choice?.extras?.dialect === 'anthropic' ? choice.extras.fields.serverBlocks : undefined;
  if (Array.isArray(server)) {
    for (const s of server as Array<{ index: number; block: AnthropicResponseBlock }>) {
      content.splice(Math.min(s.index, content.length), 0, s.block);
    }
  }
  return {
    id: messageId(res.id, ctx),
    type: 'message',
    role: 'assistant',
    model: res.model || req.model,
    content,
    stop_reason,
    stop_sequence,
    // Required (nullable) in `Message`; an Anthropic upstream's refusal details are kept.
    stop_details: choice?.extras?.dialect === 'anthropic' ? (choice.extras.fields.stop_details ?? null) : null,
    container: null,
    diagnostics: null,
    usage: withServerToolUse(encodeUsage(res.usage), parts),
    // What the proxy's context editing cleared (an Anthropic upstream's own goes by passthrough).
    ...(req.appliedEdits && { context_management: encodeAppliedEdits(req.appliedEdits) }),
  };
}

/** The usage with the searches and fetches the answer holds (Claude Code counts them from it). */
export function withServerToolUse<U extends { server_tool_use: unknown }>(usage: U, parts: readonly Part[]): U {
  const counted = serverToolUse(parts);
  return counted ? { ...usage, server_tool_use: counted } : usage;
}
