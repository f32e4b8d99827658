/**
 * Caller side: canonical `ChatResponse` → the `Interaction` a `POST /v1beta/interactions` answers:
 * `id`, `object: "interaction"`, `model`, `status`, this turn's OUTPUT steps only, `usage`,
 * `created`/`updated` (ISO 8601, seconds) and `previous_interaction_id` when the request named one.
 *
 * Steps: reasoning → `thought {signature, summary}` (the summary only when the caller asked for
 * `thinking_summaries: "auto"`); text, refusals and media → one `model_output` per run of them;
 * tool calls → `function_call {id, name, arguments}` (an object).
 *
 * Signatures ride in a thought step's `signature`, which a stateless caller sends back unchanged:
 * Gemini's own raw; any other vendor's reasoning block whole (text and signature, or redacted
 * data) in the origin-tagged carrier `encodeReasoning`, so Anthropic's signed thinking comes back
 * even when no summary was shown. A Gemini signature on a function call goes in a thought step
 * just before the call (the wire's `function_call` has no signature field); one on answer text
 * in a thought step right after its `model_output`.
 */
import { encodeAnnotations, encodeSearchSteps } from './web-search.ts';
import {
  assertNever,
  encodeReasoning,
  lendCallSignatures,
  type ChatRequest,
  type ChatResponse,
  type FinishReason,
  type MediaSource,
  type Part,
  type Signature,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { encodeStatus } from './status.ts';
import { encodeUsage } from './usage.ts';
import type { Interaction, InteractionsEventError, InteractionStatus } from './wire-events.ts';
import type { AnyStep, FunctionCallStep, InteractionsContent, ThoughtStep } from './wire.ts';

/** Interaction ids as the API writes them (`v1_…` in the docs' captures); another vendor's id gets a fresh one. */
export function interactionId(id: string | undefined, ctx: TranslateContext): string {
  return id && id.startsWith('v1_') ? id : ctx.newId('v1_');
}

/** ISO 8601 to the second (`YYYY-MM-DDThh:mm:ssZ`), as the SDK documents `created` / `updated`. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The caller asked for thought summaries (`generation_config.thinking_summaries: "auto"`). */
export function wantsSummaries(req: ChatRequest): boolean {
  return req.reasoning?.includeThoughts === true;
}

/** `previous_interaction_id` of the request, when the request decoder kept it in extras. */
export function previousIdOf(req: ChatRequest): string | undefined {
  const x = req.extras;
  if (x?.dialect !== 'gemini-interactions') return undefined;
  const id = x.fields['previous_interaction_id'] ?? x.hints?.['previous_interaction_id'];
  return typeof id === 'string' ? id : undefined;
}

/** What a thought step's `signature` holds for a reasoning block: Gemini's raw, else the carrier. */
export function thoughtSignature(text: string, signature?: Signature, redacted?: Signature): string | undefined {
  if (redacted) return encodeReasoning({ text, redacted });
  if (!signature) return undefined;
  return signature.origin === 'gemini' ? signature.value : encodeReasoning({ text, signature });
}

export function thoughtStep(summary: string | undefined, signature: string | undefined): ThoughtStep {
  return {
    type: 'thought',
    ...(signature !== undefined ? { signature } : {}),
    ...(summary !== undefined ? { summary: summary ? [{ type: 'text', text: summary }] : [] } : {}),
  };
}

/** A call's JSON argument text as the object the wire wants (`{}` when it is not a JSON object). */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text); // '' throws: {}
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function mediaContent(type: 'image' | 'audio' | 'document', source: MediaSource): InteractionsContent {
  switch (source.type) {
    case 'base64':
      return { type, data: source.data, mime_type: source.mediaType };
    case 'url':
      return { type, uri: source.url, ...(source.mediaType ? { mime_type: source.mediaType } : {}) };
    case 'file-id':
      return { type, uri: source.id, ...(source.mediaType ? { mime_type: source.mediaType } : {}) };
  }
}

/** One choice's parts → output steps. */
export function stepsOf(given: readonly Part[], summaries: boolean): AnyStep[] {
  // A thought Gemini left unsigned (it signs the call after it) carries that call's signature, in
  // the one thought step before the call (every thought step signed).
  const parts = lendCallSignatures(given);
  const steps: AnyStep[] = [];
  let output: InteractionsContent[] | undefined;
  let textSignature: Signature | undefined;
  const close = () => {
    if (output) steps.push({ type: 'model_output', content: output });
    output = undefined;
    if (textSignature) steps.push(thoughtStep(undefined, thoughtSignature('', textSignature)));
    textSignature = undefined;
  };
  /** The signature of the thought step the part just before pushed (a lent one is not pushed twice). */
  let thought: string | undefined;
  for (const p of parts) {
    const before = thought;
    thought = undefined;
    switch (p.type) {
      case 'text':
      case 'refusal': {
        // Stryker disable next-line ConditionalExpression: a refusal has no citations, which encodeAnnotations gives no annotation too
        const annotations = p.type === 'text' ? encodeAnnotations(p.citations, p.text) : [];
        (output ??= []).push({ type: 'text', text: p.text, ...(annotations.length > 0 ? { annotations } : {}) });
        // Stryker disable next-line ConditionalExpression: a refusal has no signature
        if (p.type === 'text' && p.signature) textSignature = p.signature;
        break;
      }
      case 'image':
      case 'audio':
        (output ??= []).push(mediaContent(p.type, p.source));
        break;
      case 'file':
        (output ??= []).push(mediaContent('document', p.source));
        break;
      case 'reasoning': {
        close();
        const signature = thoughtSignature(p.text, p.signature, p.redacted);
        if (signature !== undefined || summaries) steps.push(thoughtStep(summaries ? p.text : undefined, signature));
        thought = signature;
        break;
      }
      case 'tool-call': {
        close();
        const signature = p.signature && thoughtSignature('', p.signature);
        if (signature && signature !== before) steps.push(thoughtStep(undefined, signature));
        const call: FunctionCallStep = { type: 'function_call', id: p.id, name: p.name, arguments: argumentsObject(p.arguments) };
        steps.push(call);
        break;
      }
      case 'tool-result':
        break; // never part of an answer
      case 'web-search':
        close();
        steps.push(...encodeSearchSteps(p));
        break;
      default:
        assertNever(p, 'part');
    }
  }
  close();
  return steps;
}

/** The `errors` of a failed Interaction. */
function errorsOf(reason: FinishReason | undefined): InteractionsEventError[] {
  // Stryker disable next-line OptionalChaining: only a choice's error finish reason makes the status failed, so it is there
  return [{ code: 'internal', message: `The model's output ended in an error${reason?.raw ? ` (${reason.raw})` : ''}.` }];
}

export function encodeResponse(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): unknown {
  const choice = res.choices[0];
  const parts = choice?.content ?? [];
  const toolCalls = parts.some((p) => p.type === 'tool-call');
  const status: InteractionStatus = !choice && res.promptBlocked ? 'incomplete' : encodeStatus(choice?.finishReason, toolCalls);
  const at = isoSeconds(ctx.now());
  const previous = previousIdOf(req);
  const interaction: Interaction = {
    id: interactionId(res.id, ctx),
    object: 'interaction',
    model: res.model || req.model,
    status,
    steps: stepsOf(parts, wantsSummaries(req)),
    ...(res.usage ? { usage: encodeUsage(res.usage) } : {}),
    created: at,
    updated: at,
    ...(previous ? { previous_interaction_id: previous } : {}),
    // Stryker disable next-line OptionalChaining: a failed status needs a choice (with no choice it is completed or incomplete)
    ...(status === 'failed' ? { errors: errorsOf(choice?.finishReason) } : {}),
  };
  return interaction;
}
