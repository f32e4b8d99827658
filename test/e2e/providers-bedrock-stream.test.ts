/**
 * Amazon Bedrock (Claude) streams end to end: the official SDKs → Interlingua (Node and workerd)
 * → a mock of Bedrock that verifies SigV4 and answers invoke-with-response-stream with the binary
 * AWS event stream (`application/vnd.amazon.eventstream`, as Bedrock does), frames split across
 * network chunks; exceptions and a corrupt frame mid-stream.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { exceptionFrame, framesOfSse } from '../support/aws.ts';
import { fixtureText } from '../support/fixtures.ts';
import { INBOUND_KEY, TARGETS } from '../support/proxy.ts';
import { fixtureStreamAnswer } from './helpers-anthropic.ts';
import { API_KEY, ASK, bedrock, eventStream, MODEL, MODEL_PATH, PROFILE, SECRETS, stream, useBedrock, type Seen } from './helpers-bedrock.ts';

/** Read a stream to its end; what it threw, if anything. */
async function drain(s: AsyncIterable<unknown>): Promise<unknown> {
  try {
    for await (const _ of s);
    return undefined;
  } catch (e) {
    return e;
  }
}

describe.each(TARGETS)('%s: SDKs → Interlingua → Amazon Bedrock (Claude), streams', (target) => {
  const h = useBedrock(target);
  let anthropic: Anthropic;
  beforeAll(() => {
    anthropic = new Anthropic({ apiKey: INBOUND_KEY, baseURL: h.proxy.url, maxRetries: 0 });
  });

  it('anthropic SDK: /invoke-with-response-stream, the event stream decoded into the answer', async () => {
    const seen: Seen[] = [];
    h.mock.reply(bedrock(stream('stream-text-basic.sse'), seen));
    const s = anthropic.messages.stream(ASK);
    let text = '';
    for await (const e of s) if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') text += e.delta.text;
    const final = await s.finalMessage();
    expect(text).toBe(fixtureStreamAnswer('anthropic', 'stream-text-basic.sse'));
    expect(final.stop_reason).toBe('end_turn');
    expect(seen).toEqual([{ model: MODEL, op: 'invoke-with-response-stream', auth: 'sigv4' }]);
    expect(h.mock.requests[0]!.url).toBe(`${MODEL_PATH}/invoke-with-response-stream`);
    expect(h.mock.requests[0]!.json.stream).toBeUndefined();
  });

  it('anthropic SDK with the Bedrock API key (an inference profile): Authorization: Bearer, nothing signed, the event stream decoded', async () => {
    const seen: Seen[] = [];
    h.mock.reply(bedrock(stream('stream-text-basic.sse'), seen));
    const final = await anthropic.messages.stream({ ...ASK, model: 'claude-profile' }).finalMessage();
    expect(final.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('')).toBe(fixtureStreamAnswer('anthropic', 'stream-text-basic.sse'));
    expect(final.stop_reason).toBe('end_turn');
    expect(seen).toEqual([{ model: PROFILE, op: 'invoke-with-response-stream', auth: 'bearer' }]);
    const got = h.mock.requests[0]!;
    expect(got.url).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream');
    expect(got.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(got.headers['x-amz-date']).toBeUndefined();
    expect(got.headers['x-api-key']).toBeUndefined();
    expect(got.json.stream).toBeUndefined();
  });

  it('openai responses.create stream (Responses API caller): the event stream as Responses events', async () => {
    const openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    h.mock.reply(bedrock(stream('stream-text-basic.sse')));
    const events = await openai.responses.create({ model: 'gpt-4o', input: 'Hi', stream: true });
    let text = '';
    let completed: OpenAI.Responses.Response | undefined;
    for await (const e of events) {
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'response.completed') completed = e.response;
    }
    expect(text).toBe(fixtureStreamAnswer('anthropic', 'stream-text-basic.sse'));
    expect(completed?.status).toBe('completed');
    expect(completed?.usage?.output_tokens).toBeGreaterThan(0);
    expect(h.mock.requests.map((r) => r.url)).toEqual([`${MODEL_PATH}/invoke-with-response-stream`]);

    // An exception mid-stream reaches the Responses caller as an error, not a silent end.
    const frames = framesOfSse(fixtureText('anthropic', 'stream-text-basic.sse')).slice(0, 3);
    h.mock.reply(bedrock(eventStream([...frames, exceptionFrame('throttlingException', 'Too many tokens, please wait.')])));
    const err = await drain(await openai.responses.create({ model: 'gpt-4o', input: 'Hi', stream: true }));
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toContain('Too many tokens, please wait.');
  });

  it('anthropic SDK: streamed tool use', async () => {
    h.mock.reply(bedrock(stream('stream-tool-use.sse')));
    const final = await anthropic.messages
      .stream({ ...ASK, tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }] })
      .finalMessage();
    expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({ type: 'tool_use', name: 'get_weather' });
    expect(final.stop_reason).toBe('tool_use');
  });

  it('betas: the documented ones go in anthropic_beta, the others are dropped and reported', async () => {
    h.mock.reply(bedrock(stream('stream-text-basic.sse')));
    const { response } = await anthropic.beta.messages.create({ ...ASK, stream: true, betas: ['context-1m-2025-08-07', 'files-api-2025-04-14'] }).withResponse();
    await response.text();
    expect(h.mock.requests[0]!.json.anthropic_beta).toEqual(['context-1m-2025-08-07']);
    expect(response.headers.get('x-interlingua-warnings')).toContain('dropped:anthropic-beta=files-api-2025-04-14');
  });

  it('an exception in the stream (throttlingException) → the caller stream ends with a rate_limit_error', async () => {
    const frames = framesOfSse(fixtureText('anthropic', 'stream-text-basic.sse')).slice(0, 3);
    h.mock.reply(bedrock(eventStream([...frames, exceptionFrame('throttlingException', 'Too many tokens, please wait.')])));
    const err = await drain(anthropic.messages.stream(ASK));
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(String((err as Error).message)).toContain('Too many tokens, please wait.');
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { type: 'rate_limit_error' } });
  });

  it('a corrupt frame (bad message CRC) ends the stream with an api_error', async () => {
    const frames = framesOfSse(fixtureText('anthropic', 'stream-text-basic.sse'));
    const bad = frames[2]!.slice();
    const at = bad.length - 6;
    bad[at] = bad[at]! ^ 0x20;
    h.mock.reply(bedrock(eventStream([frames[0]!, frames[1]!, bad, ...frames.slice(3)])));
    const err = await drain(anthropic.messages.stream(ASK));
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(String((err as Error).message)).toMatch(/Bedrock event stream is corrupt: message checksum mismatch/);
  });

  it('openai SDK: a streamed chat completion', async () => {
    const openai = new OpenAI({ apiKey: INBOUND_KEY, baseURL: `${h.proxy.url}/v1`, maxRetries: 0 });
    h.mock.reply(bedrock(stream('stream-text-basic.sse')));
    const chunks = await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let text = '';
    let finish: string | null = null;
    for await (const c of chunks) {
      text += c.choices[0]?.delta.content ?? '';
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(fixtureStreamAnswer('anthropic', 'stream-text-basic.sse'));
    expect(finish).toBe('stop');
    expect(h.mock.requests[0]!.url).toBe(`${MODEL_PATH}/invoke-with-response-stream`);
  });

  it('@google/genai: generateContentStream', async () => {
    const genai = new GoogleGenAI({ apiKey: INBOUND_KEY, httpOptions: { baseUrl: h.proxy.url } });
    h.mock.reply(bedrock(stream('stream-text-basic.sse')));
    let text = '';
    for await (const c of await genai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'Hi' })) text += c.text ?? '';
    expect(text).toBe(fixtureStreamAnswer('anthropic', 'stream-text-basic.sse'));
    expect(h.mock.requests.map((r) => r.url)).toEqual([`${MODEL_PATH}/invoke-with-response-stream`]);
  });

  it('no credential in any log line', () => {
    expect(h.proxy.logs.length).toBeGreaterThan(0);
    for (const line of h.proxy.logs) for (const s of SECRETS) expect(line).not.toContain(s);
  });
});
