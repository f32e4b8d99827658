/**
 * Upstream side: an `Interaction` → canonical `ChatResponse`. A POST answers with this turn's
 * output steps only; a GET (and, in an older wording of the docs, a POST) shows the user's input
 * first: its `user_input` steps give no part. Steps in order: `thought` → a reasoning part
 * (summary texts joined, the raw `signature` as a Gemini signature), `model_output` → text and
 * media parts, `function_call` → a tool call (arguments as JSON text, paired with its result by
 * `id`; the signature of a thought right before it goes on the call, generateContent's place for
 * it, the thought's summary staying an unsigned reasoning part — as decode-input.ts reads a
 * caller's steps). A search's steps (`google_search_call` and its result, `url_context_call` and
 * its result) are a web search part, its pages the ones the text's `url_citation` annotations cite
 * (web-search.ts); other hosted-tool steps have no canonical part and are left out.
 * `status` says why it ended (status.ts); a `failed` Interaction is its error. A 200 body that is
 * not an Interaction is a 502.
 */
import * as v from 'valibot';
import { ProxyError, type ChatRequest, type ChatResponse, type Part, type Signature } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { errorOfFailedInteraction } from './errors.ts';
import { decodeStatus } from './status.ts';
import { decodeUsage, hasUsage } from './usage.ts';
import { InteractionSchema, type InteractionBody } from './wire-events.ts';
import { ContentSchema, FunctionCallStepSchema, ModelOutputStepSchema, ThoughtStepSchema } from './wire.ts';
import { citationsOf, decodeAnnotations, isSearchStep, SearchPairs, withCitedPages } from './web-search.ts';
import { isJsonObject } from '../../src/kit/index.ts';

/** A Gemini signature, when the value is one (the service writes `""` in a thought's `step.start`). */
export function geminiSignature(value: string | null | undefined): Signature | undefined {
  return value ? { origin: 'gemini', value } : undefined;
}

/** One content of a `model_output` (or a summary) → its canonical part; unknown kinds are left out. */
export function partOfContent(raw: unknown): Part | undefined {
  const parsed = v.safeParse(ContentSchema, raw);
  if (!parsed.success) return undefined;
  const c = parsed.output;
  if (c.type === 'text') {
    const citations = decodeAnnotations(c['annotations'], c.text);
    return { type: 'text', text: c.text, ...(citations.length > 0 ? { citations } : {}) };
  }
  const source = c.data
    ? { type: 'base64' as const, data: c.data, mediaType: c.mime_type ?? 'application/octet-stream' }
    : c.uri
      ? { type: 'url' as const, url: c.uri, ...(c.mime_type ? { mediaType: c.mime_type } : {}) }
      : undefined;
  if (!source) return undefined;
  switch (c.type) {
    case 'image':
      return { type: 'image', source };
    case 'audio':
      return { type: 'audio', source };
    case 'document':
    case 'video':
      return { type: 'file', source };
  }
}

/** The text of a thought's summary contents, joined. */
export function summaryText(summary: readonly unknown[] | null | undefined): string {
  let text = '';
  // Stryker disable next-line ArrayDeclaration: a list of anything but contents gives no text either
  for (const c of summary ?? []) {
    const p = partOfContent(c);
    if (p?.type === 'text') text += text ? `\n\n${p.text}` : p.text;
  }
  return text;
}

/** Canonical parts of one output step; undefined for steps with no canonical part. */
export function partsOfStep(step: unknown): Part[] | undefined {
  const type = isJsonObject(step) ? step['type'] : undefined;
  switch (type) {
    case 'thought': {
      const t = v.safeParse(ThoughtStepSchema, step);
      if (!t.success) return undefined;
      const signature = geminiSignature(t.output.signature);
      const text = summaryText(t.output.summary);
      return signature || text ? [{ type: 'reasoning', text, ...(signature ? { signature } : {}) }] : [];
    }
    case 'model_output': {
      const m = v.safeParse(ModelOutputStepSchema, step);
      if (!m.success) return undefined;
      // Stryker disable next-line ArrayDeclaration: a list of anything but contents gives no part either
      return (m.output.content ?? []).flatMap((c) => partOfContent(c) ?? []);
    }
    case 'function_call': {
      const f = v.safeParse(FunctionCallStepSchema, step);
      if (!f.success) return undefined;
      return [{ type: 'tool-call', id: f.output.id, name: f.output.name, arguments: JSON.stringify(f.output.arguments ?? {}) }];
    }
    default:
      return undefined;
  }
}

/** The body checked once: an Interaction is an object with an `id` or a `status`. */
export function parseInteraction(body: unknown): InteractionBody {
  const parsed = v.safeParse(InteractionSchema, body);
  if (parsed.success && !Array.isArray(body) && (parsed.output.id != null || parsed.output.status != null)) return parsed.output;
  throw new ProxyError('upstream', 'The upstream returned a body that is not an Interaction.', { raw: (JSON.stringify(body) ?? '').slice(0, 2000) });
}

/** Unix seconds of an ISO 8601 time, else undefined. */
export function unixSeconds(iso: string | null | undefined): number | undefined {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export function decodeResponse(body: unknown, req: ChatRequest, ctx: TranslateContext): ChatResponse {
  const r = parseInteraction(body);
  if (r.status === 'failed') throw errorOfFailedInteraction(r.errors, JSON.stringify(body));
  // (A GET's leading `user_input` steps give no part: partsOfStep knows no such step.)
  // Stryker disable next-line ArrayDeclaration: a list of anything but steps gives no part either
  const output = r.steps ?? [];
  const content: Part[] = [];
  let callSignature: Signature | undefined;
  const searches = new SearchPairs();
  output.forEach((step, i) => {
    if (isJsonObject(step) && isSearchStep(step['type'])) {
      const search = searches.step(step);
      if (search) content.push(search);
      return;
    }
    const parts = partsOfStep(step) ?? [];
    const next = output[i + 1] as { type?: unknown } | null | undefined;
    // Stryker disable next-line ConditionalExpression: only a reasoning part of a step carries a signature, which the check after this needs
    const thought = parts[0]?.type === 'reasoning' ? parts[0] : undefined;
    if (thought?.signature && next?.type === 'function_call') {
      // Gemini's signature of the thought just before a call goes on the call (as decode-input.ts does).
      callSignature = thought.signature;
      if (thought.text) content.push({ type: 'reasoning', text: thought.text });
      return;
    }
    // Stryker disable next-line ConditionalExpression: callSignature is set only for the function_call step right after it, whose one part is the call
    for (const p of parts) content.push(p.type === 'tool-call' && callSignature ? { ...p, signature: callSignature } : p);
    callSignature = undefined;
  });
  content.push(...searches.rest());
  // A search's pages are the ones the answer cites (its result step names none).
  const cited = citationsOf(content);
  content.forEach((p, i) => {
    // Stryker disable next-line ConditionalExpression: withCitedPages gives any other part back as it is
    if (p.type === 'web-search') content[i] = withCitedPages(p, cited);
  });
  const res: ChatResponse = {
    id: r.id || ctx.newId('v1_'),
    model: r.model || req.model,
    created: unixSeconds(r.created) ?? Math.floor(ctx.now() / 1000),
    choices: [{ index: 0, content, finishReason: decodeStatus(r.status, content.some((p) => p.type === 'tool-call')) }],
  };
  if (hasUsage(r.usage)) res.usage = decodeUsage(r.usage);
  return res;
}
