/**
 * The deprecated `functions` / `function_call` API. A caller that used it expects the reply in
 * the same shape (`message.function_call`, `finish_reason: "function_call"`). The canonical
 * request has no field for that, so the flag rides on this dialect's own `extras` object as an
 * extra property that `extrasFor` never replays upstream (see the report: a canonical
 * `callerHints` field would be the clean home).
 */
import type { ChatRequest, Extras } from '../../src/canonical/index.ts';

export interface OpenAIChatExtras extends Extras {
  /** The caller declared `functions` (not `tools`). */
  legacyFunctions?: true;
}

export function usesLegacyFunctions(req: Pick<ChatRequest, 'extras'>): boolean {
  const extras = req.extras as OpenAIChatExtras | undefined;
  return extras?.dialect === 'openai-chat' && extras.legacyFunctions === true;
}
