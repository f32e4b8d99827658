/**
 * Shared pieces of the Anthropic end-to-end suites: both SDK generations as callers, and per
 * upstream dialect the fixtures to replay and readers for what the mock upstream received.
 */
import Anthropic1 from '@anthropic-ai/sdk';
import Anthropic0 from '@anthropic-ai/sdk-0';
import { fixtureJson, fixtureText, parseSse } from '../support/fixtures.ts';
import type { ReceivedRequest } from '../support/mock-upstream.ts';
import { INBOUND_KEY } from '../support/proxy.ts';

/** The 1.x client type; the 0.x client is used through the same (structurally shared) surface. */
export type AnthropicClient = Anthropic1;
type ErrorClasses = Pick<
  typeof Anthropic1,
  'APIError' | 'BadRequestError' | 'AuthenticationError' | 'RateLimitError' | 'InternalServerError' | 'NotFoundError'
>;

export interface SdkCase {
  name: string;
  /** The API version header this SDK sends. */
  version: string;
  make(baseURL: string, apiKey?: string): AnthropicClient;
  errors: ErrorClasses;
}

export const SDKS: SdkCase[] = [
  {
    name: 'sdk 1.x',
    version: '2026-10-21',
    make: (baseURL, apiKey = INBOUND_KEY) => new Anthropic1({ apiKey, baseURL, maxRetries: 0 }),
    errors: Anthropic1,
  },
  {
    name: 'sdk 0.x',
    version: '2023-06-01',
    make: (baseURL, apiKey = INBOUND_KEY) =>
      new Anthropic0({ apiKey, baseURL, maxRetries: 0 }) as unknown as AnthropicClient,
    errors: Anthropic0 as unknown as ErrorClasses,
  },
];

export type UpstreamDialect = 'openai-chat' | 'anthropic' | 'gemini';

/** One upstream the Anthropic caller is routed to, with the fixtures it replays. */
export interface UpstreamCase {
  /** Model the caller names (a route in e2eConfig). */
  model: string;
  dialect: UpstreamDialect;
  /** Same dialect both sides: the body is forwarded untouched. */
  passthrough: boolean;
  text: string;
  streamText: string;
  tool: string;
  streamTool: string;
  rateLimit: string;
  /** Path (and query) the mock should see for a non-stream / stream call. */
  path: string;
  streamPath: string;
}

const GEMINI_MODEL = 'gemini-2.5-flash';

export const UPSTREAMS: UpstreamCase[] = [
  {
    model: 'to-openai',
    dialect: 'openai-chat',
    passthrough: false,
    text: 'text-basic.json',
    streamText: 'stream-text-basic.sse',
    tool: 'tool-call-single.json',
    streamTool: 'stream-tool-call-single.sse',
    rateLimit: 'error-429-rate-limit-tpm.json',
    path: '/v1/chat/completions',
    streamPath: '/v1/chat/completions',
  },
  {
    // Anthropic caller → Anthropic upstream is always the passthrough (here with a model rename).
    model: 'to-anthropic',
    dialect: 'anthropic',
    passthrough: true,
    text: 'text-basic.json',
    // Passthrough pipes bytes: a fixture whose last event is terminated, as the real API sends.
    streamText: 'stream-text-modern-usage.sse',
    tool: 'tool-use-single.json',
    streamTool: 'stream-tool-use.sse',
    rateLimit: 'error-429-rate-limit.json',
    path: '/v1/messages',
    streamPath: '/v1/messages',
  },
  {
    model: 'to-gemini',
    dialect: 'gemini',
    passthrough: false,
    text: 'system-instruction.json',
    streamText: 'stream-text-basic.sse',
    tool: 'gemini3-tool-call.json',
    streamTool: 'stream-gemini3-tool-call.sse',
    rateLimit: 'error-429-resource-exhausted.json',
    path: `/v1beta/models/${GEMINI_MODEL}:generateContent`,
    streamPath: `/v1beta/models/${GEMINI_MODEL}:streamGenerateContent?alt=sse`,
  },
  {
    model: 'claude-sonnet-4-5',
    dialect: 'anthropic',
    passthrough: true,
    text: 'text-basic.json',
    streamText: 'stream-text-modern-usage.sse',
    tool: 'tool-use-single.json',
    streamTool: 'stream-tool-use.sse',
    rateLimit: 'error-429-rate-limit.json',
    path: '/v1/messages',
    streamPath: '/v1/messages',
  },
];

/** The answer text of a non-stream fixture, read in its own dialect. */
export function fixtureAnswer(dialect: UpstreamDialect, name: string): string {
  const body = fixtureJson(dialect, name);
  switch (dialect) {
    case 'openai-chat':
      return body.choices[0].message.content ?? '';
    case 'anthropic':
      return body.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('');
    case 'gemini':
      return body.candidates[0].content.parts.filter((p: any) => p.text && !p.thought).map((p: any) => p.text).join('');
  }
}

/** The answer text of a stream fixture, reassembled in its own dialect. */
export function fixtureStreamAnswer(dialect: UpstreamDialect, name: string): string {
  let out = '';
  for (const e of parseSse(fixtureText(dialect, name))) {
    if (!e.data.startsWith('{')) continue;
    const d = JSON.parse(e.data);
    // OpenAI refusals arrive as Anthropic text (with stop_reason refusal).
    if (dialect === 'openai-chat') out += (d.choices?.[0]?.delta?.content ?? '') + (d.choices?.[0]?.delta?.refusal ?? '');
    else if (dialect === 'anthropic') out += d.type === 'content_block_delta' && d.delta.type === 'text_delta' ? d.delta.text : '';
    else for (const p of d.candidates?.[0]?.content?.parts ?? []) if (p.text && !p.thought) out += p.text;
  }
  return out;
}

/** The tool call of a non-stream tool fixture: name and parsed arguments. */
export function fixtureToolCall(dialect: UpstreamDialect, name: string): { name: string; input: Record<string, unknown>; id?: string } {
  const body = fixtureJson(dialect, name);
  switch (dialect) {
    case 'openai-chat': {
      const c = body.choices[0].message.tool_calls[0];
      return { name: c.function.name, input: JSON.parse(c.function.arguments), id: c.id };
    }
    case 'anthropic': {
      const b = body.content.find((x: any) => x.type === 'tool_use');
      return { name: b.name, input: b.input, id: b.id };
    }
    case 'gemini': {
      const p = body.candidates[0].content.parts.find((x: any) => x.functionCall);
      return { name: p.functionCall.name, input: p.functionCall.args ?? {} };
    }
  }
}

/** The system prompt text the upstream received, read in its dialect. */
export function receivedSystem(dialect: UpstreamDialect, r: ReceivedRequest): string | undefined {
  const j = r.json;
  switch (dialect) {
    case 'openai-chat': {
      const sys = j.messages.filter((m: any) => m.role === 'system' || m.role === 'developer');
      if (!sys.length) return undefined;
      return sys.map((m: any) => (typeof m.content === 'string' ? m.content : m.content.map((c: any) => c.text).join(''))).join('\n');
    }
    case 'anthropic':
      if (j.system === undefined) return undefined;
      return typeof j.system === 'string' ? j.system : j.system.map((b: any) => b.text).join('\n');
    case 'gemini':
      return j.systemInstruction?.parts.map((p: any) => p.text).join('\n');
  }
}

/** The text of every user turn the upstream received, in order. */
export function receivedUserTexts(dialect: UpstreamDialect, r: ReceivedRequest): string[] {
  const j = r.json;
  const texts = (c: unknown): string =>
    typeof c === 'string' ? c : (c as any[]).filter((b) => b.type === 'text' || typeof b.text === 'string').map((b) => b.text).join('');
  switch (dialect) {
    case 'openai-chat':
      return j.messages.filter((m: any) => m.role === 'user').map((m: any) => texts(m.content));
    case 'anthropic':
      return j.messages.filter((m: any) => m.role === 'user').map((m: any) => texts(m.content));
    case 'gemini':
      return j.contents.filter((c: any) => c.role === 'user').map((c: any) => c.parts.filter((p: any) => typeof p.text === 'string').map((p: any) => p.text).join(''));
  }
}

/** A tool definition every upstream accepts, matching the tool fixtures' arguments loosely. */
export function toolFor(name: string) {
  return {
    name,
    description: 'Look up the weather',
    input_schema: { type: 'object' as const, properties: { location: { type: 'string' }, city: { type: 'string' } } },
  };
}

/** Headers for raw fetches in the Anthropic dialect. */
export function anthropicHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-api-key': INBOUND_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json', ...extra };
}

/** The (first) tool call of a stream tool fixture, reassembled in its own dialect. */
export function fixtureStreamToolCall(dialect: UpstreamDialect, name: string): { name: string; input: Record<string, unknown> } {
  let toolName = '';
  let args = '';
  for (const e of parseSse(fixtureText(dialect, name))) {
    if (!e.data.startsWith('{')) continue;
    const d = JSON.parse(e.data);
    if (dialect === 'openai-chat') {
      const c = d.choices?.[0]?.delta?.tool_calls?.[0];
      if (c?.function?.name) toolName = c.function.name;
      args += c?.function?.arguments ?? '';
    } else if (dialect === 'anthropic') {
      if (d.type === 'content_block_start' && d.content_block.type === 'tool_use') toolName = d.content_block.name;
      if (d.type === 'content_block_delta' && d.delta.type === 'input_json_delta') args += d.delta.partial_json;
    } else {
      for (const p of d.candidates?.[0]?.content?.parts ?? []) {
        if (p.functionCall && !toolName) {
          toolName = p.functionCall.name;
          args = JSON.stringify(p.functionCall.args ?? {});
        }
      }
    }
  }
  return { name: toolName, input: args.trim() ? JSON.parse(args) : {} };
}

/** Input (without cache reads) and output tokens a stream fixture reports, read in its dialect. */
export function fixtureStreamUsage(dialect: UpstreamDialect, name: string): { input: number; output: number } {
  let input = 0;
  let output = 0;
  for (const e of parseSse(fixtureText(dialect, name))) {
    if (!e.data.startsWith('{')) continue;
    const d = JSON.parse(e.data);
    if (dialect === 'openai-chat' && d.usage) {
      input = d.usage.prompt_tokens - (d.usage.prompt_tokens_details?.cached_tokens ?? 0);
      output = d.usage.completion_tokens;
    } else if (dialect === 'gemini' && d.usageMetadata) {
      const u = d.usageMetadata;
      input = (u.promptTokenCount ?? 0) - (u.cachedContentTokenCount ?? 0);
      output = (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0);
    } else if (dialect === 'anthropic') {
      const u = d.type === 'message_start' ? d.message.usage : d.type === 'message_delta' ? d.usage : undefined;
      if (u?.input_tokens != null) input = u.input_tokens;
      if (u?.output_tokens != null) output = u.output_tokens;
    }
  }
  return { input, output };
}
