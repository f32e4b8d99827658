/**
 * Canonical request settings in Responses wire form: tools, tool choice, `text.format`,
 * `reasoning`. Used twice: for an upstream request, and for the request settings a Response
 * object echoes back to a caller.
 */
import {
  nativeToolLabel,
  assertNever,
  toolExtrasFor,
  type ChatRequest,
  type ReasoningConfig,
  type ResponseFormat,
  type Tool,
  type ToolChoice,
  type Warning,
} from '../../src/canonical/index.ts';
import { encodeWebTool } from './web-tools.ts';

export type Wire = Record<string, unknown>;

function encodeTool(t: Tool, i: number, warnings: Warning[]): Wire {
  const extras = toolExtrasFor(t, i, 'openai-responses');
  warnings.push(...extras.warnings);
  if (t.custom) {
    return {
      ...extras.fields,
      type: 'custom',
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.custom.format ? { format: t.custom.format } : {}),
    };
  }
  // The Responses API makes function tools strict unless told otherwise; other dialects' schemas
  // are rarely strict-compatible, so an unset `strict` is sent as false.
  return {
    ...extras.fields,
    type: 'function',
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    parameters: t.parameters ?? { type: 'object', properties: {} },
    strict: t.strict ?? false,
  };
}

/** Canonical tools plus this dialect's built-in tools (others' built-ins are reported dropped). */
export function encodeTools(req: ChatRequest, warnings: Warning[]): Wire[] {
  const out = (req.tools ?? []).map((t, i) => encodeTool(t, i, warnings));
  (req.nativeTools ?? []).forEach((t, i) => {
    const web = t.dialect === 'openai-responses' ? t.definition : t.web && encodeWebTool(t.web, t.path ?? `nativeTools[${i}]`, warnings);
    if (web) out.push(web);
    else warnings.push({ code: 'dropped', path: t.path ?? `nativeTools[${i}]`, detail: nativeToolLabel(t), lossy: true });
  });
  return out;
}

export function encodeToolChoice(choice: ToolChoice, tools: readonly Tool[]): unknown {
  const kindOf = (name: string) => (tools.find((t) => t.name === name)?.custom ? 'custom' : 'function');
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: kindOf(choice.name), name: choice.name };
    case 'allowed':
      return { type: 'allowed_tools', mode: choice.mode, tools: choice.names.map((name) => ({ type: kindOf(name), name })) };
    case 'web':
      // With no function to call instead, `required` leaves the model the hosted search alone.
      return tools.length === 0 ? 'required' : 'auto';
    default:
      return assertNever(choice, 'tool choice');
  }
}

export function encodeFormat(f: ResponseFormat): Wire {
  switch (f.type) {
    case 'text':
      return { type: 'text' };
    case 'json':
      return { type: 'json_object' };
    case 'json-schema':
      return {
        type: 'json_schema',
        name: f.name ?? 'response',
        schema: f.schema,
        ...(f.description !== undefined ? { description: f.description } : {}),
        ...(f.strict !== undefined ? { strict: f.strict } : {}),
      };
    default:
      return assertNever(f, 'response format');
  }
}

/**
 * `reasoning` from the canonical config: the effort (`enabled: false` is `none`; a budget alone
 * maps 0 → none, < 4096 → low, < 16384 → medium, else high, approximated), and `summary: auto`
 * when thoughts are wanted. Undefined when there is nothing to say.
 */
export function encodeReasoning(r: ReasoningConfig, warnings: Warning[]): Wire | undefined {
  let effort: string | undefined;
  if (r.enabled === false) effort = 'none';
  else if (r.effort) effort = r.effort;
  else if (r.budgetTokens !== undefined && r.budgetTokens >= 0) {
    const b = r.budgetTokens;
    effort = b === 0 ? 'none' : b < 4096 ? 'low' : b < 16384 ? 'medium' : 'high';
    warnings.push({ code: 'approximated', path: 'reasoning.budgetTokens', detail: `effort=${effort}` });
  }
  const out: Wire = {};
  if (effort) out['effort'] = effort;
  if (r.includeThoughts && effort !== 'none') out['summary'] = 'auto';
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Whether the request turns reasoning on (so encrypted reasoning can come back). */
export function reasoningOn(req: ChatRequest): boolean {
  const r = req.reasoning;
  return !!r && r.enabled !== false && r.budgetTokens !== 0;
}
