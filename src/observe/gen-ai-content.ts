/**
 * Prompt and completion content in the shape of the OpenTelemetry GenAI conventions
 * (`gen_ai.system_instructions`, `gen_ai.input.messages`, `gen_ai.output.messages`), made only
 * when `telemetry.captureContent` is on. Media bytes are never copied: a base64 source is named
 * by its type and size.
 */
import type { ChatRequest, ChatResponse, Part, StreamEvent } from '../canonical/index.ts';

type GenAiPart = Record<string, unknown>;

function argumentsOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function media(modality: string, part: Extract<Part, { source: unknown }>): GenAiPart {
  const s = part.source;
  if (s.type === 'url') return { type: 'uri', modality, uri: s.url, ...(s.mediaType ? { mime_type: s.mediaType } : {}) };
  if (s.type === 'file-id') return { type: 'file', modality, file_id: s.id };
  return { type: 'blob', modality, mime_type: s.mediaType, content: `<${s.data.length} base64 chars not captured>` };
}

export function genAiParts(parts: readonly Part[]): GenAiPart[] {
  return parts.map((p): GenAiPart => {
    switch (p.type) {
      case 'text':
        return { type: 'text', content: p.text };
      case 'reasoning':
        return { type: 'reasoning', content: p.text };
      case 'refusal':
        return { type: 'refusal', content: p.text };
      case 'tool-call':
        return { type: 'tool_call', id: p.id, name: p.name, arguments: p.custom ? p.arguments : argumentsOf(p.arguments) };
      case 'tool-result':
        return { type: 'tool_call_response', id: p.callId, response: p.content.map((c) => (c.type === 'text' ? c.text : `<${c.type}>`)).join('') };
      case 'image':
        return media('image', p);
      case 'audio':
        return media('audio', p);
      case 'file':
        return media('file', p);
      case 'web-search':
        return {
          type: 'server_tool_call',
          id: p.id,
          name: p.kind === 'search' ? 'web_search' : 'web_fetch',
          server_tool_call: { type: p.kind === 'search' ? 'web_search' : 'web_fetch', ...(p.queries ? { queries: p.queries } : {}), ...(p.url ? { url: p.url } : {}), results: p.results.map((r) => r.url) },
        };
    }
  });
}

/** `gen_ai.system_instructions` and `gen_ai.input.messages` of a canonical request, as JSON text. */
export function inputContent(req: ChatRequest): { system?: string; input: string } {
  const messages = req.messages.map((m) => {
    const tool = m.content.length > 0 && m.content.every((p) => p.type === 'tool-result');
    return { role: tool ? 'tool' : m.role, parts: genAiParts(m.content) };
  });
  return {
    ...(req.system.length ? { system: JSON.stringify(genAiParts(req.system)) } : {}),
    input: JSON.stringify(messages),
  };
}

/** `gen_ai.output.messages` of a whole response. */
export function outputContent(res: ChatResponse): string {
  return JSON.stringify(res.choices.map((c) => ({ role: 'assistant', parts: genAiParts(c.content), finish_reason: c.finishReason.raw ?? c.finishReason.unified })));
}

/** The answer of a stream, put together from its events (only when content is captured). */
export class StreamedOutput {
  #choices: Array<{ parts: GenAiPart[]; finish?: string; tools: Map<number, GenAiPart & { args: string }> }> = [];

  #choice(i = 0) {
    return (this.#choices[i] ??= { parts: [], tools: new Map() });
  }

  #append(i: number | undefined, type: string, text: string): void {
    const parts = this.#choice(i).parts;
    const last = parts[parts.length - 1];
    if (last?.type === type) last.content = (last.content as string) + text;
    else parts.push({ type, content: text });
  }

  push(ev: StreamEvent): void {
    switch (ev.type) {
      case 'text-delta':
        return this.#append(ev.choice, 'text', ev.text);
      case 'reasoning-delta':
        return this.#append(ev.choice, 'reasoning', ev.text);
      case 'refusal-delta':
        return this.#append(ev.choice, 'refusal', ev.text);
      case 'tool-call-start': {
        const call = { type: 'tool_call', id: ev.id, name: ev.name, args: '' };
        this.#choice(ev.choice).tools.set(ev.index, call);
        this.#choice(ev.choice).parts.push(call);
        return;
      }
      case 'tool-call-delta': {
        const call = this.#choice(ev.choice).tools.get(ev.index);
        if (call) call.args += ev.argumentsDelta;
        return;
      }
      case 'finish':
        this.#choice(ev.choice).finish = ev.reason.raw ?? ev.reason.unified;
        return;
    }
  }

  toJSON(): string {
    return JSON.stringify(
      this.#choices.map((c) => ({
        role: 'assistant',
        parts: c.parts.map((p) => (p.type === 'tool_call' ? { type: 'tool_call', id: p.id, name: p.name, arguments: argumentsOf(p.args as string) } : p)),
        ...(c.finish ? { finish_reason: c.finish } : {}),
      })),
    );
  }
}
