/** Gemini request encoding on what the main tests leave out (metadata, extras beside a tool choice, undefined extras), and encodeContents part by part. */
import { describe, expect, it } from 'vitest';
import { ProxyError, type ChatRequest, type Message, type Part, type ToolCallPart, type ToolResultPart, type Warning } from '../../src/canonical/index.ts';
import { encodeContents } from './encode-contents.ts';
import { SKIP_SIGNATURE_VALIDATOR } from './signatures.ts';
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

describe('encodeContents: parts of each turn', () => {
  const M = 'gemini-2.5-flash';
  const run = (messages: Message[], model = M) => {
    const warnings: Warning[] = [];
    return { contents: encodeContents(messages, model, warnings), warnings };
  };
  const user = (...content: Part[]): Message => ({ role: 'user', content });
  const model = (...content: Part[]): Message => ({ role: 'assistant', content });
  const call = (id: string, name: string, args = '{}', extra: Partial<ToolCallPart> = {}): ToolCallPart => ({ type: 'tool-call', id, name, arguments: args, ...extra });
  const result = (callId: string, text: string, extra: Partial<ToolResultPart> = {}): ToolResultPart => ({ type: 'tool-result', callId, content: [{ type: 'text', text }], ...extra });

  it('media: base64 and data: URLs inline, other URLs and file ids as fileData with their type, guessed from the extension, or the kind’s default', () => {
    const { contents } = run([
      user(
        { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'AAA=' } },
        { type: 'image', source: { type: 'url', url: 'data:image/gif;base64,R0lG' } },
        { type: 'image', source: { type: 'url', url: 'https://x/a.webp#frag', mediaType: 'image/avif' } },
        { type: 'image', source: { type: 'url', url: 'https://x/photo.JPEG?size=2' } },
        { type: 'image', source: { type: 'url', url: 'https://x/photo' } },
        { type: 'audio', source: { type: 'file-id', id: 'files/a' }, format: 'mp3' },
        { type: 'audio', source: { type: 'file-id', id: 'files/b' }, format: 'flac' },
        { type: 'audio', source: { type: 'file-id', id: 'files/c' } },
        { type: 'audio', source: { type: 'file-id', id: 'files/d', mediaType: 'audio/ogg' }, format: 'mp3' },
        { type: 'file', source: { type: 'file-id', id: 'files/e' } },
        { type: 'file', source: { type: 'url', url: 'https://x/doc.txt' } },
      ),
    ]);
    expect(contents).toStrictEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'image/png', data: 'AAA=' } },
          { inlineData: { mimeType: 'image/gif', data: 'R0lG' } },
          { fileData: { fileUri: 'https://x/a.webp#frag', mimeType: 'image/avif' } },
          { fileData: { fileUri: 'https://x/photo.JPEG?size=2', mimeType: 'image/jpeg' } },
          { fileData: { fileUri: 'https://x/photo', mimeType: 'image/jpeg' } },
          { fileData: { fileUri: 'files/a', mimeType: 'audio/mp3' } },
          { fileData: { fileUri: 'files/b', mimeType: 'audio/flac' } },
          { fileData: { fileUri: 'files/c', mimeType: 'audio/wav' } },
          { fileData: { fileUri: 'files/d', mimeType: 'audio/ogg' } },
          { fileData: { fileUri: 'files/e', mimeType: 'application/pdf' } },
          { fileData: { fileUri: 'https://x/doc.txt', mimeType: 'application/pdf' } },
        ],
      },
    ]);
  });

  it('every known extension names its type', () => {
    const exts = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic', pdf: 'application/pdf', mp3: 'audio/mp3', wav: 'audio/wav', mp4: 'video/mp4' };
    const { contents } = run([user(...Object.keys(exts).map((e): Part => ({ type: 'file', source: { type: 'url', url: `https://x/f.${e}` } })))]);
    expect(contents[0]!.parts.map((p) => (p as { fileData: { mimeType: string } }).fileData.mimeType)).toEqual(Object.values(exts));
  });

  it('text, refusals and empty texts; a web search is no history (dropped, reported)', () => {
    const { contents, warnings } = run([
      user({ type: 'text', text: 'q' }, { type: 'text', text: '' }),
      model({ type: 'refusal', text: 'no' }, { type: 'refusal', text: '' }, { type: 'web-search', id: 's', kind: 'search', queries: ['q'], results: [] }, { type: 'text', text: 'a' }),
    ]);
    expect(contents).toStrictEqual([
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ text: 'no' }, { text: 'a' }] },
    ]);
    expect(warnings).toEqual([{ code: 'dropped', path: 'messages[1].content[2]', detail: 'web-search' }]);
  });

  it('reasoning: replayed only with a Gemini signature (thought text, or an empty signed part); foreign or redacted ones reported, unsigned text dropped', () => {
    const gem = { origin: 'gemini' as const, value: 'G' };
    const { contents, warnings } = run([
      user({ type: 'text', text: 'q' }),
      model(
        { type: 'reasoning', text: 'think', signature: gem },
        { type: 'reasoning', text: '', signature: gem },
        { type: 'reasoning', text: 'theirs', signature: { origin: 'anthropic', value: 'A' } },
        { type: 'reasoning', text: '', redacted: { origin: 'anthropic', value: 'R' } },
        { type: 'reasoning', text: 'bare' },
        { type: 'reasoning', text: '' },
        { type: 'text', text: 'x', signature: { origin: 'openai', value: 'O' } },
      ),
    ]);
    expect(contents[1]).toStrictEqual({ role: 'model', parts: [{ text: 'think', thought: true, thoughtSignature: 'G' }, { text: '', thoughtSignature: 'G' }, { text: 'x' }] });
    expect(warnings).toEqual([
      { code: 'signature-not-replayed', path: 'messages[1].content[2]' },
      { code: 'signature-not-replayed', path: 'messages[1].content[3]' },
      { code: 'dropped', path: 'messages[1].content[4]', detail: 'reasoning' },
      { code: 'signature-not-replayed', path: 'messages[1].content[6]' },
    ]);
  });

  it('call arguments: empty is {}, a non-object wrapped as value, broken JSON {} (lossy); a foreign call signature reported', () => {
    const { contents, warnings } = run([
      user({ type: 'text', text: 'q' }),
      model(call('a', 'f', '  '), call('b', 'f', '[1,2]'), call('c', 'f', '{"x"'), call('d', 'f', '{"k":1}', { signature: { origin: 'anthropic', value: 'A' } })),
      user(result('a', '1'), result('b', '2'), result('c', '3'), result('d', '4')),
    ]);
    expect(contents[1]!.parts).toStrictEqual([
      { functionCall: { name: 'f', args: {} } },
      { functionCall: { name: 'f', args: { value: [1, 2] } } },
      { functionCall: { name: 'f', args: {} } },
      { functionCall: { name: 'f', args: { k: 1 } } },
    ]);
    expect(warnings).toEqual([
      { code: 'approximated', path: 'messages[1].content[1].arguments', detail: 'non-object-arguments' },
      { code: 'approximated', path: 'messages[1].content[2].arguments', detail: 'invalid-json-arguments', lossy: true },
      { code: 'signature-not-replayed', path: 'messages[1].content[3]' },
    ]);
  });

  it('Gemini 3: the first call of a model turn without a signature gets the validator-skip value, later ones and signed ones none', () => {
    const sig = { origin: 'gemini' as const, value: 'G' };
    const { contents } = run([user({ type: 'text', text: 'q' }), model(call('a', 'f'), call('b', 'g')), user(result('a', '1'), result('b', '2')), model(call('c', 'f', '{}', { signature: sig }), call('d', 'g'))], 'gemini-3-pro-preview');
    expect(contents[1]!.parts).toStrictEqual([{ functionCall: { name: 'f', args: {} }, thoughtSignature: SKIP_SIGNATURE_VALIDATOR }, { functionCall: { name: 'g', args: {} } }]);
    expect(contents[3]!.parts).toStrictEqual([{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'G' }, { functionCall: { name: 'g', args: {} } }]);
    expect(run([user({ type: 'text', text: 'q' }), model(call('a', 'f'))]).contents[1]!.parts).toStrictEqual([{ functionCall: { name: 'f', args: {} } }]);
  });

  it('tool results: a JSON object is the response, other JSON and text wrapped as output, an error as error, texts joined by a line; media of results beside', () => {
    const { contents } = run([
      user({ type: 'text', text: 'q' }),
      model(call('a', 'f'), call('b', 'f'), call('c', 'f'), call('d', 'f'), call('e', 'f')),
      user(
        result('a', '{"ok":true}'),
        result('b', '[1]'),
        { type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'line 1' }, { type: 'text', text: 'line 2' }, { type: 'image', source: { type: 'file-id', id: 'files/i' } }, { type: 'audio', source: { type: 'file-id', id: 'files/a' } }, { type: 'file', source: { type: 'file-id', id: 'files/p' } }] },
        result('d', '{"why":"x"}', { isError: true }),
        result('e', 'boom', { isError: true }),
      ),
    ]);
    expect(contents[2]).toStrictEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'f', response: { ok: true } } },
        { functionResponse: { name: 'f', response: { output: [1] } } },
        { functionResponse: { name: 'f', response: { output: 'line 1\nline 2' } } },
        { functionResponse: { name: 'f', response: { error: { why: 'x' } } } },
        { functionResponse: { name: 'f', response: { error: 'boom' } } },
        { fileData: { fileUri: 'files/i', mimeType: 'image/jpeg' } },
        { fileData: { fileUri: 'files/a', mimeType: 'audio/wav' } },
        { fileData: { fileUri: 'files/p', mimeType: 'application/pdf' } },
      ],
    });
  });

  it('results in call order; an unanswered call answered as such (reported); a result for an earlier turn’s call after, by its name', () => {
    const { contents, warnings } = run([
      user({ type: 'text', text: 'q' }),
      model(call('old', 'lookup')),
      user(result('old', 'o')),
      model(call('a', 'f'), call('b', 'g')),
      user(result('b', 'B'), result('old', 'again'), { type: 'text', text: 'and then' }),
      user({ type: 'text', text: 'more' }),
    ]);
    expect(contents.slice(4)).toStrictEqual([
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'f', response: { error: 'No result was provided for this call.' } } },
          { functionResponse: { name: 'g', response: { output: 'B' } } },
          { functionResponse: { name: 'lookup', response: { output: 'again' } } },
          { text: 'and then' },
          { text: 'more' },
        ],
      },
    ]);
    expect(warnings).toEqual([{ code: 'approximated', path: 'tool_result.a', detail: 'missing-result' }]);
  });

  it('a result with an unknown id pairs by name, else by its own name; with neither it is a 400 naming the part', () => {
    const { contents } = run([user({ type: 'text', text: 'q' }), model(call('a', 'f'), call('b', 'g')), user(result('zz', 'G', { name: 'g' }), result('yy', 'H', { name: 'h' }))]);
    expect(contents[2]!.parts).toStrictEqual([
      { functionResponse: { name: 'f', response: { error: 'No result was provided for this call.' } } },
      { functionResponse: { name: 'g', response: { output: 'G' } } },
      { functionResponse: { name: 'h', response: { output: 'H' } } },
    ]);
    let err: unknown;
    try {
      run([user({ type: 'text', text: 'q' }), model({ type: 'text', text: 'a' }), user(result('nope', 'x'))]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProxyError);
    expect(err).toMatchObject({ status: 400, param: 'messages[2].content[0]', message: "tool result 'nope' does not answer any tool call in the conversation" });
  });

  it('a second result for the same call id goes to the next open call of that name; a number text is its JSON value', () => {
    const { contents } = run([user({ type: 'text', text: 'q' }), model(call('a', 'f'), call('b', 'f')), user(result('a', '1', { name: 'f' }), result('a', '2', { name: 'f' }))]);
    expect(contents[2]!.parts).toStrictEqual([
      { functionResponse: { name: 'f', response: { output: 1 } } },
      { functionResponse: { name: 'f', response: { output: 2 } } },
    ]);
  });

  it('turns of one role join; a model turn with nothing to send is left out; a user turn of nothing too', () => {
    const { contents } = run([user({ type: 'text', text: 'a' }), user({ type: 'text', text: 'b' }), model({ type: 'reasoning', text: '' }), user({ type: 'text', text: '' }), model({ type: 'text', text: 'c' }), model({ type: 'text', text: 'd' })]);
    expect(contents).toStrictEqual([
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
      { role: 'model', parts: [{ text: 'c' }, { text: 'd' }] },
    ]);
  });
});
