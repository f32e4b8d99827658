/**
 * The Anthropic Messages dialect, both sides (`POST /v1/messages`, `/v1/messages/count_tokens`).
 * https://docs.claude.com/en/api/messages
 */
import { EVERY_WEB_TOOL, lendingCallSignatures } from '../../src/canonical/index.ts';
import type { ChatDialect } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { createStreamEncoder } from './stream-encoder.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';
import { decodeModelList, encodeModelList, encodeModelListRequest } from './model-list.ts';
import { decodeCountTokens, encodeCountTokens, encodeCountTokensResponse } from './count-tokens.ts';
import { settingNames } from './setting-names.ts';

export const anthropic: ChatDialect = {
  id: 'anthropic',
  settingNames,
  vendor: 'anthropic',
  hostedWebTools: () => EVERY_WEB_TOOL,
  decodeRequest: (input) => decodeRequest(input),
  forward: {
    model: { in: 'body' },
    conversation: 'messages',
    standIn: [{ role: 'user', content: '.' }],
    // The version header (required) and the route (count_tokens needs no max_tokens).
    reads: { headers: ['anthropic-version', 'compat-version'], params: ['method'] },
  },
  encodeResponse,
  // A thinking block shows the signature of the call Gemini signed after it (lent-signatures.ts).
  createStreamEncoder: (req, ctx) => lendingCallSignatures(createStreamEncoder(req, ctx)),
  encodeError,
  encodeModelList,
  encodeCountTokensResponse,
  // compact_20260112 made by the proxy: its compaction block first in the answer.
  compaction: { beforeTurn: true },
  encodeRequest,
  decodeResponse,
  createStreamDecoder,
  decodeError,
  encodePassthrough,
  forwardRequest,
  encodeModelListRequest,
  decodeModelList,
  encodeCountTokens: (req, target) => encodeCountTokens(req, target),
  decodeCountTokens,
};
