/**
 * Caller side: `tools` and `tool_choice` → canonical. Function and freeform (`custom`) tools are
 * canonical tools; every other type is a built-in of this API (web_search, file_search,
 * code_interpreter, image_generation, mcp, local_shell, shell, apply_patch, computer_use_preview…)
 * and becomes a `NativeTool` replayed only to an openai-responses upstream.
 */
import type { CustomToolFormat, NativeTool, Tool, ToolChoice } from '../../src/canonical/index.ts';
import { invalid, parseAt } from './validate.ts';
import {
  CUSTOM_TOOL_FIELDS,
  CustomToolSchema,
  FUNCTION_TOOL_FIELDS,
  FunctionToolSchema,
  HostedToolSchema,
  ToolChoiceSchema,
} from './wire.ts';
import { decodeWebTool } from './web-tools.ts';

function ownFields(raw: Record<string, unknown>, known: Set<string>): Tool['extras'] {
  const fields: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(raw)) if (!known.has(k) && value !== undefined) fields[k] = value;
  return Object.keys(fields).length > 0 ? { dialect: 'openai-responses', fields } : undefined;
}

export function decodeTools(raw: readonly unknown[] | null | undefined): { tools?: Tool[]; nativeTools?: NativeTool[] } {
  if (!raw) return {};
  const tools: Tool[] = [];
  const nativeTools: NativeTool[] = [];
  raw.forEach((t, i) => {
    const at = `tools[${i}]`;
    const { type } = parseAt(HostedToolSchema, t, at);
    if (type === 'function') {
      const f = parseAt(FunctionToolSchema, t, at);
      const extras = ownFields(f, FUNCTION_TOOL_FIELDS);
      tools.push({
        name: f.name,
        ...(f.description != null ? { description: f.description } : {}),
        ...(f.parameters != null ? { parameters: f.parameters } : {}),
        ...(f.strict != null ? { strict: f.strict } : {}),
        ...(extras ? { extras } : {}),
      });
    } else if (type === 'custom') {
      const c = parseAt(CustomToolSchema, t, at);
      const extras = ownFields(c, CUSTOM_TOOL_FIELDS);
      const format: CustomToolFormat | undefined =
        c.format == null ? undefined : c.format.type === 'text' ? { type: 'text' } : { type: 'grammar', syntax: c.format.syntax, definition: c.format.definition };
      tools.push({
        name: c.name,
        ...(c.description != null ? { description: c.description } : {}),
        custom: format ? { format } : {},
        ...(extras ? { extras } : {}),
      });
    } else {
      const web = decodeWebTool(t as Record<string, unknown>);
      nativeTools.push({ dialect: 'openai-responses', definition: t as Record<string, unknown>, path: at, ...(web ? { web } : {}) });
    }
  });
  return { ...(tools.length > 0 || nativeTools.length === 0 ? { tools } : {}), ...(nativeTools.length > 0 ? { nativeTools } : {}) };
}

/**
 * `tool_choice` → canonical. A named function or custom tool is `{type:'tool'}` (names are unique
 * across both); `allowed_tools` naming only those is `allowed`. A built-in tool choice
 * (`{type:'web_search_preview'}`, `mcp`, `shell`…) or an allow-list with built-ins has no
 * canonical form: it is returned as `native`, kept in extras for an openai-responses upstream.
 */
export function decodeToolChoice(raw: unknown, hasTools: boolean): { choice?: ToolChoice; native?: unknown; hint?: unknown } {
  if (raw == null) return {};
  const c = parseAt(ToolChoiceSchema, raw, 'tool_choice');
  if (typeof c === 'string') return { choice: { type: c } };
  if ((c.type === 'function' || c.type === 'custom') && 'name' in c && typeof c.name === 'string') {
    if (!hasTools) throw invalid(`Invalid value for 'tool_choice': no tool named '${c.name}' was given in 'tools'.`, 'tool_choice');
    return { choice: { type: 'tool', name: c.name } };
  }
  // A hosted web search forced by its type.
  if (typeof c.type === 'string' && /^web_search(_preview)?(_\d{4}_\d{2}_\d{2})?$/.test(c.type)) return { choice: { type: 'web', kind: 'search' }, hint: raw };
  if (c.type === 'allowed_tools' && 'tools' in c && Array.isArray(c.tools)) {
    const entries = c.tools as Array<{ type: string; name?: string }>;
    if (entries.every((t) => (t.type === 'function' || t.type === 'custom') && t.name)) {
      return { choice: { type: 'allowed', mode: (c as { mode: 'auto' | 'required' }).mode, names: entries.map((t) => t.name!) } };
    }
  }
  return { native: raw };
}
