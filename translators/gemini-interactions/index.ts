/**
 * The Gemini Interactions dialect, both sides (`POST /v1beta/interactions` and `/v1/interactions`,
 * `GET`/`DELETE …/interactions/{id}`, `POST …/{id}/cancel`; upstream `{base}/v1beta/interactions`).
 * https://ai.google.dev/gemini-api/docs/interactions — wire facts in ../shared/spec/interactions-api.md.
 *
 * Stateful like Responses: `store` defaults to true and `previous_interaction_id` continues a kept
 * interaction. Toward an upstream of this dialect that state is the upstream's (passthrough);
 * toward any other, the flow serves it from the state store by these rules (`state`), the stream's
 * answer rebuilt from its frames (`collect`: the completed frame holds no steps). As an
 * upstream it is always called with `store: false`, so the proxy itself stays stateless.
 * The vendor is Gemini: thought signatures are Gemini's own, replayed raw.
 */
import { EVERY_WEB_TOOL, lendingCallSignatures } from '../../src/canonical/index.ts';
import type { ChatDialect } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';
import { encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { interactionsState } from './state.ts';
import { InteractionsStreamDecoder } from './stream-decoder.ts';
import { InteractionsStreamEncoder } from './stream-encoder.ts';
import { settingNames } from './setting-names.ts';

export const geminiInteractions: ChatDialect = {
  id: 'gemini-interactions',
  settingNames,
  vendor: 'gemini',
  hostedWebTools: () => EVERY_WEB_TOOL,
  // As for generateContent: a `uri` must be a Files API or Cloud Storage URI, so web URLs are inlined.
  inlineMediaOnly: true,
  multipleChoices: false,

  decodeRequest: (input) => decodeRequest(input),
  // Same dialect both sides: forwarded as bytes, its settings checked with the input left out.
  forward: { model: { in: 'body' }, conversation: 'input', standIn: '.' },
  encodeResponse,
  // A thought step shows the signature of the call Gemini signed after it (lent-signatures.ts).
  createStreamEncoder: (req, ctx) => lendingCallSignatures(new InteractionsStreamEncoder(req, ctx)),
  encodeError,
  state: interactionsState,

  encodeRequest: (req, target) => encodeRequest(req, target),
  decodeResponse,
  createStreamDecoder: (req, ctx) => new InteractionsStreamDecoder(req, ctx),
  decodeError,
  encodePassthrough,
  forwardRequest,
};
