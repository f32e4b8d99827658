/**
 * Reasoning through the Chat Completions wire, which has no field for it. Readable thought text
 * goes in `reasoning_content` (DeepSeek's field, read by most OpenAI-compatible clients); the
 * exact blocks with their vendor signatures go in `reasoning_details` (OpenRouter's shape), each
 * signature wrapped by `encodeSignature` so it is only ever replayed to the vendor that issued it.
 */
import * as v from 'valibot';
import {
  decodeSignature,
  encodeSignature,
  type Part,
  type ReasoningPart,
  type Signature,
  type Vendor,
} from '../../src/canonical/index.ts';
import { OpenAIChatReasoningDetailSchema } from './wire-request.ts';
import type { OpenAIChatOutReasoningDetail } from './wire.ts';

/** OpenRouter's `format` tag on a raw (non-carrier) detail → the vendor that issued it. */
function vendorOfFormat(format: unknown): Vendor | undefined {
  if (typeof format !== 'string') return undefined;
  if (format.startsWith('anthropic')) return 'anthropic';
  if (format.startsWith('google')) return 'gemini';
  if (format.startsWith('openai')) return 'openai';
  return undefined;
}

function signatureOf(value: string | null | undefined, format: unknown): Signature | undefined {
  if (!value) return undefined;
  const carried = decodeSignature(value);
  if (carried) return carried;
  const origin = vendorOfFormat(format);
  return origin ? { origin, value } : undefined;
}

/**
 * Reasoning parts from an assistant message's `reasoning_details`, else from its plain
 * `reasoning_content` / `reasoning` text (without signature).
 */
export function decodeReasoning(
  details: readonly unknown[] | null | undefined,
  text: string | null | undefined,
): ReasoningPart[] {
  const parts: ReasoningPart[] = [];
  // Stryker disable next-line ArrayDeclaration: a string is no reasoning detail, so it is skipped
  for (const raw of details ?? []) {
    const parsed = v.safeParse(OpenAIChatReasoningDetailSchema, raw);
    if (!parsed.success) continue;
    const d = parsed.output;
    const format = (d as Record<string, unknown>)['format'];
    switch (d.type) {
      case 'reasoning.text': {
        const signature = signatureOf(d.signature, format);
        parts.push({ type: 'reasoning', text: d.text ?? '', ...(signature ? { signature } : {}) });
        break;
      }
      case 'reasoning.summary':
        parts.push({ type: 'reasoning', text: d.summary ?? '' });
        break;
      case 'reasoning.encrypted': {
        const redacted = signatureOf(d.data, format);
        if (redacted) parts.push({ type: 'reasoning', text: '', redacted });
        break;
      }
    }
  }
  if (parts.length === 0 && text) parts.push({ type: 'reasoning', text });
  return parts;
}

/** `reasoning_content` (all thought text) and, when any part is signed, `reasoning_details`. */
export function encodeReasoning(parts: readonly ReasoningPart[]): {
  reasoning_content?: string;
  reasoning_details?: OpenAIChatOutReasoningDetail[];
} {
  const text = parts.map((p) => p.text).join('');
  const signed = parts.some((p) => p.signature || p.redacted);
  const out: { reasoning_content?: string; reasoning_details?: OpenAIChatOutReasoningDetail[] } = {};
  if (text) out.reasoning_content = text;
  if (signed) out.reasoning_details = parts.map(encodeReasoningDetail);
  return out;
}

export function encodeReasoningDetail(p: ReasoningPart): OpenAIChatOutReasoningDetail {
  if (p.redacted) return { type: 'reasoning.encrypted', data: encodeSignature(p.redacted) };
  return {
    type: 'reasoning.text',
    text: p.text,
    ...(p.signature ? { signature: encodeSignature(p.signature) } : {}),
  };
}

/**
 * Gemini signs answer text too (a `thoughtSignature` on the text part). Chat Completions has no
 * field for that, so it rides as an empty signed `reasoning_details` entry (`textSignature`), and
 * on the way back goes onto the message's last text again (`attachTextSignature`).
 */
export function textSignature(part: Extract<Part, { type: 'text' }>): ReasoningPart | undefined {
  return part.signature ? { type: 'reasoning', text: '', signature: part.signature } : undefined;
}

export function attachTextSignature(parts: Part[]): Part[] {
  const at = parts.findIndex((p) => p.type === 'reasoning' && p.text === '' && !p.redacted && p.signature?.origin === 'gemini');
  let textAt = -1;
  parts.forEach((p, i) => {
    if (p.type === 'text' && !p.signature) textAt = i;
  });
  if (at < 0 || textAt < 0) return parts;
  const sig = (parts[at] as ReasoningPart).signature!;
  return parts.flatMap((p, i) => (i === at ? [] : i === textAt ? [{ ...p, signature: sig } as Part] : [p]));
}
