/**
 * Validates what the proxy emits against the vendor shapes in this folder's `*.schema.json`
 * (hand-derived from each vendor's published schema; the sources are named in each file).
 *
 * Deliberate differences are an explicit allow-list: an `Allowance` names the schema definition,
 * the place (JSON pointer pattern) and the value it lets through there, with the reason and the
 * conforming value it stands in for. Before validating, each allowed value is swapped for that
 * stand-in, and everything else must conform exactly. Every allowance must be used by at least one
 * check, so a stale one fails the suite.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

/** RFC 4648 §4 base64 with padding: what `format: byte` means in Google's and OpenAPI's documents. */
export const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type Vendor = 'openai' | 'anthropic' | 'gemini' | 'openai-responses';

export interface Allowance {
  /** The `$defs` entry being checked (`CreateChatCompletionResponse`, `Message`…). */
  def: string;
  /** Where in that instance (JSON pointer). */
  at: RegExp;
  /** The value let through at that place. */
  value: (v: unknown) => boolean;
  /** What the schema would have there instead (validated in its place). */
  as: unknown;
  /** Why we emit it, and why a client copes. */
  reason: string;
}

/** A copy of `value` with every allowed difference swapped for its stand-in. */
function standIn(value: unknown, pointer: string, rules: Allowance[], used: Set<Allowance>): unknown {
  const rule = rules.find((a) => a.at.test(pointer) && a.value(value));
  if (rule) {
    used.add(rule);
    return rule.as;
  }
  if (Array.isArray(value)) return value.map((v, i) => standIn(v, `${pointer}/${i}`, rules, used));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = standIn(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, rules, used);
    return out;
  }
  return value;
}

export interface Checker {
  /** Schema violations of `value` against `def`, less the allowed ones; `[]` when it conforms. */
  problems(def: string, value: unknown): string[];
  /** Allowances no check has needed yet. */
  unused(): Allowance[];
}

export function checker(vendor: Vendor, allowances: Allowance[] = []): Checker {
  const file = fileURLToPath(new URL(`./${vendor}.schema.json`, import.meta.url));
  const schema = JSON.parse(readFileSync(file, 'utf8')) as { $id: string };
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv, ['uri', 'date-time']);
  ajv.addFormat('byte', STANDARD_BASE64);
  ajv.addSchema(schema);
  const used = new Set<Allowance>();

  return {
    problems(def, value) {
      const validate = ajv.getSchema(`${schema.$id}#/$defs/${def}`);
      if (!validate) throw new Error(`no $defs/${def} in ${vendor}.schema.json`);
      const instance = standIn(value, '', allowances.filter((a) => a.def === def), used);
      if (validate(instance)) return [];
      const out = (validate.errors ?? []).filter((e: ErrorObject) => e.keyword !== 'if');
      return [...new Set(out.map((e) => `${def}${e.instancePath || '/'} ${e.message}${describe(e)}`))];
    },
    unused: () => allowances.filter((a) => !used.has(a)),
  };
}

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if ('allowedValues' in p) return ` ${JSON.stringify(p.allowedValues)}`;
  if ('allowedValue' in p) return ` ${JSON.stringify(p.allowedValue)}`;
  return '';
}
