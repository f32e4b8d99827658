/**
 * What a demo upstream answers, as the canonical model: pure and deterministic. It echoes the
 * last user text; when tools are offered it calls one (arguments made from its schema); after a
 * tool result it says what the tool returned. The demo upstream (upstream.ts) encodes the answer
 * in its own dialect; `answerEvents` is the same answer as a stream.
 */
import { textOf, type ChatRequest, type ChatResponse, type FinishReason, type Part, type StreamEvent, type Tool, type Usage } from '../canonical/index.ts';

/** Who answers: the demo upstream's name and what its dialect is called. */
export interface Speaker {
  name: string;
  label: string;
}

/** A rough token count for the demo's usage: a token per four characters, at least one. */
function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Every text of a request (system, messages, tool results, tool definitions), for its usage. */
function requestText(req: ChatRequest): string {
  const parts = (ps: readonly Part[]): string =>
    ps.map((p) => (p.type === 'text' ? p.text : p.type === 'tool-call' ? p.name + p.arguments : p.type === 'tool-result' ? parts(p.content) : '')).join(' ');
  return [parts(req.system), ...req.messages.map((m) => parts(m.content)), ...(req.tools ?? []).map((t) => t.name + (t.description ?? ''))].join(' ');
}

/** A value fitting a JSON Schema, made from the user's text where a string goes. */
export function exampleValue(schema: unknown, text: string): unknown {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('const' in s) return s.const;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return text.slice(0, 200);
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return typeof s.minItems === 'number' && s.minItems > 0 ? [exampleValue(s.items, text)] : [];
    case 'null':
      return null;
    default: {
      const props = (s.properties && typeof s.properties === 'object' ? s.properties : {}) as Record<string, unknown>;
      const keys = Array.isArray(s.required) && s.required.length ? (s.required as string[]) : Object.keys(props);
      return Object.fromEntries(keys.map((k) => [k, exampleValue(props[k], text)]));
    }
  }
}

/** The tool to call, if the request offers tools and lets the model call one. */
function toolToCall(req: ChatRequest): Tool | undefined {
  const tools = req.tools ?? [];
  const choice = req.toolChoice;
  if (!tools.length || choice?.type === 'none') return undefined;
  const name = choice?.type === 'tool' ? choice.name : choice?.type === 'allowed' ? choice.names[0] : undefined;
  return tools.find((t) => t.name === name) ?? tools[0];
}

/** The name of the tool a result answers: its own, else the call's with its id. */
function toolNameOf(req: ChatRequest, callId: string, given?: string): string {
  if (given) return given;
  for (const m of req.messages) for (const p of m.content) if (p.type === 'tool-call' && p.id === callId) return p.name;
  return 'tool';
}

/** The answer's parts and why it stops. */
function answerParts(req: ChatRequest, who: Speaker, callId: string): { parts: Part[]; finish: FinishReason } {
  const last = req.messages.at(-1);
  const results = last?.role === 'user' ? last.content.filter((p) => p.type === 'tool-result') : [];
  const said = last?.role === 'user' ? textOf(last.content).trim() : '';
  if (results.length) {
    const lines = results.map((r) => `the ${toolNameOf(req, r.callId, r.name)} tool returned ${textOf(r.content) || JSON.stringify(r.content)}`);
    return { parts: [{ type: 'text', text: `${who.name} (${who.label}) read the result: ${lines.join('; ')}.` }], finish: { unified: 'stop' } };
  }
  const tool = toolToCall(req);
  if (tool) {
    const args = tool.custom ? said : JSON.stringify(exampleValue(tool.parameters ?? { type: 'object' }, said));
    return { parts: [{ type: 'tool-call', id: callId, name: tool.name, arguments: args, ...(tool.custom ? { custom: true as const } : {}) }], finish: { unified: 'tool-calls' } };
  }
  const echo = `${who.name} (${who.label}) echoes: ${said || '(no text)'}`;
  const format = req.responseFormat?.type;
  const text = format === 'json' || format === 'json-schema' ? JSON.stringify({ echo }) : echo;
  return { parts: [{ type: 'text', text }], finish: { unified: 'stop' } };
}

/** The demo's answer to a request, as the canonical response (`id`, `created`, `callId` given). */
export function demoAnswer(req: ChatRequest, who: Speaker, ids: { id: string; callId: string; created: number }): ChatResponse {
  const { parts, finish } = answerParts(req, who, ids.callId);
  const out = parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool-call' ? p.name + p.arguments : '')).join('');
  const input = tokens(requestText(req));
  const output = tokens(out);
  const usage: Usage = { inputTokens: input, outputTokens: output, totalTokens: input + output };
  const n = Math.max(1, req.candidateCount ?? 1);
  return {
    id: ids.id,
    model: req.model,
    created: ids.created,
    choices: Array.from({ length: n }, (_, index) => ({ index, content: parts, finishReason: finish })),
    usage,
  };
}

/** Text in pieces of a few words, as a model streams it. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g)?.reduce<string[]>((out, w, i) => (i % 3 === 0 ? out.push(w) : (out[out.length - 1] += w), out), []) ?? [text];
}

/** The same answer as stream events: start, each part in pieces, usage, finish. */
export function answerEvents(res: ChatResponse): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'message-start', id: res.id, model: res.model, created: res.created }];
  for (const c of res.choices) {
    const choice = c.index ? { choice: c.index } : {};
    let call = 0;
    for (const p of c.content) {
      if (p.type === 'text') {
        events.push({ type: 'text-start', ...choice }, ...pieces(p.text).map((text): StreamEvent => ({ type: 'text-delta', ...choice, text })), { type: 'text-end', ...choice });
      } else if (p.type === 'tool-call') {
        const index = call++;
        const half = Math.ceil(p.arguments.length / 2);
        events.push({ type: 'tool-call-start', ...choice, index, id: p.id, name: p.name, ...(p.custom ? { custom: true as const } : {}) });
        for (const argumentsDelta of [p.arguments.slice(0, half), p.arguments.slice(half)]) if (argumentsDelta) events.push({ type: 'tool-call-delta', ...choice, index, argumentsDelta });
        events.push({ type: 'tool-call-end', ...choice, index });
      }
    }
  }
  if (res.usage) events.push({ type: 'usage', usage: res.usage });
  for (const c of res.choices) events.push({ type: 'finish', ...(c.index ? { choice: c.index } : {}), reason: c.finishReason });
  return events;
}
