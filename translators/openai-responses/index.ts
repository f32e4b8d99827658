/**
 * The OpenAI Responses dialect, both sides (`POST /v1/responses`, `/v1/responses/input_tokens`;
 * upstream `{base}/responses`). https://platform.openai.com/docs/api-reference/responses
 *
 * As an upstream it has freeform tools (`customTools`), so the flow sends them as they are; for
 * any other upstream it lowers them (src/flows/custom-tools.ts).
 */
import { lendingCallSignatures } from '../../src/canonical/index.ts';
import type { ChatDialect } from '../types.ts';
import { compacted, compactionTurn, compactionTurnFrames } from './compaction.ts';
import { checkReferences, decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodeKept, encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';
import { decodeModelList, encodeModelList, encodeModelListRequest } from './model-list.ts';
import { decodeCountTokens, encodeCountTokens, encodeCountTokensResponse } from './count-tokens.ts';
import { OpenAIResponsesStreamDecoder } from './stream-decoder.ts';
import { OpenAIResponsesStreamEncoder } from './stream-encoder.ts';
import { responsesState } from './state.ts';
import { settingNames } from './setting-names.ts';

const SEARCH_ONLY: ReadonlySet<'search' | 'fetch'> = new Set(['search']);

export const openaiResponses: ChatDialect = {
  id: 'openai-responses',
  settingNames,
  vendor: 'openai',
  inlineMediaOnly: false,
  multipleChoices: false,
  customTools: true,

  decodeRequest: (input) => decodeRequest(input),
  forward: {
    model: { in: 'body' },
    conversation: 'input',
    standIn: '.',
    // A malformed reference is the decoder's 400, wherever it is.
    decodeMarks: ['item_reference'],
  },
  encodeResponse,
  encodeKept,
  // A reasoning item shows the signature of the call Gemini signed after it (lent-signatures.ts).
  createStreamEncoder: (req, ctx) => lendingCallSignatures(new OpenAIResponsesStreamEncoder(req, ctx)),
  encodeError,
  encodeModelList,
  encodeCountTokensResponse,
  state: responsesState,
  checkReferences,
  compaction: { beforeTurn: true, turn: compactionTurn, turnFrames: compactionTurnFrames, compacted },

  // Responses has a hosted search and no hosted fetch (web-tools.ts).
  hostedWebTools: () => SEARCH_ONLY,
  encodeRequest: (req, target) => encodeRequest(req, target),
  decodeResponse,
  createStreamDecoder: (req, ctx) => new OpenAIResponsesStreamDecoder(req, ctx),
  decodeError,
  encodePassthrough,
  forwardRequest,
  encodeModelListRequest,
  decodeModelList,
  encodeCountTokens: (req, target) => encodeCountTokens(req, target),
  decodeCountTokens,
};
