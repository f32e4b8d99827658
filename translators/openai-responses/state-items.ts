/**
 * A caller's input as the Responses API lists it back (`GET /v1/responses/{id}/input_items`: its
 * `ItemResource` shapes): every item typed, with an id and, where the API has one, a status; a
 * message's content as parts (a string is one `input_text`, or `output_text` in an assistant
 * message, which the API lists as an output message). These are also shapes `input` accepts, so
 * the history kept this way is sent again as it is.
 * https://platform.openai.com/docs/api-reference/responses/input-items
 */
import type { TranslateContext } from '../types.ts';
import { ITEM_PREFIX } from './encode-output.ts';
import { isJsonObject as isRecord } from '../../src/kit/index.ts';

type Wire = Record<string, unknown>;


/** Id prefixes of input items, as the API and its clients write them. */
const PREFIX: Record<string, string> = {
  message: ITEM_PREFIX.message,
  function_call: ITEM_PREFIX.function,
  custom_tool_call: ITEM_PREFIX.custom,
  reasoning: ITEM_PREFIX.reasoning,
  function_call_output: 'fco_',
  custom_tool_call_output: 'ctco_',
};

/** Item types whose listed form carries a `status`. */
const WITH_STATUS = new Set(['message', 'function_call', 'function_call_output', 'custom_tool_call', 'custom_tool_call_output']);

const outputText = (text: string): Wire => ({ type: 'output_text', text, annotations: [], logprobs: [] });

/** An assistant message's part as an output message holds it. */
function assistantPart(p: unknown): unknown {
  if (!isRecord(p)) return p;
  if (p['type'] === 'input_text' || p['type'] === 'output_text') return { ...outputText(typeof p['text'] === 'string' ? p['text'] : ''), ...(p['type'] === 'output_text' ? p : {}), type: 'output_text' };
  return p;
}

/** A user, system or developer message's part: an image says its detail (the API's default). */
function inputPart(p: unknown): unknown {
  return isRecord(p) && p['type'] === 'input_image' && p['detail'] === undefined ? { ...p, detail: 'auto' } : p;
}

function messageContent(role: unknown, content: unknown): unknown {
  const assistant = role === 'assistant';
  if (typeof content === 'string') return [assistant ? outputText(content) : { type: 'input_text', text: content }];
  if (!Array.isArray(content)) return content;
  return content.map(assistant ? assistantPart : inputPart);
}

/** One input item as the API lists it; `ctx` mints the id an item arrived without. */
export function listedItem(item: unknown, ctx: TranslateContext): unknown {
  if (!isRecord(item)) return item;
  const type = typeof item['type'] === 'string' ? item['type'] : 'message';
  const out: Wire = { ...item, type };
  if (type === 'message') out['content'] = messageContent(item['role'], item['content']);
  if (typeof out['id'] !== 'string') out['id'] = ctx.newId(PREFIX[type] ?? 'item_');
  if (WITH_STATUS.has(type) && out['status'] === undefined) out['status'] = 'completed';
  if (type === 'reasoning' && !Array.isArray(out['summary'])) out['summary'] = [];
  return out;
}
