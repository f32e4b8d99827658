/** The OpenAI Chat Completions dialect: caller side and upstream side. */
import { decodeModelList, encodeModelListRequest } from './model-list.ts';
import { bareInput, checkedExcept, modelAndStream } from '../../src/kit/index.ts';
import type { ChatDialect } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodePassthrough, encodeRequest, forwardRequest } from './encode-request.ts';
import { encodeModelList, encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';
import { OpenAIChatStreamEncoder } from './stream-encoder.ts';
import { settingNames } from './setting-names.ts';
import { chatHostedWebTools } from './web-tools.ts';

export const openaiChat: ChatDialect = {
  id: 'openai-chat',
  settingNames,
  vendor: 'openai',
  inlineMediaOnly: false,
  multipleChoices: true,

  decodeRequest,
  forward: {
    model: (_input, top) => top && modelAndStream(top),
    conversation: 'messages',
    checkKey: () => '',
    check: (input, { bytes, top }, ctx) => checkedExcept(bytes, top, 'messages', [{ role: 'user', content: '.' }], (body) => decodeRequest({ ...bareInput(input), body }, ctx)),
  },
  encodeResponse,
  createStreamEncoder: (req, ctx) => new OpenAIChatStreamEncoder(req, ctx),
  encodeError,
  encodeModelList,

  hostedWebTools: chatHostedWebTools,
  encodeRequest: (req, target) => encodeRequest(req, target),
  decodeResponse,
  createStreamDecoder: (req, ctx) => new OpenAIChatStreamDecoder(req, ctx),
  decodeError,
  encodePassthrough,
  forwardRequest,
  encodeModelListRequest,
  decodeModelList,
};
