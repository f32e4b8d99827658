/**
 * `@google/genai` as the caller, through a real Interlingua server, against mock upstreams of all
 * three chat dialects: text, streams (both framings), both path forms, errors, model list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureJson } from '../support/fixtures.ts';
import { INBOUND_KEY, TARGETS, UPSTREAM_KEYS, useHarness } from '../support/proxy.ts';
import { apiErrorOf, genai, rejection, retryDelayOf, UPSTREAM_CASES, type GoogleGenAI } from './helpers-gemini.ts';

/** The chunks of an SSE reply as the JSON array a Gemini upstream sends without alt=sse. */

describe.each(TARGETS)('%s: @google/genai → Interlingua', (target) => {
  const h = useHarness(target);
  let ai: GoogleGenAI;
  beforeAll(() => {
    ai = genai(h.proxy.url);
  });

  describe.each(UPSTREAM_CASES)('→ $kind upstream', (u) => {
    it('generateContent: text, systemInstruction and generationConfig knobs', async () => {
      h.mock.reply(u.text);
      const res = await ai.models.generateContent({
        model: u.model,
        contents: 'What is the weather like?',
        config: { systemInstruction: 'Answer in one word.', temperature: 0.3, topP: 0.9, maxOutputTokens: 200, stopSequences: ['END'] },
      });
      expect(res.text).toBe(u.expectedText);
      expect(res.candidates![0]!.finishReason).toBe('STOP');
      expect(res.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
      expect(h.mock.requests).toHaveLength(1);
      const r = h.mock.requests[0]!;
      expect(r.url).toBe(u.path);
      expect(u.lastUserText(r)).toBe('What is the weather like?');
      const body = r.json;
      switch (u.kind) {
        case 'openai':
          expect(r.headers.authorization).toBe(`Bearer ${UPSTREAM_KEYS.openai}`);
          expect(body.model).toBe('gpt-4o-mini');
          expect(body.messages[0]).toMatchObject({ role: expect.stringMatching(/^(system|developer)$/) });
          expect(JSON.stringify(body.messages[0].content)).toContain('Answer in one word.');
          expect(body).toMatchObject({ temperature: 0.3, top_p: 0.9, stop: ['END'] });
          expect(body.max_completion_tokens ?? body.max_tokens).toBe(200);
          break;
        case 'anthropic':
          expect(r.headers['x-api-key']).toBe(UPSTREAM_KEYS.anthropic);
          expect(body.model).toBe('claude-sonnet-4-5');
          expect(JSON.stringify(body.system)).toContain('Answer in one word.');
          // Claude Sonnet 4.5 refuses temperature with top_p: top_p goes (reported), temperature stays.
          expect(body).toMatchObject({ temperature: 0.3, max_tokens: 200, stop_sequences: ['END'] });
          expect(body).not.toHaveProperty('top_p');
          break;
        case 'gemini':
          expect(r.headers['x-goog-api-key']).toBe(UPSTREAM_KEYS.gemini);
          expect(r.url).not.toContain('key=');
          expect(body.systemInstruction.parts[0].text).toBe('Answer in one word.');
          expect(body.generationConfig).toMatchObject({ temperature: 0.3, topP: 0.9, maxOutputTokens: 200, stopSequences: ['END'] });
          break;
      }
    });

    it('an agent-sized conversation (300 KB: non-ASCII text, calls and results) arrives whole', async () => {
      // Read as one-byte text and sent in pieces on the way (latin1-json.ts, json-body.ts).
      h.mock.reply(u.text);
      const filler = 'const s = "é ü ß 漢字 😀 \\" \\\\ \t";\n'.repeat(40);
      const contents = [];
      for (let i = 0; i < 100; i++) {
        contents.push({ role: 'user', parts: [{ text: `turn ${i} — ${filler}` }] });
        contents.push({ role: 'model', parts: [{ functionCall: { name: 'read', args: { path: `src/ü${i}.ts` } } }] });
        contents.push({ role: 'user', parts: [{ functionResponse: { name: 'read', response: { output: `file ${i}: ${filler}` } } }] });
      }
      contents.push({ role: 'user', parts: [{ text: 'Now: ÿ end.' }] });
      const res = await ai.models.generateContent({ model: u.model, contents, config: { tools: [{ functionDeclarations: [{ name: 'read', description: 'Read a file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } }] }] } });
      expect(res.text).toBe(u.expectedText);
      const r = h.mock.requests[0]!;
      expect(Buffer.byteLength(r.body)).toBeGreaterThan(300_000);
      expect(u.lastUserText(r)).toBe('Now: ÿ end.');
      const sent = JSON.stringify(r.json);
      for (const i of [0, 57, 99]) {
        expect(sent).toContain(JSON.stringify(`turn ${i} — ${filler}`).slice(1, -1));
        expect(sent).toContain(`src/ü${i}.ts`);
        expect(sent).toContain(JSON.stringify(`file ${i}: ${filler}`).slice(1, -1).slice(0, 200));
      }
    });

    it('generateContentStream: the SDK parses every chunk and the text reassembles', async () => {
      h.mock.reply(u.stream);
      const stream = await ai.models.generateContentStream({ model: u.model, contents: 'Tell me something.' });
      let text = '';
      let chunks = 0;
      let last: any;
      for await (const chunk of stream) {
        chunks++;
        text += chunk.text ?? '';
        last = chunk;
      }
      expect(text).toBe(u.expectedStreamText);
      expect(chunks).toBeGreaterThanOrEqual(2);
      expect(last.candidates[0].finishReason).toMatch(/^(STOP|MAX_TOKENS)$/);
      expect(last.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
      expect(h.mock.requests).toHaveLength(1);
      expect(h.mock.requests[0]!.url).toBe(u.streamPath);
      if (u.kind !== 'gemini') expect(h.mock.requests[0]!.json.stream).toBe(true);
    });

    it('the /v1/models/… path form (SDK 3.x) and ?key= auth work', async () => {
      h.mock.reply(u.text);
      const res = await fetch(`${h.proxy.url}/v1/models/${u.model}:generateContent?key=${INBOUND_KEY}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Hi there' }] }] }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(body.candidates[0].content.parts.filter((p: any) => !p.thought).map((p: any) => p.text).join('')).toBe(u.expectedText);
      expect(h.mock.requests).toHaveLength(1);
      expect(h.mock.requests[0]!.url).toBe(u.path);
      expect(u.lastUserText(h.mock.requests[0]!)).toBe('Hi there');
    });

    it('streamGenerateContent without alt=sse: one JSON array', async () => {
      // Every upstream is streamed with SSE, so the one pipeline checks each event; the caller still
      // gets the JSON array it asked for.
      h.mock.reply(u.stream);
      const res = await fetch(`${h.proxy.url}/v1beta/models/${u.model}:streamGenerateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': INBOUND_KEY },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Tell me something.' }] }] }),
      });
      expect(res.status).toBe(200);
      const raw = await res.text();
      const chunks = JSON.parse(raw) as any[];
      expect(Array.isArray(chunks)).toBe(true);
      expect(chunks.length).toBeGreaterThanOrEqual(1);
      const text = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).map((p: any) => (p.thought ? '' : (p.text ?? ''))).join('');
      expect(text).toBe(u.expectedStreamText);
      expect(chunks.at(-1).candidates[0].finishReason).toBeDefined();
      if (u.kind === 'gemini') expect(h.mock.requests[0]!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
      else expect(h.mock.requests[0]!.json.stream).toBe(true);
    });

    it('upstream 429 → ApiError 429 RESOURCE_EXHAUSTED with RetryInfo', async () => {
      h.mock.reply(u.rateLimit);
      const e = await rejection(ai.models.generateContent({ model: u.model, contents: 'hi' }));
      const { status, body } = apiErrorOf(e);
      expect(status).toBe(429);
      expect(body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
      const expectedDelay = { openai: '2s', anthropic: '7s', gemini: '35s' }[u.kind];
      expect(retryDelayOf(body.error.details)).toBe(expectedDelay);
      expect(h.mock.requests).toHaveLength(1);
    });

    it('mid-stream upstream error → an error chunk, then close; the SDK throws', async () => {
      h.mock.reply(u.midStreamError);
      const stream = await ai.models.generateContentStream({ model: u.model, contents: 'hi' });
      let text = '';
      const e = await rejection(
        (async () => {
          for await (const chunk of stream) text += chunk.text ?? '';
        })(),
      );
      expect(e).toBeInstanceOf(Error);
      expect(text.length).toBeGreaterThan(0);
      expect(h.mock.requests).toHaveLength(1);
      // On the wire: the last event is the error object, and the stream is closed after it.
      const res = await fetch(`${h.proxy.url}/v1beta/models/${u.model}:streamGenerateContent?alt=sse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': INBOUND_KEY },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
      });
      const events = (await res.text()).split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)));
      expect(events.length).toBeGreaterThanOrEqual(2);
      expect(events.at(-1).error).toMatchObject({ code: expect.any(Number), status: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) });
      expect(events.slice(0, -1).every((ev) => ev.error === undefined)).toBe(true);
      if (u.kind === 'gemini') return; // a passthrough keeps the upstream's own framing
      // Without alt=sse: still one valid JSON array, the error object its last element.
      const arr = await fetch(`${h.proxy.url}/v1beta/models/${u.model}:streamGenerateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': INBOUND_KEY },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
      });
      const items = JSON.parse(await arr.text()) as any[];
      expect(items.at(-1).error.status).toMatch(/^[A-Z_]+$/);
      expect(items.slice(0, -1).some((c) => c.candidates?.[0]?.content?.parts?.[0]?.text)).toBe(true);
    });

    it('bad input: temperature 3 and six stopSequences → 400 INVALID_ARGUMENT, nothing upstream', async () => {
      const e1 = apiErrorOf(await rejection(ai.models.generateContent({ model: u.model, contents: 'hi', config: { temperature: 3 } })));
      expect(e1.status).toBe(400);
      expect(e1.body.error.status).toBe('INVALID_ARGUMENT');
      expect(e1.body.error.message).toContain('temperature');
      const e2 = apiErrorOf(
        await rejection(ai.models.generateContent({ model: u.model, contents: 'hi', config: { stopSequences: ['a', 'b', 'c', 'd', 'e', 'f'] } })),
      );
      expect(e2.status).toBe(400);
      expect(e2.body.error.status).toBe('INVALID_ARGUMENT');
      expect(e2.body.error.message).toContain('stopSequences');
      expect(h.mock.requests).toHaveLength(0);
    });
  });

  it('wrong key → 401 UNAUTHENTICATED, nothing upstream', async () => {
    const bad = genai(h.proxy.url, 'wrong-key');
    const { status, body } = apiErrorOf(await rejection(bad.models.generateContent({ model: 'to-openai', contents: 'hi' })));
    expect(status).toBe(401);
    expect(body.error.status).toBe('UNAUTHENTICATED');
    expect(h.mock.requests).toHaveLength(0);
  });

  it('unknown model → 404 NOT_FOUND in Gemini shape', async () => {
    const { status, body } = apiErrorOf(await rejection(ai.models.generateContent({ model: 'mistral-large', contents: 'hi' })));
    expect(status).toBe(404);
    expect(body.error.status).toBe('NOT_FOUND');
    expect(h.mock.requests).toHaveLength(0);
  });

  it('models.list → Gemini-shaped models with supportedGenerationMethods', async () => {
    const names: string[] = [];
    const pager = await ai.models.list();
    for await (const m of pager) {
      names.push(m.name!);
      expect(m.supportedActions ?? (m as any).supportedGenerationMethods).toContain('generateContent');
    }
    expect(names).toContain('models/to-openai');
    expect(names).toContain('models/to-anthropic');
    const raw = (await (await fetch(`${h.proxy.url}/v1beta/models`, { headers: { 'x-goog-api-key': INBOUND_KEY } })).json()) as any;
    expect(raw.models.find((m: any) => m.name === 'models/to-gemini').supportedGenerationMethods).toEqual(
      expect.arrayContaining(['generateContent', 'streamGenerateContent', 'countTokens']),
    );
    const one = await ai.models.get({ model: 'to-anthropic' });
    expect(one.name).toBe('models/to-anthropic');
    expect(apiErrorOf(await rejection(ai.models.get({ model: 'mistral-large' }))).status).toBe(404);
    // Only the upstreams' own model lists were asked (merged behind a cache), nothing else.
    expect(h.mock.requests.every((r) => r.method === 'GET' && /\/models/.test(r.url))).toBe(true);
  });

  it('a Gemini passthrough forwards the body byte for byte', async () => {
    h.mock.reply({ body: JSON.stringify(fixtureJson('gemini', 'system-instruction.json')) });
    const raw = '{"contents":[{"role":"user","parts":[{"text":"exact  bytes"}]}],"safetySettings":[{"category":"HARM_CATEGORY_HATE_SPEECH","threshold":"BLOCK_NONE"}]}';
    const res = await fetch(`${h.proxy.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': INBOUND_KEY },
      body: raw,
    });
    expect(res.status).toBe(200);
    expect(h.mock.requests[0]!.body).toBe(raw);
  });
});
