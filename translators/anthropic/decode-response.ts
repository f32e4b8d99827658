/**
 * Upstream side: an Anthropic Message → canonical ChatResponse.
 * A web search or fetch (`server_tool_use` and its result block) is a web-search part
 * (web-search.ts). Other server-tool blocks (code execution, MCP…) have no canonical part: they
 * are kept in the choice's Anthropic `extras.serverBlocks` with their position, and skipped otherwise.
 * A `json_response` tool call answering a structured-output request becomes the message text.
 */
import * as v from 'valibot';
import {
  ProxyError,
  type ChatRequest,
  type ChatResponse,
  type Choice,
  type Part,
} from '../../src/canonical/index.ts';
import {
  safeParseAsIs,
} from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import { decodeStopReason } from './finish-reason.ts';
import { answerOf, JSON_TOOL, jsonToolMode } from './structured-output.ts';
import { decodeUsage } from './usage.ts';
import { AnthropicMessageResponseSchema } from './wire.ts';
import { decodeCitation } from './citations.ts';
import { decodeWebSearch, isWebToolUse } from './web-search.ts';

export function decodeBlock(block: Record<string, unknown> & { type: string }): Part | undefined {
  switch (block.type) {
    case 'text': {
      const text = typeof block.text === 'string' ? block.text : '';
      const citations = Array.isArray(block.citations) && block.citations.length ? block.citations.map(decodeCitation) : undefined;
      return { type: 'text', text, ...(citations ? { citations } : {}) };
    }
    case 'thinking': {
      const text = typeof block.thinking === 'string' ? block.thinking : '';
      const sig = typeof block.signature === 'string' && block.signature ? block.signature : undefined;
      return { type: 'reasoning', text, ...(sig ? { signature: { origin: 'anthropic', value: sig } } : {}) };
    }
    case 'redacted_thinking':
      return {
        type: 'reasoning',
        text: '',
        redacted: { origin: 'anthropic', value: typeof block.data === 'string' ? block.data : '' },
      };
    case 'tool_use':
      return {
        type: 'tool-call',
        id: String(block.id ?? ''),
        name: String(block.name ?? ''),
        arguments: JSON.stringify(block.input ?? {}),
      };
    default:
      return undefined;
  }
}

export function decodeResponse(body: unknown, req: ChatRequest, ctx: TranslateContext): ChatResponse {
  // Valid as it is (nearly always): no copy.
  const parsed = safeParseAsIs(v.safeParse, AnthropicMessageResponseSchema, body);
  if (!parsed.success) {
    throw new ProxyError('upstream', 'Anthropic upstream returned a body that is not a message.', {
      raw: (JSON.stringify(body) ?? '').slice(0, 2000),
    });
  }
  const m = parsed.output;
  const content: Part[] = [];
  const serverBlocks: Array<{ index: number; block: unknown }> = [];
  const jsonTool = jsonToolMode(req);
  let answered = false;
  const consumed = new Set<unknown>();
  m.content.forEach((block, index) => {
    if (consumed.has(block)) return;
    if (isWebToolUse(block)) {
      // A web search or fetch and its result: one part (web-search.ts), the result not repeated.
      const result = m.content.find((b) => b.tool_use_id === block.id && b !== block);
      if (result) consumed.add(result);
      content.push(decodeWebSearch(block, result));
      return;
    }
    if (jsonTool && block.type === 'tool_use' && block.name === JSON_TOOL) {
      // The forced structured-output tool (structured-output.ts): its input is the answer.
      content.push({ type: 'text', text: answerOf(block.input, jsonTool.wrapped) });
      answered = true;
      return;
    }
    const part = decodeBlock(block);
    if (part) content.push(part);
    else serverBlocks.push({ index, block });
  });
  let finishReason = decodeStopReason(m.stop_reason, m.stop_sequence);
  if (answered && finishReason.unified === 'tool-calls' && !content.some((p) => p.type === 'tool-call')) {
    finishReason = { unified: 'stop', raw: m.stop_reason ?? undefined };
  }
  const choice: Choice = { index: 0, content, finishReason };
  const extraFields: Record<string, unknown> = {};
  if (serverBlocks.length) extraFields.serverBlocks = serverBlocks;
  const stopDetails = (body as Record<string, unknown>).stop_details;
  if (stopDetails != null) extraFields.stop_details = stopDetails;
  if (Object.keys(extraFields).length) choice.extras = { dialect: 'anthropic', fields: extraFields };
  return {
    id: m.id ?? ctx.newId('msg_'),
    model: m.model ?? '',
    created: Math.floor(ctx.now() / 1000),
    choices: [choice],
    ...(m.usage ? { usage: decodeUsage(m.usage) } : {}),
  };
}
