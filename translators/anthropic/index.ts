/**
 * The Anthropic Messages dialect, both sides (`POST /v1/messages`, `/v1/messages/count_tokens`).
 * https://docs.claude.com/en/api/messages
 */
import { decodeModelList, encodeModelListRequest } from './model-list.ts';
import { checkedExcept, modelAndStream } from '../../src/canonical/index.ts';
import type { ChatDialect } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import {
  decodeCountTokens,
  encodeCountTokens,
  encodePassthrough,
  encodeRequest,
  forwardRequest,
} from './encode-request.ts';
import { encodeCountTokensResponse, encodeModelList, encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { createStreamEncoder } from './stream-encoder.ts';

export const anthropic: ChatDialect = {
  id: 'anthropic',
  vendor: 'anthropic',
  decodeRequest: (input) => decodeRequest(input),
  peekRequest: (input, { bytes, top }) => {
    const bare = (body: unknown) => ({ headers: input.headers, params: input.params, query: input.query, body });
    return checkedExcept(bytes, top, 'messages', [{ role: 'user', content: '.' }], (body) => decodeRequest(bare(body))) ? modelAndStream(top) : undefined;
  },
  encodeResponse,
  createStreamEncoder,
  encodeError,
  encodeModelList,
  encodeCountTokensResponse,
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
