/** `messages[]` → canonical `system` + `messages` (caller side). */
import {
  decodeToolCallId,
  ProxyError,
  type Message,
  type Part,
  type ToolResultPart,
  type Warning,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { parseDataUrl } from '../../src/kit/index.ts';
import { audioMediaType, mediaTypeOfFilename } from './media.ts';
import { attachTextSignature, decodeReasoning } from './reasoning.ts';
import { googleSignatureOf } from './tool-call-id.ts';
import { parseAt } from './validate.ts';
import {
  OpenAIChatAssistantMessageSchema,
  OpenAIChatAssistantPartSchema,
  OpenAIChatContentMessageSchema,
  OpenAIChatFunctionMessageSchema,
  OpenAIChatRoleSchema,
  OpenAIChatTextOnlyPartSchema,
  OpenAIChatToolCallSchema,
  OpenAIChatToolMessageSchema,
  OpenAIChatUserPartSchema,
  type OpenAIChatUserPart,
} from './wire-request.ts';

export interface DecodedMessages {
  system: Part[];
  messages: Message[];
}

function textParts(content: string | unknown[], param: string): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((raw, j) => {
    const p = parseAt(OpenAIChatTextOnlyPartSchema, raw, `${param}[${j}]`);
    return { type: 'text', text: p.text } satisfies Part;
  });
}

function userPart(p: OpenAIChatUserPart, param: string): Part {
  switch (p.type) {
    case 'text':
      return { type: 'text', text: p.text };
    case 'image_url': {
      const inline = parseDataUrl(p.image_url.url);
      const detail = p.image_url.detail;
      return {
        type: 'image',
        source: inline
          ? { type: 'base64', mediaType: inline.mediaType, data: inline.data }
          : { type: 'url', url: p.image_url.url },
        ...(detail !== undefined ? { detail } : {}),
      };
    }
    case 'input_audio':
      return {
        type: 'audio',
        source: {
          type: 'base64',
          mediaType: audioMediaType(p.input_audio.format),
          data: p.input_audio.data,
        },
        format: p.input_audio.format,
      };
    case 'file': {
      const { file_data, file_id, filename } = p.file;
      const named = filename !== undefined ? { filename } : {};
      if (file_data !== undefined) {
        const inline = parseDataUrl(file_data);
        return {
          type: 'file',
          source: inline
            ? { type: 'base64', mediaType: inline.mediaType, data: inline.data }
            : { type: 'base64', mediaType: mediaTypeOfFilename(filename), data: file_data },
          ...named,
        };
      }
      if (file_id !== undefined) return { type: 'file', source: { type: 'file-id', id: file_id }, ...named };
      throw new ProxyError(
        'invalid-request',
        `Invalid value for '${param}.file': expected one of 'file_data' or 'file_id'.`,
        { param: `${param}.file` },
      );
    }
  }
}

function userParts(content: string | unknown[], param: string): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((raw, j) =>
    userPart(parseAt(OpenAIChatUserPartSchema, raw, `${param}[${j}]`), `${param}[${j}]`),
  );
}

/**
 * Decode the message list. Tool (and deprecated function) messages become `tool-result` parts;
 * consecutive ones share one user message. A system/developer message after the conversation
 * started is moved into `system` with an `approximated` warning (canonical has one system).
 */
export function decodeMessages(
  raw: readonly unknown[],
  ctx: TranslateContext,
  warnings: Warning[],
): DecodedMessages {
  const system: Part[] = [];
  const messages: Message[] = [];
  /** Ids synthesized for deprecated `function_call`s, by function name, for `function` replies. */
  const functionCallIds = new Map<string, string>();
  /** The user message collecting consecutive tool results, if the previous message was one. */
  let toolGroup: Message | undefined;

  const addToolResult = (part: ToolResultPart) => {
    if (!toolGroup) {
      toolGroup = { role: 'user', content: [] };
      messages.push(toolGroup);
    }
    toolGroup.content.push(part);
  };

  raw.forEach((m, i) => {
    const at = `messages[${i}]`;
    const { role } = parseAt(OpenAIChatRoleSchema, m, at);
    if (role !== 'tool' && role !== 'function') toolGroup = undefined;
    switch (role) {
      case 'system':
      case 'developer': {
        const msg = parseAt(OpenAIChatContentMessageSchema, m, at);
        if (messages.length > 0) {
          warnings.push({
            code: 'approximated',
            path: at,
            detail: `${role} message moved into the system prompt`,
          });
        }
        if (msg.name !== undefined) warnings.push({ code: 'dropped', path: `${at}.name` });
        system.push(...textParts(msg.content, `${at}.content`));
        break;
      }
      case 'user': {
        const msg = parseAt(OpenAIChatContentMessageSchema, m, at);
        messages.push({
          role: 'user',
          content: userParts(msg.content, `${at}.content`),
          ...(msg.name !== undefined ? { name: msg.name } : {}),
        });
        break;
      }
      case 'assistant':
        messages.push(decodeAssistant(m, at, ctx, functionCallIds));
        break;
      case 'tool': {
        const msg = parseAt(OpenAIChatToolMessageSchema, m, at);
        addToolResult({
          type: 'tool-result',
          callId: decodeToolCallId(msg.tool_call_id).id,
          content: textParts(msg.content, `${at}.content`),
        });
        break;
      }
      case 'function': {
        const msg = parseAt(OpenAIChatFunctionMessageSchema, m, at);
        addToolResult({
          type: 'tool-result',
          callId: functionCallIds.get(msg.name) ?? ctx.newId('call_'),
          name: msg.name,
          content: msg.content == null ? [] : [{ type: 'text', text: msg.content }],
        });
        break;
      }
    }
  });
  return { system, messages };
}

/** An assistant message: reasoning, content, refusal, audio, then its tool calls (a deprecated `function_call` gets an id, kept by name in `functionCallIds`). */
function decodeAssistant(m: unknown, at: string, ctx: TranslateContext, functionCallIds: Map<string, string>): Message {
  const msg = parseAt(OpenAIChatAssistantMessageSchema, m, at);
  const content: Part[] = [...decodeReasoning(msg.reasoning_details, msg.reasoning_content ?? msg.reasoning)];
  const hasCalls = (msg.tool_calls?.length ?? 0) > 0 || msg.function_call != null;
  if (msg.content == null && !hasCalls && msg.refusal == null && msg.audio == null) {
    throw new ProxyError(
      'invalid-request',
      `Invalid value for '${at}.content': expected a string or an array of parts unless 'tool_calls' or 'function_call' is given.`,
      { param: `${at}.content` },
    );
  }
  if (typeof msg.content === 'string') {
    if (msg.content !== '' || !hasCalls) content.push({ type: 'text', text: msg.content });
  } else if (msg.content) {
    msg.content.forEach((rawPart, j) => {
      const p = parseAt(OpenAIChatAssistantPartSchema, rawPart, `${at}.content[${j}]`);
      content.push(p.type === 'text' ? { type: 'text', text: p.text } : { type: 'refusal', text: p.refusal });
    });
  }
  if (msg.refusal != null) content.push({ type: 'refusal', text: msg.refusal });
  if (msg.audio) content.push({ type: 'audio', source: { type: 'file-id', id: msg.audio.id } });
  msg.tool_calls?.forEach((rawCall, k) => {
    const call = parseAt(OpenAIChatToolCallSchema, rawCall, `${at}.tool_calls[${k}]`);
    const { id, signature } = decodeToolCallId(call.id);
    const sig = signature ?? googleSignatureOf(call.extra_content);
    content.push({
      type: 'tool-call',
      id,
      name: call.function.name,
      arguments: call.function.arguments,
      ...(sig ? { signature: sig } : {}),
    });
  });
  if (msg.function_call) {
    const id = ctx.newId('call_');
    functionCallIds.set(msg.function_call.name, id);
    content.push({
      type: 'tool-call',
      id,
      name: msg.function_call.name,
      arguments: msg.function_call.arguments,
    });
  }
  return {
    role: 'assistant',
    content: attachTextSignature(content),
    ...(msg.name !== undefined ? { name: msg.name } : {}),
  };
}
