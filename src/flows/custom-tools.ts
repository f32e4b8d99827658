/**
 * Freeform (custom) tools for upstreams that only have JSON-argument functions.
 *
 * A freeform tool (`Tool.custom`, OpenAI Responses `custom`) takes raw text: Codex's `apply_patch`
 * receives the patch itself, not JSON. An upstream without such tools gets each one as a function
 * with one string parameter, `input`, whose description spells out the format; the calls coming
 * back are turned into freeform calls again, carrying the raw input. If either step is wrong the
 * caller sees a successful reply in which nothing happens, so both are kept in one place.
 *
 * The flow applies them when the upstream lacks freeform tools (`ChatUpstream.customTools`):
 * `lowerCustomTools(req)` before encoding, then `raiseCustomToolCalls(res, req)` on a response or
 * `raiseCustomToolStream(req)` on the decoded event stream, always with the caller's request.
 */
import type { ChatRequest, ChatResponse, Converted, CustomToolFormat, Message, Tool, Warning } from '../canonical/chat.ts';
import type { Part } from '../canonical/parts.ts';
import type { StreamEvent, StreamStep } from '../canonical/stream.ts';
import { CUSTOM_INPUT_PARAM, CustomInputExtractor, customInputOf } from './custom-input.ts';

/** Names of the request's freeform tools. */
export function customToolNames(req: Pick<ChatRequest, 'tools'>): Set<string> {
  const names = new Set<string>();
  for (const t of req.tools ?? []) if (t.custom) names.add(t.name);
  return names;
}

function formatText(format: CustomToolFormat | undefined): string {
  if (!format || format.type === 'text') return 'any text';
  const kind = format.syntax === 'lark' ? 'the Lark grammar' : 'the regular expression';
  return `text matching ${kind} below, exactly\n${format.definition}`;
}

function lowerTool(t: Tool): Tool {
  if (!t.custom) return t;
  const { custom, ...rest } = t;
  const how =
    `This is a freeform tool: put its whole input, as raw text, in the string parameter ` +
    `"${CUSTOM_INPUT_PARAM}" (the text itself, not JSON inside it). The input is ${formatText(custom.format)}`;
  return {
    ...rest,
    description: t.description ? `${t.description}\n\n${how}` : how,
    parameters: {
      type: 'object',
      properties: { [CUSTOM_INPUT_PARAM]: { type: 'string', description: `The raw input: ${formatText(custom.format)}` } },
      required: [CUSTOM_INPUT_PARAM],
      additionalProperties: false,
    },
  };
}

function lowerPart(p: Part): Part {
  if (p.type === 'tool-call' && p.custom) {
    const { custom: _, ...call } = p;
    return { ...call, arguments: JSON.stringify({ [CUSTOM_INPUT_PARAM]: p.arguments }) };
  }
  if (p.type === 'tool-result' && p.custom) {
    const { custom: _, ...result } = p;
    return result;
  }
  return p;
}

/**
 * The request with every freeform tool as a function taking one string, `input` (the format or
 * grammar spelled out in its description), and every freeform call in the history as a function
 * call with `{"input": …}` arguments. One `approximated` warning per tool: the grammar is no
 * longer enforced by the upstream, only described to the model.
 */
export function lowerCustomTools(req: ChatRequest): Converted<ChatRequest> {
  const names = customToolNames(req);
  if (names.size === 0) return { value: req, warnings: [] };
  const warnings: Warning[] = [];
  (req.tools ?? []).forEach((t, i) => {
    if (t.custom) warnings.push({ code: 'approximated', path: `tools[${i}]`, detail: 'custom→function' });
  });
  const messages: Message[] = req.messages.map((m) =>
    m.content.some((p) => (p.type === 'tool-call' || p.type === 'tool-result') && p.custom)
      ? { ...m, content: m.content.map(lowerPart) }
      : m,
  );
  return { value: { ...req, tools: req.tools!.map(lowerTool), messages }, warnings };
}

/** The response with calls to the caller's freeform tools turned back into freeform calls. */
export function raiseCustomToolCalls(res: ChatResponse, req: ChatRequest): ChatResponse {
  const names = customToolNames(req);
  if (names.size === 0) return res;
  const raise = (p: Part): Part =>
    p.type === 'tool-call' && !p.custom && names.has(p.name) ? { ...p, arguments: customInputOf(p.arguments), custom: true } : p;
  return { ...res, choices: res.choices.map((c) => ({ ...c, content: c.content.map(raise) })) };
}

/**
 * A stream step that turns the upstream's streamed function calls to the caller's freeform tools
 * back into freeform calls: `tool-call-start` marked `custom`, each arguments delta replaced by
 * the raw input characters it completes (`CustomInputExtractor`), and, for arguments of another
 * shape, the whole input at the call's end.
 */
export function raiseCustomToolStream(req: ChatRequest): StreamStep<StreamEvent, StreamEvent> {
  const names = customToolNames(req);
  const open = new Map<string, CustomInputExtractor>();
  const keyOf = (choice: number | undefined, index: number) => `${choice ?? 0}:${index}`;
  return {
    push(e) {
      if (names.size === 0) return [e];
      switch (e.type) {
        case 'tool-call-start':
          if (e.custom || !names.has(e.name)) return [e];
          open.set(keyOf(e.choice, e.index), new CustomInputExtractor());
          return [{ ...e, custom: true }];
        case 'tool-call-delta': {
          const x = open.get(keyOf(e.choice, e.index));
          if (!x) return [e];
          const text = x.push(e.argumentsDelta);
          return text ? [{ ...e, argumentsDelta: text }] : [];
        }
        case 'tool-call-end': {
          const key = keyOf(e.choice, e.index);
          const x = open.get(key);
          if (!x) return [e];
          open.delete(key);
          const rest = x.end();
          return rest ? [{ type: 'tool-call-delta', ...(e.choice !== undefined ? { choice: e.choice } : {}), index: e.index, argumentsDelta: rest }, e] : [e];
        }
        default:
          return [e];
      }
    },
    finish: () => [],
  };
}
