/**
 * snake_case → camelCase key normalisation for Gemini request bodies.
 *
 * The Gemini API (proto JSON) accepts both `inline_data` and `inlineData`; REST examples use
 * snake_case. We normalise once, up front, and only the containers we interpret: user JSON
 * (`functionCall.args`, `functionResponse.response`, JSON-schema property names, speech
 * configs we replay raw) is never rewritten.
 */
import { isRecord } from './json.ts';

function camel(key: string): string {
  return key.includes('_') ? key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : key;
}

/**
 * Every function here returns its argument itself when nothing in it changes (a camelCase body,
 * nearly always): a 2 MB conversation is not copied object by object to rename nothing.
 */

/** Shallow: rename the keys of one object; a camelCase key wins over its snake_case twin. */
export function camelKeys(value: unknown): unknown {
  if (!isRecord(value)) return value;
  let snake = false;
  for (const k in value) {
    if (k.includes('_')) {
      snake = true;
      break;
    }
  }
  if (!snake) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = camel(k);
    if (c !== k && Object.prototype.hasOwnProperty.call(value, c)) continue;
    out[c] = v;
  }
  return out;
}

type Shape = { [key: string]: Shape | 'schema' | 'raw' } | 'schema' | 'raw';

function mapArray(v: unknown, f: (x: unknown) => unknown): unknown {
  if (!Array.isArray(v)) return v;
  let out: unknown[] | undefined;
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    const y = f(x);
    if (y !== x && !out) out = v.slice(0, i);
    out?.push(y);
  }
  return out ?? v;
}

/** `obj` with `key` set to `next`, copied first unless it is already a fresh copy of `original`. */
function withKey(obj: Record<string, unknown>, original: unknown, key: string, next: unknown): Record<string, unknown> {
  if (obj[key] === next) return obj;
  const out = obj === original ? { ...obj } : obj;
  out[key] = next;
  return out;
}

/** Gemini `Schema` (OpenAPI subset): camelise keywords, keep property names. */
export function normalizeGeminiSchema(value: unknown): unknown {
  const s = camelKeys(value);
  if (!isRecord(s)) return s;
  let out = s;
  if (isRecord(s.properties)) {
    let props: Record<string, unknown> = s.properties;
    for (const [name, sub] of Object.entries(s.properties)) props = withKey(props, s.properties, name, normalizeGeminiSchema(sub));
    out = withKey(out, value, 'properties', props);
  }
  if (s.items !== undefined) out = withKey(out, value, 'items', normalizeGeminiSchema(s.items));
  if (s.anyOf !== undefined) out = withKey(out, value, 'anyOf', mapArray(s.anyOf, normalizeGeminiSchema));
  return out;
}

/** Each shape's entries, listed once (the shapes are this module's constants). */
const shapeEntries = new WeakMap<object, Array<[string, Shape]>>();

function apply(value: unknown, shape: Shape): unknown {
  if (shape === 'raw') return value;
  if (shape === 'schema') return normalizeGeminiSchema(value);
  const obj = camelKeys(value);
  if (!isRecord(obj)) return obj;
  let entries = shapeEntries.get(shape);
  if (!entries) shapeEntries.set(shape, (entries = Object.entries(shape)));
  let out = obj;
  for (const [key, sub] of entries) {
    if (obj[key] === undefined) continue;
    out = withKey(out, value, key, apply(obj[key], sub));
  }
  return out;
}

function applyEach(value: unknown, shape: Shape): unknown {
  return mapArray(value, (x) => apply(x, shape));
}

const blob: Shape = {};
const part: Shape = {
  inlineData: blob,
  fileData: blob,
  functionCall: {},
  functionResponse: {},
  executableCode: {},
  codeExecutionResult: {},
};

const responsePart: Shape = { inlineData: blob, fileData: blob };

function normalizePart(p: unknown): unknown {
  const out = apply(p, part);
  if (isRecord(out) && isRecord(out.functionResponse) && out.functionResponse.parts !== undefined) {
    const fr = out.functionResponse;
    const parts = applyEach(fr.parts, responsePart);
    if (parts !== fr.parts) return withKey(out, p, 'functionResponse', { ...fr, parts });
  }
  return out;
}

export function normalizeContent(c: unknown): unknown {
  const out = camelKeys(c);
  if (!isRecord(out)) return out;
  return out.parts === undefined ? out : withKey(out, c, 'parts', mapArray(out.parts, normalizePart));
}

function normalizeTool(t: unknown): unknown {
  const out = camelKeys(t);
  if (!isRecord(out)) return out;
  if (out.functionDeclarations === undefined) return out;
  return withKey(out, t, 'functionDeclarations', applyEach(out.functionDeclarations, functionDeclaration));
}

const functionDeclaration: Shape = {
  parameters: 'schema',
  response: 'schema',
  parametersJsonSchema: 'raw',
  responseJsonSchema: 'raw',
};
const toolConfig: Shape = { functionCallingConfig: {} };
const safetySetting: Shape = {};

const generationConfig: Shape = {
  thinkingConfig: {},
  responseSchema: 'schema',
  responseJsonSchema: 'raw',
  speechConfig: 'raw',
};

/** Normalise a whole generateContent / countTokens request body. */
export function normalizeRequest(body: unknown): unknown {
  const out = camelKeys(body);
  if (!isRecord(out)) return out;
  let r = out;
  if (out.contents !== undefined) r = withKey(r, body, 'contents', mapArray(out.contents, normalizeContent));
  if (out.systemInstruction !== undefined) r = withKey(r, body, 'systemInstruction', normalizeContent(out.systemInstruction));
  if (out.tools !== undefined) r = withKey(r, body, 'tools', mapArray(out.tools, normalizeTool));
  if (out.toolConfig !== undefined) r = withKey(r, body, 'toolConfig', apply(out.toolConfig, toolConfig));
  if (out.generationConfig !== undefined) r = withKey(r, body, 'generationConfig', apply(out.generationConfig, generationConfig));
  if (out.safetySettings !== undefined) r = withKey(r, body, 'safetySettings', applyEach(out.safetySettings, safetySetting));
  if (out.generateContentRequest !== undefined) r = withKey(r, body, 'generateContentRequest', normalizeRequest(out.generateContentRequest));
  return r;
}
