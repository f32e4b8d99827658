/**
 * Caller side: canonical `ChatResponse` → Gemini GenerateContentResponse.
 *
 * Reasoning → `{text, thought: true}`; signatures → `thoughtSignature` (Gemini values raw,
 * other vendors' through the carrier, see signatures.ts); tool calls → whole `functionCall`
 * `{id, name, args}` objects. A blocked prompt is HTTP 200 with `promptFeedback.blockReason`
 * and no `candidates`, as the real service answers.
 */
import { assertNever, ProxyError, type ChatResponse, type Choice, type Part } from '../../src/canonical/index.ts';
import { encodeFinishReason } from './finish-reason.ts';
import { encodeLogprobs } from './logprobs.ts';
import { redactedToWire, signatureToWire } from './signatures.ts';
import { encodeUsage, type GeminiUsageOut } from './usage.ts';
import { mediaToWire } from './encode-contents.ts';
import type { GeminiOutPart } from './wire.ts';
import { encodeGrounding } from './grounding.ts';

/** Tool-call argument text → the object a Gemini caller expects. */
export function argsObject(args: string, name: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    throw new ProxyError('upstream', `the upstream produced invalid JSON arguments for tool '${name}'`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProxyError('upstream', `the upstream produced non-object arguments for tool '${name}'`);
  }
  return value as Record<string, unknown>;
}

export function encodePart(part: Part): GeminiOutPart | undefined {
  switch (part.type) {
    case 'text':
      return { text: part.text, ...(part.signature ? { thoughtSignature: signatureToWire(part.signature) } : {}) };
    case 'refusal':
      return { text: part.text };
    case 'reasoning':
      if (part.redacted) return { text: '', thought: true, thoughtSignature: redactedToWire(part.redacted) };
      return { text: part.text, thought: true, ...(part.signature ? { thoughtSignature: signatureToWire(part.signature) } : {}) };
    case 'tool-call':
      return {
        functionCall: { id: part.id, name: part.name, args: argsObject(part.arguments, part.name) },
        ...(part.signature ? { thoughtSignature: signatureToWire(part.signature) } : {}),
      };
    case 'image':
      return mediaToWire(part.source, 'image/png');
    case 'audio':
      return mediaToWire(part.source, 'audio/wav');
    case 'file':
      return mediaToWire(part.source, 'application/octet-stream');
    case 'tool-result':
    case 'web-search': // the candidate's groundingMetadata (grounding.ts)
      return undefined;
    default:
      return assertNever(part, 'part');
  }
}

export interface GeminiCandidateOut {
  content: { role: 'model'; parts?: GeminiOutPart[] };
  finishReason?: string;
  index: number;
  [key: string]: unknown;
}

export function encodeCandidate(choice: Choice): GeminiCandidateOut {
  const parts = choice.content.map(encodePart).filter((p): p is GeminiOutPart => p !== undefined);
  const candidate: GeminiCandidateOut = {
    content: parts.length > 0 ? { parts, role: 'model' } : { role: 'model' },
    finishReason: encodeFinishReason(choice.finishReason),
    index: choice.index,
  };
  if (choice.extras?.dialect === 'gemini') {
    for (const [k, v] of Object.entries(choice.extras.fields)) if (v !== undefined) candidate[k] = v;
  } else Object.assign(candidate, encodeGrounding(choice.content));
  const logprobs = encodeLogprobs(choice.logprobs);
  if (logprobs) candidate.logprobsResult = logprobs;
  return candidate;
}

export interface GeminiResponseOut {
  candidates?: GeminiCandidateOut[];
  promptFeedback?: unknown;
  usageMetadata?: GeminiUsageOut;
  modelVersion: string;
  responseId: string;
}

export function encodeResponse(res: ChatResponse): GeminiResponseOut {
  const out: GeminiResponseOut = { modelVersion: res.model, responseId: res.id };
  if (res.promptBlocked) {
    const raw = res.promptBlocked.raw;
    out.promptFeedback =
      typeof raw === 'object' && raw !== null && 'blockReason' in raw ? raw : { blockReason: res.promptBlocked.reason };
  } else {
    out.candidates = res.choices.map(encodeCandidate);
    const feedback = res.extras?.dialect === 'gemini' ? res.extras.fields.promptFeedback : undefined;
    if (feedback !== undefined) out.promptFeedback = feedback;
  }
  if (res.usage) out.usageMetadata = encodeUsage(res.usage);
  // Key order as the service writes it.
  const { candidates, promptFeedback, usageMetadata, modelVersion, responseId } = out;
  return {
    ...(candidates ? { candidates } : {}),
    ...(promptFeedback !== undefined ? { promptFeedback } : {}),
    ...(usageMetadata ? { usageMetadata } : {}),
    modelVersion,
    responseId,
  };
}
