/** Caller side: canonical `ChatResponse` → a `chat.completion` object as OpenAI sends it. */
import {
  encodeToolCallId,
  type ChatRequest,
  type ChatResponse,
  type Choice,
  type ReasoningPart,
  type ToolCallPart,
} from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { encodeFinishReason } from './finish-reason.ts';
import { usesLegacyFunctions } from './legacy.ts';
import { encodeLogprobs } from './logprobs.ts';
import { encodeReasoning, textSignature } from './reasoning.ts';
import { encodeUsage } from './usage.ts';
import type { OpenAIChatOutToolCall } from './wire.ts';
import { encodeAnnotations } from './citations.ts';

/** OpenAI ids look like `chatcmpl-…`; other vendors' ids get the prefix. */
export function completionId(id: string | undefined, ctx: TranslateContext): string {
  if (!id) return ctx.newId('chatcmpl-');
  return id.startsWith('chatcmpl-') ? id : `chatcmpl-${id}`;
}


export function encodeToolCall(p: ToolCallPart): OpenAIChatOutToolCall {
  return {
    id: encodeToolCallId(p.id, p.signature),
    type: 'function',
    function: { name: p.name, arguments: p.arguments },
  };
}

function sameDialect(extras: ChatResponse['extras']): Record<string, unknown> {
  return extras?.dialect === 'openai-chat' ? extras.fields : {};
}

function encodeChoice(
  choice: Choice,
  legacy: boolean,
  ctx: TranslateContext,
): Record<string, unknown> {
  let text: string | null = null;
  const refusals: string[] = [];
  const annotations: unknown[] = [];
  const reasoning: ReasoningPart[] = [];
  const textSignatures: ReasoningPart[] = [];
  const calls: ToolCallPart[] = [];
  let audio: Record<string, unknown> | undefined;
  const extras = sameDialect(choice.extras);
  // Stryker disable next-line BooleanLiteral: before the first non-empty text, `text` is empty, so no break is added either way
  let apart = false;
  for (const p of choice.content) {
    switch (p.type) {
      case 'web-search':
        // The text before a search and the text after it are two paragraphs, not one sentence.
        apart = true;
        break;
      case 'text': {
        if (apart && text && p.text) text += '\n\n';
        if (p.text) apart = false;
        const offset = (text ?? '').length;
        text = (text ?? '') + p.text;
        annotations.push(...encodeAnnotations(p.citations, offset, p.text.length));
        const signed = textSignature(p);
        if (signed) textSignatures.push(signed);
        break;
      }
      case 'refusal':
        refusals.push(p.text);
        break;
      case 'reasoning':
        reasoning.push(p);
        break;
      case 'tool-call':
        calls.push(p);
        break;
      case 'audio':
        if (p.source.type === 'base64') {
          audio = {
            id: ctx.newId('audio_'),
            data: p.source.data,
            expires_at: Math.floor(ctx.now() / 1000) + 3600,
            transcript: '',
          };
        }
        break;
      // images, files and tool results have no place in an assistant message
    }
  }
  if (extras['audio'] && typeof extras['audio'] === 'object') audio = extras['audio'] as Record<string, unknown>;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text,
    refusal: refusals.length > 0 ? refusals.join('') : null,
    ...encodeReasoning([...reasoning, ...textSignatures]),
    annotations,
  };
  if (calls.length > 0) {
    if (legacy) {
      const first = calls[0]!;
      message['function_call'] = { name: first.name, arguments: first.arguments };
    } else {
      message['tool_calls'] = calls.map(encodeToolCall);
    }
  }
  if (audio) message['audio'] = audio;
  const out: Record<string, unknown> = {
    index: choice.index,
    message,
    logprobs: encodeLogprobs(choice.logprobs),
    finish_reason: encodeFinishReason(choice.finishReason, legacy),
  };
  if (extras['content_filter_results'] !== undefined) out['content_filter_results'] = extras['content_filter_results'];
  return out;
}

export function encodeResponse(res: ChatResponse, req: ChatRequest, ctx: TranslateContext): unknown {
  const legacy = usesLegacyFunctions(req);
  const extras = sameDialect(res.extras);
  let choices = res.choices.map((c) => encodeChoice(c, legacy, ctx));
  if (choices.length === 0 && res.promptBlocked) {
    // A blocked prompt has no candidates elsewhere; OpenAI reports it as a filtered choice.
    choices = [
      {
        index: 0,
        message: { role: 'assistant', content: null, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'content_filter',
      },
    ];
  }
  const out: Record<string, unknown> = {
    id: completionId(res.id, ctx),
    object: 'chat.completion',
    created: res.created,
    model: res.model,
    choices,
  };
  if (res.usage) out['usage'] = encodeUsage(res.usage);
  if (extras['service_tier'] !== undefined) out['service_tier'] = extras['service_tier'];
  if (extras['system_fingerprint'] !== undefined) out['system_fingerprint'] = extras['system_fingerprint'];
  if (extras['prompt_filter_results'] !== undefined) out['prompt_filter_results'] = extras['prompt_filter_results'];
  return out;
}
