/**
 * Gemini signs a call, not the thought before it: generateContent puts `thoughtSignature` on the
 * first `functionCall` part, so its thought arrives unsigned and its call signed. A caller whose
 * reasoning block has a signature field of its own (Anthropic `thinking.signature`, Responses
 * `encrypted_content`, an Interactions `thought` step) would see that field empty, which strict
 * clients refuse or drop. So the unsigned reasoning right before a signed call is shown the call's
 * signature too (`lendCallSignatures`, and `CallSignatureLender` for streams), and a reasoning
 * part that comes back with the very signature of the call after it gives it back
 * (`withoutLentSignatures`): the upstream gets the conversation as it answered it.
 * https://ai.google.dev/gemini-api/docs/thought-signatures
 */
import type { Part, Signature } from './parts.ts';
import type { StreamEvent, StreamStep } from './stream.ts';

const sameSignature = (a: Signature | undefined, b: Signature | undefined): boolean => !!a && !!b && a.origin === b.origin && a.value === b.value;
/** A call signed by Gemini (the only vendor that signs calls). */
const geminiSigned = (p: Part | undefined): p is Extract<Part, { type: 'tool-call' }> & { signature: Signature } => p?.type === 'tool-call' && p.signature?.origin === 'gemini';

/** The parts with each unsigned reasoning part right before a signed call signed as that call is. */
export function lendCallSignatures(parts: readonly Part[]): Part[] {
  return parts.map((p, i) => {
    const next = parts[i + 1];
    if (p.type !== 'reasoning' || p.signature || p.redacted || !geminiSigned(next)) return p;
    return { ...p, signature: next.signature };
  });
}

/** The inverse: a reasoning part signed as the call right after it is is unsigned again. */
export function withoutLentSignatures(parts: Part[]): Part[] {
  let changed = false;
  const out = parts.map((p, i) => {
    const next = parts[i + 1];
    if (p.type !== 'reasoning' || !geminiSigned(next) || !sameSignature(p.signature, next.signature)) return p;
    changed = true;
    const { signature: _lent, ...rest } = p;
    return rest;
  });
  return changed ? out : parts;
}

/**
 * `lendCallSignatures` on a stream: an unsigned `reasoning-end` is held until the next event, and
 * takes the signature of a `tool-call-start` of the same choice that comes right after it.
 */
export class CallSignatureLender implements StreamStep<StreamEvent, StreamEvent> {
  private held?: Extract<StreamEvent, { type: 'reasoning-end' }>;
  /** Choices whose open reasoning is redacted data (nothing to lend to). */
  private readonly redacted = new Set<number>();

  push(e: StreamEvent): StreamEvent[] {
    const out: StreamEvent[] = [];
    const held = this.held;
    if (held) {
      this.held = undefined;
      const lend = e.type === 'tool-call-start' && e.signature?.origin === 'gemini' && (e.choice ?? 0) === (held.choice ?? 0);
      out.push(lend ? { ...held, signature: e.signature } : held);
    }
    if (e.type === 'reasoning-start' && e.redacted) this.redacted.add(e.choice ?? 0);
    if (e.type === 'reasoning-end' && !e.signature && !this.redacted.has(e.choice ?? 0)) {
      this.held = e;
      return out;
    }
    if (e.type === 'reasoning-end') this.redacted.delete(e.choice ?? 0);
    out.push(e);
    return out;
  }

  finish(): StreamEvent[] {
    const held = this.held;
    this.held = undefined;
    return held ? [held] : [];
  }
}

/**
 * `step` shown its events through a `CallSignatureLender` first. Every other member of the step
 * (a caller encoder's `forwarded`, `kept`…) is the step's own, called on the step itself.
 */
export function lendingCallSignatures<S extends StreamStep<StreamEvent, unknown>>(step: S): S {
  const lender = new CallSignatureLender();
  const push = (e: StreamEvent) => lender.push(e).flatMap((x) => step.push(x));
  const finish = () => [...lender.finish().flatMap((x) => step.push(x)), ...step.finish()];
  return new Proxy(step, {
    get(target, key) {
      if (key === 'push') return push;
      if (key === 'finish') return finish;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
