/**
 * `interlingua demo`: each caller SDK (openai: Chat Completions and Responses; @anthropic-ai/sdk;
 * @google/genai: generateContent and Interactions) against each demo upstream, JSON and stream,
 * with a tool round: a text answer echoing the question, a call of the offered tool with arguments
 * from its schema, and an answer reading the tool's result. The demo upstreams answer in-process
 * in their own dialect (src/demo), so every answer here also went through a translation (or the
 * same-dialect passthrough) as with a real vendor. Node only: the demo is the Node CLI's.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content } from '@google/genai';
import OpenAI from 'openai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { DEMO_UPSTREAMS, demoConfigDocument, demoFetch } from '../../src/demo/index.ts';
import { startNode } from '../../src/runtime/node.ts';
import { run, start, tsx } from '../support/processes.ts';
import { collect, checked, streamedSteps } from './interactions-helpers.ts';

const QUESTION = 'Weather in Paris?';
const RESULT = '{"temp":21}';
const weatherSchema = { type: 'object' as const, properties: { location: { type: 'string' } }, required: ['location'] };

/** What a caller got back: the text, or the one tool call. */
interface Turn {
  text: string;
  call?: { name: string; args: Record<string, unknown> };
}

/** A caller dialect through its SDK: a question with or without the tool, then the tool's result answered. */
interface Caller {
  name: string;
  ask(model: string, stream: boolean, withTool: boolean): Promise<Turn & { next?: (result: string) => Promise<Turn> }>;
}

function callers(url: string): Caller[] {
  const openai = new OpenAI({ apiKey: 'demo', baseURL: `${url}/v1`, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: 'demo', baseURL: url, maxRetries: 0 });
  const genai = new GoogleGenAI({ apiKey: 'demo', httpOptions: { baseUrl: url } });
  const fn = { name: 'get_weather', description: 'Weather for a place', parameters: weatherSchema };
  return [
    {
      name: 'openai chat.completions',
      async ask(model, stream, withTool) {
        const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: QUESTION }];
        const tools = withTool ? [{ type: 'function' as const, function: fn }] : undefined;
        const send = async () => {
          const body = { model, messages, tools };
          return (stream ? await openai.chat.completions.stream(body).finalChatCompletion() : await openai.chat.completions.create(body)).choices[0]!.message;
        };
        const m = await send();
        const tc = m.tool_calls?.[0];
        if (!tc || tc.type !== 'function') return { text: m.content ?? '' };
        return {
          text: m.content ?? '',
          call: { name: tc.function.name, args: JSON.parse(tc.function.arguments) },
          next: async (result) => {
            messages.push(m, { role: 'tool', tool_call_id: tc.id, content: result });
            return { text: (await send()).content ?? '' };
          },
        };
      },
    },
    {
      name: 'openai responses',
      async ask(model, stream, withTool) {
        const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: QUESTION }];
        const tools = withTool ? [{ type: 'function' as const, ...fn, strict: false }] : undefined;
        const send = async () => {
          const body = { model, input, tools, store: false };
          return stream ? await openai.responses.stream(body).finalResponse() : await openai.responses.create(body);
        };
        const r = await send();
        const call = r.output.find((o) => o.type === 'function_call');
        if (!call || call.type !== 'function_call') return { text: r.output_text };
        return {
          text: r.output_text,
          call: { name: call.name, args: JSON.parse(call.arguments) },
          next: async (result) => {
            input.push(...(r.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: result });
            return { text: (await send()).output_text };
          },
        };
      },
    },
    {
      name: 'anthropic messages',
      async ask(model, stream, withTool) {
        const messages: Anthropic.MessageParam[] = [{ role: 'user', content: QUESTION }];
        const tools = withTool ? [{ name: fn.name, description: fn.description, input_schema: weatherSchema }] : undefined;
        const send = async () => {
          const body = { model, max_tokens: 256, messages, tools };
          return stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
        };
        const text = (m: Anthropic.Message) => m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        const m = await send();
        const use = m.content.find((b) => b.type === 'tool_use');
        if (!use || use.type !== 'tool_use') return { text: text(m) };
        expect(m.stop_reason).toBe('tool_use');
        return {
          text: text(m),
          call: { name: use.name, args: use.input as Record<string, unknown> },
          next: async (result) => {
            messages.push({ role: 'assistant', content: m.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: result }] });
            return { text: text(await send()) };
          },
        };
      },
    },
    {
      name: 'genai generateContent',
      async ask(model, stream, withTool) {
        const contents: Content[] = [{ role: 'user', parts: [{ text: QUESTION }] }];
        const config = withTool ? { tools: [{ functionDeclarations: [{ name: fn.name, description: fn.description, parametersJsonSchema: weatherSchema }] }] } : {};
        const send = async (): Promise<{ text: string; content: Content; call?: { name: string; args: Record<string, unknown>; id?: string } }> => {
          if (!stream) {
            const r = await genai.models.generateContent({ model, contents, config });
            const c = r.functionCalls?.[0];
            return { text: r.text ?? '', content: r.candidates![0]!.content!, call: c && { name: c.name!, args: c.args!, id: c.id } };
          }
          let text = '';
          const parts: NonNullable<Content['parts']> = [];
          for await (const chunk of await genai.models.generateContentStream({ model, contents, config })) {
            text += chunk.text ?? '';
            parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
          }
          const c = parts.find((p) => p.functionCall)?.functionCall;
          return { text, content: { role: 'model', parts }, call: c && { name: c.name!, args: c.args!, id: c.id } };
        };
        const first = await send();
        if (!first.call) return { text: first.text };
        const { name, args, id } = first.call;
        return {
          text: first.text,
          call: { name, args },
          next: async (result) => {
            contents.push(first.content, { role: 'user', parts: [{ functionResponse: { ...(id ? { id } : {}), name, response: JSON.parse(result) } }] });
            return { text: (await send()).text };
          },
        };
      },
    },
    {
      name: 'genai interactions',
      async ask(model, stream, withTool) {
        const tools = withTool ? [{ type: 'function' as const, ...fn }] : undefined;
        const input: any[] = [{ type: 'user_input', content: [{ type: 'text', text: QUESTION }] }];
        const send = async (): Promise<any[]> => {
          const body = { model, input, tools, store: false };
          if (stream) return streamedSteps(checked(await collect(await genai.interactions.create({ ...body, stream: true }))));
          return (await genai.interactions.create(body)).steps as any[];
        };
        const textOf = (steps: any[]) => steps.filter((s) => s.type === 'model_output').map((s) => s.content.map((c: any) => c.text).join('')).join('');
        const steps = await send();
        const call = steps.find((s) => s.type === 'function_call');
        if (!call) return { text: textOf(steps) };
        return {
          text: textOf(steps),
          call: { name: call.name, args: call.arguments },
          next: async (result) => {
            input.push(...steps, { type: 'function_result', call_id: call.id, name: call.name, result });
            return { text: textOf(await send()) };
          },
        };
      },
    },
  ];
}

describe('interlingua demo: every caller SDK against every demo upstream', () => {
  let close: () => Promise<void>;
  let all: Caller[];
  let origin = '';
  const logs: string[] = [];
  beforeAll(async () => {
    const running = await startNode({ config: parseConfig(demoConfigDocument()), port: 0, fetch: demoFetch({ frameGapMs: 0 }), log: (l) => logs.push(l) });
    close = running.close;
    origin = `http://127.0.0.1:${running.port}`;
    all = callers(origin);
  });
  afterAll(() => close?.());

  const names = ['openai chat.completions', 'openai responses', 'anthropic messages', 'genai generateContent', 'genai interactions'];
  describe.each(names)('%s', (callerName) => {
    describe.each(DEMO_UPSTREAMS.map((u) => [u.name, u.label] as const))('→ %s', (model, label) => {
      it.each([false, true])('stream %s: an echo, then a tool call and an answer reading its result', async (stream) => {
        const caller = all.find((c) => c.name === callerName)!;
        const plain = await caller.ask(model, stream, false);
        expect(plain.text).toBe(`${model} (${label}) echoes: ${QUESTION}`);
        expect(plain.call).toBeUndefined();

        const first = await caller.ask(model, stream, true);
        expect(first.call).toEqual({ name: 'get_weather', args: { location: QUESTION } });
        const second = await first.next!(RESULT);
        expect(second.text).toMatch(new RegExp(`^${model} \\(${label}\\) read the result: the get_weather tool returned .*21`));
      });
    });
  });

  it("the README's Quick start is true: its curl and its three SDK snippets get the answers it says", async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const quick = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Configuration in brief'));
    const curl = /```sh\n(curl [\s\S]*?)```/.exec(quick)![1]!.replace(/\\\n\s*/g, '').replaceAll('http://127.0.0.1:8787', origin);
    const said = /saying `([^`]+)`/.exec(quick.replace(/\n/g, ' '))![1]!;
    const r = await run('/bin/sh', ['-c', curl]);
    expect((JSON.parse(r.stdout) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe(said);
    // The snippets: each SDK, its base URL as written, to the model its comment names.
    const snippet = /```ts\n([\s\S]*?)```/.exec(quick)![1]!.replaceAll('http://127.0.0.1:8787', origin);
    const model = (sdk: string) => new RegExp(`// ${sdk.replace('/', '\\/')}: model '([\\w-]+)'`).exec(snippet)![1]!;
    const base = (re: RegExp) => re.exec(snippet)![1]!;
    const openai = new OpenAI({ baseURL: base(/new OpenAI\(\{ baseURL: '([^']+)'/), apiKey: 'demo', maxRetries: 0 });
    const o = await openai.chat.completions.create({ model: model('openai'), messages: [{ role: 'user', content: 'Hi' }] });
    expect(o.choices[0]!.message.content).toBe(`${model('openai')} (Gemini generateContent) echoes: Hi`);
    const anthropic = new Anthropic({ baseURL: base(/new Anthropic\(\{ baseURL: '([^']+)'/), apiKey: 'demo', maxRetries: 0 });
    const a = await anthropic.messages.create({ model: model('@anthropic-ai/sdk'), max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    expect(a.content[0]).toMatchObject({ type: 'text', text: `${model('@anthropic-ai/sdk')} (OpenAI Chat Completions) echoes: Hi` });
    const genai = new GoogleGenAI({ apiKey: 'demo', httpOptions: { baseUrl: base(/baseUrl: '([^']+)'/) } });
    const g = await genai.models.generateContent({ model: model('@google/genai'), contents: 'Hi' });
    expect(g.text).toBe(`${model('@google/genai')} (OpenAI Responses) echoes: Hi`);
  });

  it('logs each request with its upstream, and reaches no network', async () => {
    await new Promise((r) => setTimeout(r, 50));
    const entries = logs.map((l) => JSON.parse(l) as { status: number; upstream?: string });
    expect(entries.length).toBeGreaterThan(100);
    expect(entries.filter((e) => e.status !== 200)).toEqual([]);
    const fetch = demoFetch();
    await expect(fetch('http://127.0.0.1:9/v1/chat/completions', { method: 'POST', body: '{}' })).rejects.toThrow(/The demo reaches no network/);
  });
});

describe('interlingua demo on the command line', () => {
  it('starts with the inspector on, prints a request per caller dialect, and each one printed answers through another dialect', async () => {
    const demo = start(...tsx('src/runtime/cli.ts', 'demo', '--port', '0'), { env: { ...process.env, PORT: '', HOST: '', INTERLINGUA_CONFIG: '' } });
    try {
      const url = (await demo.waitFor(/listening on (http:\/\/\S+) \(demo config, 5 routes, 5 upstreams\)/))[1]!;
      await demo.waitFor(/Gemini Interactions → demo-openai[^\n]*\n[^\n]*\n/);
      expect(demo.err()).toContain(`interlingua inspector: ${url}/_inspector`);
      const curls = [...demo.err().matchAll(/^ {2}(curl .*)$/gm)].map((m) => m[1]!);
      expect(curls.map((c) => /\/v1\S*|\/v1beta\S*/.exec(c)![0])).toEqual([
        '/v1/chat/completions',
        '/v1/chat/completions',
        '/v1/messages',
        '/v1beta/models/demo-responses:generateContent',
        '/v1/responses',
        '/v1beta/interactions',
      ]);
      for (const curl of curls) {
        const r = await run('/bin/sh', ['-c', curl]);
        expect(r.status, curl).toBe(0);
        // Each answer names the upstream of another dialect that made it, in the caller's own shape
        // (a stream: its text deltas joined).
        const text = r.stdout.startsWith('data:')
          ? [...r.stdout.matchAll(/^data: (\{.*\})$/gm)].map((m) => (JSON.parse(m[1]!) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '').join('')
          : r.stdout;
        expect(text, curl).toMatch(/demo-\w+ \([^)]+\) echoes: Hello from curl/);
      }
      const exchanges = (await (await fetch(`${url}/_inspector/api/exchanges`)).json()) as { exchanges: unknown[] };
      expect(exchanges.exchanges).toHaveLength(curls.length);
    } finally {
      await demo.stop();
    }
  }, 60_000);

  it('takes no --config', async () => {
    const r = await run(...tsx('src/runtime/cli.ts', 'demo', '--config', 'x.json'));
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('interlingua: demo has its own config; leave out --config (see interlingua --help)');
  });
});
