/**
 * Canonical requests every chat dialect must carry through encode → decode with their meaning.
 */
import type { ChatRequest, Part } from '../../src/canonical/index.ts';

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const base = (over: Partial<ChatRequest>): ChatRequest => ({
  model: 'some-model',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }],
  stream: false,
  maxOutputTokens: 256,
  ...over,
});

export const canonicalRequests: Array<{ name: string; req: ChatRequest }> = [
  { name: 'plain text', req: base({}) },
  {
    name: 'system prompt and multi-turn',
    req: base({
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'One' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Two' }] },
        { role: 'user', content: [{ type: 'text', text: 'Three' }] },
      ],
    }),
  },
  {
    name: 'sampling knobs',
    req: base({ temperature: 0.5, topP: 0.9, stop: ['END', 'STOP'], maxOutputTokens: 100 }),
  },
  {
    name: 'stream',
    req: base({ stream: true }),
  },
  {
    name: 'tools, tool choice, a tool loop',
    req: base({
      tools: [
        {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      ],
      toolChoice: { type: 'auto' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool-result', callId: 'call_1', name: 'get_weather', content: [{ type: 'text', text: '{"temp":21}' }] },
          ],
        },
      ],
    }),
  },
  {
    name: 'forced tool',
    req: base({
      tools: [{ name: 'lookup', description: 'Look up', parameters: { type: 'object', properties: {} } }],
      toolChoice: { type: 'tool', name: 'lookup' },
    }),
  },
  {
    name: 'image input',
    req: base({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: PNG_1PX } },
          ],
        },
      ],
    }),
  },
];

/** The meaning of a request that every dialect must carry. */
export function essence(req: ChatRequest) {
  const part = (p: Part): unknown => {
    switch (p.type) {
      case 'text':
        return { text: p.text };
      case 'image':
        return { image: p.source.type === 'base64' ? p.source.data : p.source.type === 'url' ? p.source.url : p.source.id };
      case 'tool-call':
        return { call: p.name, args: JSON.parse(p.arguments || '{}') };
      case 'tool-result':
        return { result: p.content.map(part), isError: !!p.isError };
      default:
        return { [p.type]: true };
    }
  };
  // Adjacent text parts may merge or split across dialects; compare the text they make.
  const parts = (ps: Part[]) => {
    const out: unknown[] = [];
    for (const p of ps) {
      const e = part(p) as { text?: string };
      const last = out.at(-1) as { text?: string } | undefined;
      if (e.text !== undefined && last?.text !== undefined) last.text += e.text;
      else out.push(e);
    }
    return out;
  };
  return {
    system: parts(req.system),
    messages: req.messages.map((m) => ({ role: m.role, content: parts(m.content) })),
    tools: (req.tools ?? []).map((t) => ({ name: t.name, description: t.description })),
    toolChoice: req.toolChoice,
    temperature: req.temperature,
    topP: req.topP,
    maxOutputTokens: req.maxOutputTokens,
    stop: req.stop,
    stream: req.stream,
  };
}

