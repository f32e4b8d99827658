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

/** Shallow: rename the keys of one object; a camelCase key wins over its snake_case twin. */
export function camelKeys(value: unknown): unknown {
  if (!isRecord(value)) return value;
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
  return Array.isArray(v) ? v.map(f) : v;
}

/** Gemini `Schema` (OpenAPI subset): camelise keywords, keep property names. */
export function normalizeGeminiSchema(value: unknown): unknown {
  const s = camelKeys(value);
  if (!isRecord(s)) return s;
  const out: Record<string, unknown> = { ...s };
  if (isRecord(s.properties)) {
    const props: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(s.properties)) props[name] = normalizeGeminiSchema(sub);
    out.properties = props;
  }
  if (s.items !== undefined) out.items = normalizeGeminiSchema(s.items);
  if (s.anyOf !== undefined) out.anyOf = mapArray(s.anyOf, normalizeGeminiSchema);
  return out;
}

function apply(value: unknown, shape: Shape): unknown {
  if (shape === 'raw') return value;
  if (shape === 'schema') return normalizeGeminiSchema(value);
  const obj = camelKeys(value);
  if (!isRecord(obj)) return obj;
  const out: Record<string, unknown> = { ...obj };
  for (const [key, sub] of Object.entries(shape)) {
    if (out[key] === undefined) continue;
    out[key] = apply(out[key], sub);
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

function normalizePart(p: unknown): unknown {
  const out = apply(p, part);
  if (isRecord(out) && isRecord(out.functionResponse) && out.functionResponse.parts !== undefined) {
    out.functionResponse = {
      ...out.functionResponse,
      parts: applyEach(out.functionResponse.parts, { inlineData: blob, fileData: blob }),
    };
  }
  return out;
}

export function normalizeContent(c: unknown): unknown {
  const out = camelKeys(c);
  if (!isRecord(out)) return out;
  return out.parts === undefined ? out : { ...out, parts: mapArray(out.parts, normalizePart) };
}

function normalizeTool(t: unknown): unknown {
  const out = camelKeys(t);
  if (!isRecord(out)) return out;
  if (out.functionDeclarations === undefined) return out;
  return {
    ...out,
    functionDeclarations: applyEach(out.functionDeclarations, {
      parameters: 'schema',
      response: 'schema',
      parametersJsonSchema: 'raw',
      responseJsonSchema: 'raw',
    }),
  };
}

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
  const r: Record<string, unknown> = { ...out };
  if (r.contents !== undefined) r.contents = mapArray(r.contents, normalizeContent);
  if (r.systemInstruction !== undefined) r.systemInstruction = normalizeContent(r.systemInstruction);
  if (r.tools !== undefined) r.tools = mapArray(r.tools, normalizeTool);
  if (r.toolConfig !== undefined) r.toolConfig = apply(r.toolConfig, { functionCallingConfig: {} });
  if (r.generationConfig !== undefined) r.generationConfig = apply(r.generationConfig, generationConfig);
  if (r.safetySettings !== undefined) r.safetySettings = applyEach(r.safetySettings, {});
  if (r.generateContentRequest !== undefined) r.generateContentRequest = normalizeRequest(r.generateContentRequest);
  return r;
}
