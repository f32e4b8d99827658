/** Helpers for `extras`: fields of one dialect with no canonical home. */
import type { ChatRequest, Tool, Warning } from './chat.ts';
import type { DialectId } from './dialects.ts';

/**
 * The caller-dialect fields to replay to an upstream speaking `target` (`fields` and `hints`
 * together), plus a `dropped` warning for each field that cannot be replayed because the upstream
 * speaks another dialect (lossy, except for hints).
 */
export function extrasFor(
  req: Pick<ChatRequest, 'extras'>,
  target: DialectId,
): { fields: Record<string, unknown>; warnings: Warning[] } {
  const extras = req.extras;
  if (!extras) return { fields: {}, warnings: [] };
  if (extras.dialect === target) return { fields: extras.hints ? { ...extras.hints, ...extras.fields } : extras.fields, warnings: [] };
  const warnings: Warning[] = [];
  for (const key of Object.keys(extras.fields)) {
    if (extras.fields[key] !== undefined) warnings.push({ code: 'dropped', path: key, lossy: true });
  }
  for (const key of Object.keys(extras.hints ?? {})) {
    if (extras.hints![key] !== undefined) warnings.push({ code: 'dropped', path: key });
  }
  return { fields: {}, warnings };
}

/**
 * A tool's own dialect fields (`Tool.extras`) to replay to an upstream speaking `target`, or one
 * `dropped:tools.<index>.<field>` warning each when it speaks another dialect.
 */
export function toolExtrasFor(
  tool: Pick<Tool, 'extras'>,
  index: number,
  target: DialectId,
): { fields: Record<string, unknown>; warnings: Warning[] } {
  const extras = tool.extras;
  if (!extras) return { fields: {}, warnings: [] };
  if (extras.dialect === target) return { fields: extras.fields, warnings: [] };
  const warnings: Warning[] = [];
  for (const key of Object.keys(extras.fields)) {
    if (extras.fields[key] !== undefined) warnings.push({ code: 'dropped', path: `tools.${index}.${key}` });
  }
  return { fields: {}, warnings };
}
