/** The OpenAI Chat Completions dialect: caller side and upstream side. */
import type { ChatDialect } from '../types.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodeResponse } from './encode-response.ts';
import { decodeError, encodeError } from './errors.ts';
import { OpenAIChatStreamDecoder } from './stream-decoder.ts';
import { OpenAIChatStreamEncoder } from './stream-encoder.ts';
import { encodePassthrough, forwardRequest } from './passthrough.ts';
import { decodeModelList, encodeModelList, encodeModelListRequest } from './model-list.ts';
import { settingNames } from './setting-names.ts';
import { chatHostedWebTools } from './web-tools.ts';

export const openaiChat: ChatDialect = {
  id: 'openai-chat',
  settingNames,
  vendor: 'openai',
  inlineMediaOnly: false,
  multipleChoices: true,

  decodeRequest,
  forward: { model: { in: 'body' }, conversation: 'messages', standIn: [{ role: 'user', content: '.' }] },
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
