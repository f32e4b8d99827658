/** Tool-call ids on the wire: plain, or carrying a vendor signature (see canonical carrier.ts). */
import { decodeToolCallId, type Signature } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import type { OpenAIChatWireToolCall } from './wire.ts';

/** Gemini's OpenAI-compatible endpoint puts thought signatures in `extra_content.google`. */
export function googleSignatureOf(extra: unknown): Signature | undefined {
  if (!extra || typeof extra !== 'object') return undefined;
  const google = (extra as Record<string, unknown>)['google'];
  if (!google || typeof google !== 'object') return undefined;
  const sig = (google as Record<string, unknown>)['thought_signature'];
  return typeof sig === 'string' && sig ? { origin: 'gemini', value: sig } : undefined;
}

/** A wire tool call's id (plain, or carrying a signature) and its signature. */
export function toolCallIdentity(
  call: OpenAIChatWireToolCall,
  ctx: TranslateContext,
): { id: string; signature?: Signature } {
  const decoded = call.id ? decodeToolCallId(call.id) : { id: ctx.newId('call_') };
  const signature = decoded.signature ?? googleSignatureOf(call.extra_content);
  return signature ? { id: decoded.id, signature } : { id: decoded.id };
}

