/** Upstream side: a chat.completion body → canonical `ChatResponse`. */
import { decodeLogprobs } from './logprobs.ts';
import * as v from 'valibot';
import {
  ProxyError,
  type ChatRequest,
  type ChatResponse,
  type Choice,
  type Part,
} from '../../src/canonical/index.ts';
import {
  safeParseAsIs,
} from '../../src/kit/index.ts';
import type { TranslateContext } from '../types.ts';
import { decodeFinishReason } from './finish-reason.ts';
import { toolCallIdentity } from './tool-call-id.ts';
import { audioFormatOf, audioMediaType, splitContent } from './media.ts';
import { decodeReasoning } from './reasoning.ts';
import { decodeUsage } from './usage.ts';
import {
  OpenAIChatCompletionSchema,
  type OpenAIChatResponseMessage,
} from './wire.ts';
import { citedSearch, decodeAnnotation } from './citations.ts';

/** Format of requested audio output, from the caller's OpenAI `audio` extra if any. */
function requestedAudioFormat(req: ChatRequest): string | undefined {
  const audio = req.extras?.dialect === 'openai-chat' ? req.extras.fields['audio'] : undefined;
  const format = audio && typeof audio === 'object' ? (audio as Record<string, unknown>)['format'] : undefined;
  return typeof format === 'string' ? format : undefined;
}

function decodeMessage(m: OpenAIChatResponseMessage, req: ChatRequest, ctx: TranslateContext): Part[] {
  const content = splitContent(m.content);
  const thought = m.reasoning_content ?? m.reasoning ?? content.reasoning;
  const parts: Part[] = [...decodeReasoning(m.reasoning_details, thought)];
  if (content.text !== '') {
    const citations = (m.annotations ?? []).map(decodeAnnotation);
    const search = req.nativeTools?.some((t) => t.web) ? citedSearch(citations, ctx.newId('ws_')) : undefined;
    if (search) parts.push(search);
    parts.push({ type: 'text', text: content.text, ...(citations.length > 0 ? { citations } : {}) });
  }
  if (m.refusal != null) parts.push({ type: 'refusal', text: m.refusal });
  const data = m.audio?.['data'];
  if (typeof data === 'string') {
    const format = requestedAudioFormat(req) ?? 'wav';
    const known = audioFormatOf(format, undefined);
    parts.push({
      type: 'audio',
      source: { type: 'base64', mediaType: known ? audioMediaType(known) : `audio/${format}`, data },
      format,
    });
  }
  for (const call of m.tool_calls ?? []) {
    const { id, signature } = toolCallIdentity(call, ctx);
    parts.push({
      type: 'tool-call',
      id,
      name: call.function?.name ?? '',
      arguments: call.function?.arguments ?? '',
      ...(signature ? { signature } : {}),
    });
  }
  if (m.function_call) {
    parts.push({
      type: 'tool-call',
      id: ctx.newId('call_'),
      name: m.function_call.name ?? '',
      arguments: m.function_call.arguments ?? '',
    });
  }
  return parts;
}

/** Per-choice fields kept for an OpenAI caller: audio (id, transcript, expiry), Azure filters. */
function choiceExtras(raw: Record<string, unknown>, m: OpenAIChatResponseMessage | null | undefined): Choice['extras'] {
  const fields: Record<string, unknown> = {};
  if (m?.audio) fields['audio'] = m.audio;
  if (raw['content_filter_results'] !== undefined) fields['content_filter_results'] = raw['content_filter_results'];
  return Object.keys(fields).length > 0 ? { dialect: 'openai-chat', fields } : undefined;
}

export function decodeResponse(body: unknown, req: ChatRequest, ctx: TranslateContext): ChatResponse {
  // Valid as it is (nearly always): no copy.
  const parsed = safeParseAsIs(v.safeParse, OpenAIChatCompletionSchema, body);
  if (!parsed.success || Array.isArray(body)) {
    throw new ProxyError('upstream', 'The upstream returned a body that is not a chat completion.', {
      raw: JSON.stringify(body),
    });
  }
  const c = parsed.output;
  const choices: Choice[] = c.choices.map((ch, i) => {
    const content = ch.message ? decodeMessage(ch.message, req, ctx) : [];
    const refused = content.some((p) => p.type === 'refusal') && !content.some((p) => p.type === 'text');
    const choice: Choice = {
      index: ch.index ?? i,
      content,
      finishReason: decodeFinishReason(ch.finish_reason, refused),
    };
    const logprobs = decodeLogprobs(ch.logprobs);
    if (logprobs) choice.logprobs = logprobs;
    const extras = choiceExtras(ch as Record<string, unknown>, ch.message);
    if (extras) choice.extras = extras;
    return choice;
  });
  const res: ChatResponse = {
    id: c.id || ctx.newId('chatcmpl-'),
    model: c.model || req.model,
    created: c.created || Math.floor(ctx.now() / 1000),
    choices,
  };
  const usage = c.usage ?? c.x_groq?.usage;
  if (usage) res.usage = decodeUsage(usage);
  const fields: Record<string, unknown> = {};
  if (c.system_fingerprint != null) fields['system_fingerprint'] = c.system_fingerprint;
  if (c.service_tier != null) fields['service_tier'] = c.service_tier;
  const promptFilters = (c as Record<string, unknown>)['prompt_filter_results'];
  if (promptFilters !== undefined) fields['prompt_filter_results'] = promptFilters;
  if (Object.keys(fields).length > 0) res.extras = { dialect: 'openai-chat', fields };
  return res;
}
