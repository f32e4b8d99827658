/**
 * The Anthropic Messages dialect, both sides (`POST /v1/messages`, `/v1/messages/count_tokens`).
 * https://docs.claude.com/en/api/messages
 */
import { decodeModelList, encodeModelListRequest } from './model-list.ts';
import type { ChatDialect } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import {
  decodeCountTokens,
  encodeCountTokens,
  encodePassthrough,
  encodeRequest,
} from './encode-request.ts';
import { encodeCountTokensResponse, encodeModelList, encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { createStreamDecoder } from './stream-decoder.ts';
import { createStreamEncoder } from './stream-encoder.ts';

export const anthropic: ChatDialect = {
  id: 'anthropic',
  vendor: 'anthropic',
  decodeRequest: (input) => decodeRequest(input),
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
  encodeModelListRequest,
  decodeModelList,
  encodeCountTokens: (req, target) => encodeCountTokens(req, target),
  decodeCountTokens,
};
