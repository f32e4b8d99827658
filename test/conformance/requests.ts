/**
 * Canonical requests every chat dialect must carry through encode → decode with their meaning.
 */
import type { ChatRequest } from '../../src/canonical/index.ts';

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
