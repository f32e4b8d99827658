/** Gemini request encoding on what the main tests leave out: metadata, extras beside a tool choice, undefined extras. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { gemini } from './index.ts';

const base = (over: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'c', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: false, ...over });
const encode = (req: ChatRequest) => {
  const { value, warnings } = gemini.encodeRequest(req, { name: 'g', model: 'gemini-2.5-flash', apiKey: 'k', options: {} }, testContext());
  return { body: JSON.parse(value.body as string), warnings };
};

describe('gemini request encoding: more', () => {
  it('metadata has no Gemini field: dropped and reported', () => {
    expect(encode(base({ metadata: { run: '1' } }))).toEqual({ body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, warnings: [{ code: 'dropped', path: 'metadata' }] });
  });

  it('a toolConfig extra joins the tool choice; undefined extras are skipped; a later extra of the same object adds to it', () => {
    const { body, warnings } = encode(
      base({
        tools: [{ name: 'f' }],
        toolChoice: { type: 'allowed', names: ['f'], mode: 'required' },
        extras: { dialect: 'gemini', fields: { 'toolConfig.retrievalConfig': { languageCode: 'en' }, labels: undefined, 'generationConfig.seed': undefined, 'x.a': 1, 'x.b': 2 } },
      }),
    );
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] }, retrievalConfig: { languageCode: 'en' } });
    expect(body.x).toEqual({ a: 1, b: 2 });
    expect(body).not.toHaveProperty('labels');
    expect(body).not.toHaveProperty('generationConfig');
    expect(warnings).toEqual([]);
  });

  it("results in separate messages make one turn, responses first, even when the first result carries media", () => {
    const { body } = encode(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'a', name: 'f', arguments: '{}' }, { type: 'tool-call', id: 'b', name: 'g', arguments: '{}' }] },
          { role: 'user', content: [{ type: 'tool-result', callId: 'a', content: [{ type: 'text', text: 'A' }, { type: 'image', source: { type: 'file-id', id: 'files/i', mediaType: 'image/png' } }] }] },
          { role: 'user', content: [{ type: 'tool-result', callId: 'b', content: [{ type: 'text', text: 'B' }] }] },
        ],
      }),
    );
    expect(body.contents.slice(2)).toEqual([
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'f', response: { output: 'A' } } },
          { functionResponse: { name: 'g', response: { output: 'B' } } },
          { fileData: { fileUri: 'files/i', mimeType: 'image/png' } },
        ],
      },
    ]);
  });

  it('an empty text part that carries a Gemini signature is sent, signature and all', () => {
    const { body } = encode(base({ messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }, { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: '', signature: { origin: 'gemini', value: 'S' } }] }] }));
    expect(body.contents[1]).toEqual({ role: 'model', parts: [{ text: 'a' }, { text: '', thoughtSignature: 'S' }] });
  });

  it('a named result answering by id keeps to that call, even when another call of the name waits', () => {
    const named = (callId: string, text: string) => ({ type: 'tool-result' as const, callId, name: 'f', content: [{ type: 'text' as const, text }] });
    const { body } = encode(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'go' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'a', name: 'f', arguments: '{"n":1}' }, { type: 'tool-call', id: 'b', name: 'f', arguments: '{"n":2}' }] },
          { role: 'user', content: [named('b', 'second'), named('a', 'first')] },
        ],
      }),
    );
    expect(body.contents[2].parts).toEqual([{ functionResponse: { name: 'f', response: { output: 'first' } } }, { functionResponse: { name: 'f', response: { output: 'second' } } }]);
  });

  it("a URL's extension names its type only when it is a known one (never an object member such as .constructor)", () => {
    const types = encode(
      base({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'url', url: 'https://x/a.constructor' } },
              { type: 'image', source: { type: 'url', url: 'https://x/a.toString?x=1' } },
              { type: 'file', source: { type: 'url', url: 'https://x/a.MP4' } },
            ],
          },
        ],
      }),
    ).body.contents[0].parts.map((p: { fileData: { mimeType: unknown } }) => p.fileData.mimeType);
    expect(types).toEqual(['image/jpeg', 'image/jpeg', 'video/mp4']);
  });
});
