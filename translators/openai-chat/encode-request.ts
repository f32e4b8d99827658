/** Upstream side: canonical `ChatRequest` → a Chat Completions HTTP request. */
import {
  nativeToolLabel,
  assertNever,
  cacheControlWarnings,
  extrasFor,
  toolExtrasFor,
  type ChatRequest,
  type Converted,
  type ReasoningConfig,
  type ResponseFormat,
  type ToolChoice,
  type Warning,
} from '../../src/canonical/index.ts';
import {
  jsonBody,
} from '../../src/kit/index.ts';
import type { UpstreamHttpRequest, UpstreamTarget } from '../types.ts';
import { encodeMessages } from './encode-messages.ts';
import { fitFields } from './host-quirks.ts';
import { bearerJsonHeaders } from '../vendor/openai/index.ts';
import { chatWebForm, encodeOpenRouterTool, encodeWebSearchOptions } from './web-tools.ts';
import { settingNames } from './setting-names.ts';

/**
 * A body field a host refuses, by the canonical setting it carries (the first setting naming it),
 * so the loss report names the caller's own field (src/flows renames it for the caller).
 */
const SETTING_OF_FIELD = new Map<string, string>([
  ['max_tokens', 'maxOutputTokens'],
  ...Object.entries(settingNames).reverse().map(([setting, field]) => [field, setting] as [string, string]),
]);


export function upstreamHeaders(target: UpstreamTarget): Record<string, string> {
  return bearerJsonHeaders(target.apiKey, target.options.headers);
}

function encodeToolChoice(choice: ToolChoice, warnings: Warning[]): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    case 'allowed':
      if (choice.mode === 'required' && choice.names.length === 1) {
        return { type: 'function', function: { name: choice.names[0] } };
      }
      warnings.push({ code: 'approximated', path: 'toolChoice', detail: `allowed→${choice.mode}` });
      return choice.mode;
    case 'web':
      // A search model searches on its own; no tool choice names web_search_options.
      warnings.push({ code: 'approximated', path: 'toolChoice', detail: 'web search→auto' });
      return 'auto';
    default:
      return assertNever(choice, 'tool choice');
  }
}

function encodeResponseFormat(f: ResponseFormat): unknown {
  switch (f.type) {
    case 'text':
      return { type: 'text' };
    case 'json':
      return { type: 'json_object' };
    case 'json-schema':
      return {
        type: 'json_schema',
        json_schema: {
          name: f.name ?? 'response',
          // Stryker disable next-line ConditionalExpression: an undefined member is left out of the JSON body all the same
          ...(f.description !== undefined ? { description: f.description } : {}),
          schema: f.schema,
          // Stryker disable next-line ConditionalExpression: an undefined member is left out of the JSON body all the same
          ...(f.strict !== undefined ? { strict: f.strict } : {}),
        },
      };
    default:
      return assertNever(f, 'response format');
  }
}

/**
 * `reasoning_effort` from the canonical config. A budget alone maps by this table
 * (approximated): 0 → `none`; < 4096 → `low`; < 16384 → `medium`; otherwise `high`;
 * -1 (dynamic) → left to the model's default.
 */
function encodeReasoningEffort(r: ReasoningConfig, warnings: Warning[]): string | undefined {
  if (r.includeThoughts) warnings.push({ code: 'dropped', path: 'reasoning.includeThoughts' });
  if (r.enabled === false) return 'none';
  if (r.effort) return r.effort;
  const budget = r.budgetTokens;
  if (budget === undefined || budget < 0) return undefined;
  const effort = budget === 0 ? 'none' : budget < 4096 ? 'low' : budget < 16384 ? 'medium' : 'high';
  warnings.push({ code: 'approximated', path: 'reasoning.budgetTokens', detail: `reasoning_effort=${effort}` });
  return effort;
}

export function encodeRequest(req: ChatRequest, target: UpstreamTarget): Converted<UpstreamHttpRequest> {
  const warnings: Warning[] = [];
  const extras = extrasFor(req, 'openai-chat');
  warnings.push(...extras.warnings);
  const { stream_options: extraStreamOptions, ...extraFields } = extras.fields;

  const body: Record<string, unknown> = { ...extraFields, model: target.model };
  const o = target.options;
  body['messages'] = encodeMessages(req, warnings, o);

  if (req.tools && req.tools.length > 0) {
    body['tools'] = req.tools.map((t, i) => {
      // Another dialect's own tool fields (Anthropic defer_loading…) are reported as dropped.
      warnings.push(...toolExtrasFor(t, i, 'openai-chat').warnings);
      return {
        type: 'function',
        function: {
          name: t.name,
          // Stryker disable next-line ConditionalExpression: an undefined member is left out of the JSON body all the same
          ...(t.description !== undefined ? { description: t.description } : {}),
          // Stryker disable next-line ConditionalExpression: an undefined member is left out of the JSON body all the same
          ...(t.parameters !== undefined ? { parameters: t.parameters } : {}),
          // Stryker disable next-line ConditionalExpression: an undefined member is left out of the JSON body all the same
          ...(t.strict !== undefined ? { strict: t.strict } : {}),
        },
      };
    });
    if (req.toolChoice) body['tool_choice'] = encodeToolChoice(req.toolChoice, warnings);
    if (req.parallelToolCalls !== undefined) body['parallel_tool_calls'] = req.parallelToolCalls;
  } else if (req.toolChoice?.type === 'web') {
    warnings.push({ code: 'approximated', path: 'toolChoice', detail: 'web search→auto' });
  } else if (req.toolChoice && req.toolChoice.type !== 'none' && req.toolChoice.type !== 'auto') {
    warnings.push({ code: 'dropped', path: 'toolChoice', detail: 'no tools', lossy: true });
  }
  for (const [i, t] of (req.nativeTools ?? []).entries()) {
    const path = t.path ?? `nativeTools[${i}]`;
    const web = t.dialect === 'openai-chat' ? undefined : t.web;
    const form = web && chatWebForm(target, web.kind);
    if (web && form === 'openrouter') {
      body['tools'] = [...((body['tools'] as unknown[] | undefined) ?? []), encodeOpenRouterTool(web, path, warnings)];
      continue;
    }
    const options =
      t.dialect === 'openai-chat'
        ? t.definition['web_search_options']
        : web && form === 'web_search_options' && !body['web_search_options']
          ? encodeWebSearchOptions(web, path, warnings)
          : undefined;
    if (options) body['web_search_options'] = options;
    else warnings.push({ code: 'dropped', path, detail: nativeToolLabel(t), lossy: true });
  }

  if (req.maxOutputTokens !== undefined) body[o.maxTokensField ?? 'max_completion_tokens'] = req.maxOutputTokens;
  if (req.temperature !== undefined) body['temperature'] = req.temperature;
  if (req.topP !== undefined) body['top_p'] = req.topP;
  if (req.topK !== undefined) warnings.push({ code: 'dropped', path: 'topK', lossy: true });
  warnings.push(...cacheControlWarnings(req));
  if (req.stop !== undefined) {
    if (req.stop.length > 4) warnings.push({ code: 'dropped', path: 'stop', detail: 'more than 4 sequences', lossy: true });
    body['stop'] = req.stop.slice(0, 4);
  }
  if (req.seed !== undefined) body['seed'] = req.seed;
  if (req.presencePenalty !== undefined) body['presence_penalty'] = req.presencePenalty;
  if (req.frequencyPenalty !== undefined) body['frequency_penalty'] = req.frequencyPenalty;
  if (req.candidateCount !== undefined) body['n'] = req.candidateCount;
  if (req.logprobs !== undefined) body['logprobs'] = req.logprobs;
  if (req.topLogprobs !== undefined) {
    if (req.topLogprobs > 20) warnings.push({ code: 'clamped', path: 'topLogprobs', detail: '20' });
    body['top_logprobs'] = Math.min(req.topLogprobs, 20);
  }
  if (req.responseFormat) body['response_format'] = encodeResponseFormat(req.responseFormat);
  if (req.reasoning) {
    const effort = encodeReasoningEffort(req.reasoning, warnings);
    if (effort) body['reasoning_effort'] = effort;
  }
  if (req.modalities) {
    const modalities = req.modalities.filter((m) => m !== 'image');
    if (modalities.length < req.modalities.length) warnings.push({ code: 'dropped', path: 'modalities', detail: 'image', lossy: true });
    body['modalities'] = modalities;
  }
  if (req.user !== undefined) body['user'] = req.user;
  if (req.metadata !== undefined) body['metadata'] = req.metadata;
  if (req.stream) {
    body['stream'] = true;
    // Always ask for usage so the proxy can report it; the caller-side encoder drops the
    // usage chunk when the caller did not ask for it. A host that refuses the field sends usage anyway.
    if (o.streamOptions !== false) body['stream_options'] = { ...(extraStreamOptions as object | undefined), include_usage: true };
  }

  if (o.promptCacheKey !== undefined && body['prompt_cache_key'] === undefined) body['prompt_cache_key'] = o.promptCacheKey;
  const fitted = fitFields(body, o);
  for (const key of fitted.dropped) warnings.push({ code: 'dropped', path: SETTING_OF_FIELD.get(key) ?? key, detail: 'host', lossy: true });

  return {
    value: {
      method: 'POST',
      path: '/chat/completions',
      headers: upstreamHeaders(target),
      body: jsonBody(fitted.body, 'messages', target.sent),
      stream: req.stream,
    },
    warnings,
  };
}
