/**
 * The OpenAI-compatible hosts' quirks, each driven by its knob (translators/types.ts
 * UpstreamOptions), on the translated and the passthrough path. Each case fails without its
 * handling. Fixtures: __fixtures__/hosts/.
 */
import { describe, expect, it, test } from 'vitest';
import type { ChatRequest } from '../../src/canonical/index.ts';
import { fixtureJson, testContext } from '../../test/support/fixtures.ts';
import type { CallerInput, UpstreamOptions, UpstreamTarget } from '../types.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodePassthrough } from './passthrough.ts';
import { adaptBody, adaptsBody, alphanumericIds, fitFields } from './host-quirks.ts';

const MISTRAL: UpstreamOptions = { maxTokensField: 'max_tokens', textContent: 'string', streamOptions: false, toolCallIds: 'alphanumeric-9' };
const DEEPSEEK: UpstreamOptions = { maxTokensField: 'max_tokens', textContent: 'string', replayReasoning: true };
const GROQ: UpstreamOptions = { maxTokensField: 'max_tokens', textContent: 'string' };

const target = (options: UpstreamOptions = {}): UpstreamTarget => ({ name: 'u', model: 'm', apiKey: 'k', options });

function encode(req: ChatRequest, options: UpstreamOptions = {}) {
  const { value, warnings } = encodeRequest(req, target(options));
  return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
}

function passthrough(body: Record<string, unknown>, options: UpstreamOptions = {}) {
  const raw = JSON.stringify(body);
  const input: CallerInput = { body, headers: {}, params: {}, query: {} };
  const out = encodePassthrough(input, raw, { ...target(options), model: body['model'] as string });
  return { raw: out.body as string, body: JSON.parse(out.body as string) as Record<string, any>, untouched: out.body === raw };
}

const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });

/** A two-turn tool conversation whose ids come from another vendor. */
const toolHistory: ChatRequest = {
  model: 'm',
  system: [],
  messages: [
    user('Weather in Paris and Rome?'),
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'I need the weather for two cities.' },
        { type: 'tool-call', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', name: 'get_weather', arguments: '{"city":"Rome"}' },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool-result', callId: 'toolu_01A09q90qw90lq917835lq9', content: [{ type: 'text', text: '18C' }] },
        { type: 'tool-result', callId: 'call_PTLP8xhu3uwZk4l3nlnrrJha', content: [{ type: 'text', text: '24C' }] },
      ],
    },
  ],
  maxOutputTokens: 256,
  stream: true,
};

describe('length limit: max_tokens to compatible hosts, max_completion_tokens to OpenAI and Azure', () => {
  // Mistral: 422 extra_forbidden on max_completion_tokens (github.com/editor-code-assistant/eca/issues/231).
  test('translated', () => {
    expect(encode(toolHistory).body).toMatchObject({ max_completion_tokens: 256 });
    expect(encode(toolHistory).body.max_tokens).toBeUndefined();
    const compat = encode(toolHistory, GROQ).body;
    expect(compat.max_tokens).toBe(256);
    expect(compat.max_completion_tokens).toBeUndefined();
  });

  test('passthrough: renamed only where the host needs it; bytes untouched otherwise', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 99 };
    expect(passthrough(body).untouched).toBe(true);
    const out = passthrough(body, GROQ);
    expect(out.body).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 99 });
    expect(passthrough({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5 }, MISTRAL).untouched).toBe(true);
  });
});

describe('stream_options: never to Mistral (it refuses the field, and sends usage anyway)', () => {
  // github.com/openai/openai-agents-python/issues/442: 422 extra_forbidden on stream_options.include_usage.
  test('translated and passthrough', () => {
    expect(encode(toolHistory).body.stream_options).toEqual({ include_usage: true });
    expect(encode(toolHistory, GROQ).body.stream_options).toEqual({ include_usage: true });
    expect(encode(toolHistory, MISTRAL).body.stream_options).toBeUndefined();
    const out = passthrough({ model: 'm', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Hi' }] }, MISTRAL);
    expect(out.body.stream_options).toBeUndefined();
    expect(out.body.stream).toBe(true);
  });
});

describe('DeepSeek thinking mode: reasoning_content replayed on assistant turns', () => {
  // api-docs.deepseek.com/guides/thinking_mode#tool-calls: without it, turn 2 is a 400
  // ("The `reasoning_content` in the thinking mode must be passed back to the API.").
  test('sent to DeepSeek, never to OpenAI proper', () => {
    const ds = encode(toolHistory, DEEPSEEK).body.messages[1];
    expect(ds.reasoning_content).toBe('I need the weather for two cities.');
    expect(ds.tool_calls).toHaveLength(2);
    expect(encode(toolHistory).body.messages[1].reasoning_content).toBeUndefined();
  });

  test('DeepSeek answer → canonical reasoning part → replayed on the next turn', () => {
    const res = decodeResponse(fixtureJson('openai-chat', 'hosts/deepseek-tool-call-thinking.json'), toolHistory, testContext());
    const turn = res.choices[0]!.content;
    expect(turn[0]).toEqual({ type: 'reasoning', text: 'The user wants the weather in Paris. I should call get_weather with city Paris.' });
    const next: ChatRequest = { ...toolHistory, messages: [user('Weather?'), { role: 'assistant', content: turn }, { role: 'user', content: [{ type: 'tool-result', callId: 'call_00_Kq3vX1aZpN2rT8yW', content: [{ type: 'text', text: '18C' }] }] }] };
    const sent = encode(next, DEEPSEEK).body.messages[1];
    expect(sent.reasoning_content).toBe('The user wants the weather in Paris. I should call get_weather with city Paris.');
    expect(sent.tool_calls[0].id).toBe('call_00_Kq3vX1aZpN2rT8yW');
  });

  test('several thoughts of one turn stay apart; a signed one replays its text, reported', () => {
    const req: ChatRequest = {
      ...toolHistory,
      messages: [
        user('q'),
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'First thought.', signature: { origin: 'anthropic', value: 'sig' } },
            { type: 'tool-call', id: 'a', name: 'f', arguments: '{}' },
            { type: 'reasoning', text: 'Second thought.' },
          ],
        },
      ],
    };
    const { body, warnings } = encode(req, DEEPSEEK);
    expect(body.messages[1].reasoning_content).toBe('First thought.\n\nSecond thought.');
    expect(warnings).toContainEqual({ code: 'signature-not-replayed', path: 'messages[1].content[0]' });
  });
});

describe('Mistral tool-call ids: [a-zA-Z0-9]{9}, mapped deterministically', () => {
  // "Tool call id was call_… but must be a-z, A-Z, 0-9, with a length of 9." (fixture
  // hosts/mistral-error-400-tool-call-id.json; github.com/langchain-ai/langchain/pull/24668).
  const valid = /^[A-Za-z0-9]{9}$/;

  test('foreign ids mapped, a call and its result to the same id, the same way every time', () => {
    const a = encode(toolHistory, MISTRAL).body.messages;
    const calls = a[1].tool_calls.map((c: any) => c.id);
    expect(calls.every((id: string) => valid.test(id))).toBe(true);
    expect(new Set(calls).size).toBe(2);
    expect([a[2].tool_call_id, a[3].tool_call_id]).toEqual(calls);
    expect(encode(toolHistory, MISTRAL).body.messages[1].tool_calls.map((c: any) => c.id)).toEqual(calls);
    // Unmapped anywhere else.
    expect(encode(toolHistory).body.messages[1].tool_calls[0].id).toBe('toolu_01A09q90qw90lq917835lq9');
  });

  test("Mistral's own ids come back unchanged; a hash never takes an id already in the request", () => {
    const map = alphanumericIds(['aB3xK9mP2', 'call_1', 'call_1', 'Zz9Zz9Zz9']);
    expect(map('aB3xK9mP2')).toBe('aB3xK9mP2');
    expect(map('Zz9Zz9Zz9')).toBe('Zz9Zz9Zz9');
    expect(map('call_1')).toMatch(valid);
    // A collision is salted away: force one by reserving the hash of `x`.
    const hashOfX = alphanumericIds(['x'])('x');
    const salted = alphanumericIds([hashOfX, 'x']);
    expect(salted('x')).not.toBe(hashOfX);
    expect(salted('x')).toMatch(valid);
  });

  test('the mapping is fixed across releases and processes: a cached conversation keeps its ids', () => {
    // Pinned values: a change to the hash would re-key every stored Mistral conversation.
    const ids = ['call_PTLP8xhu3uwZk4l3nlnrrJha', 'toolu_01A09q90qw90lq917835lq9', 'x', 'y'];
    expect(ids.map(alphanumericIds(ids))).toEqual(['9bHDxMwvK', 'NmLNDYfGG', 'LkbTna7CL', 'a7CLmLkbT']);
    // The salted second choice is fixed too.
    expect(alphanumericIds(['LkbTna7CL', 'x'])('x')).toBe('rzOkp6M0b');
  });

  test('passthrough: an OpenAI history sent to Mistral gets the same mapping', () => {
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_PTLP8xhu3uwZk4l3nlnrrJha', content: '18C' },
      ],
    };
    const out = passthrough(body, MISTRAL).body.messages;
    expect(out[1].tool_calls[0].id).toMatch(valid);
    expect(out[2].tool_call_id).toBe(out[1].tool_calls[0].id);
    const own = { ...body, messages: [body.messages[0], { ...body.messages[1], tool_calls: [{ ...body.messages[1]!.tool_calls![0]!, id: 'aB3xK9mP2' }] }, { ...body.messages[2], tool_call_id: 'aB3xK9mP2' }] };
    expect(passthrough(own, MISTRAL).untouched).toBe(true);
  });
});

describe('text parts joined for string-only hosts keep their separation', () => {
  // Groq: "'messages.0' : for 'role:system' … ('messages.0.content' : value must be a string)"
  // (github.com/OpenHands/OpenHands/issues/4643); DeepSeek likewise (github.com/gptme/gptme/pull/896).
  const req: ChatRequest = {
    model: 'm',
    system: [{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Answer in French.' }],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Part one.' }, { type: 'text', text: 'Part two.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Un.' }, { type: 'text', text: 'Deux.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Look:' }, { type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] },
    ],
    stream: false,
  };

  test('OpenAI proper: text parts stay parts', () => {
    const m = encode(req).body.messages;
    expect(m[0].content).toEqual([{ type: 'text', text: 'You are terse.' }, { type: 'text', text: 'Answer in French.' }]);
    expect(m[2].content).toEqual([{ type: 'text', text: 'Un.' }, { type: 'text', text: 'Deux.' }]);
  });

  test('a string-only host: one string, parts apart by a blank line; media keeps its array', () => {
    const m = encode(req, GROQ).body.messages;
    expect(m[0].content).toBe('You are terse.\n\nAnswer in French.');
    expect(m[1].content).toBe('Part one.\n\nPart two.');
    expect(m[2].content).toBe('Un.\n\nDeux.');
    expect(Array.isArray(m[3].content)).toBe(true);
  });

  test('passthrough: a caller’s text-only arrays joined the same way', () => {
    const out = passthrough(
      { model: 'm', messages: [{ role: 'system', content: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }] }, { role: 'user', content: 'Hi' }] },
      GROQ,
    );
    expect(out.body.messages[0].content).toBe('A\n\nB');
    // A part that carries more than its text keeps the array.
    const cached = [{ type: 'text', text: 'A' }, { type: 'text', text: 'B', cache_control: { type: 'ephemeral' } }];
    expect(passthrough({ model: 'm', messages: [{ role: 'system', content: cached }] }, GROQ).untouched).toBe(true);
  });
});

describe('adaptsBody / adaptBody: which passthrough bodies change', () => {
  test('any one knob asks for adapting; none, or the OpenAI defaults, do not', () => {
    expect(adaptsBody({})).toBe(false);
    expect(adaptsBody({ maxTokensField: 'max_completion_tokens', streamOptions: true, replayReasoning: true })).toBe(false);
    expect(adaptsBody({ maxTokensField: 'max_tokens' })).toBe(true);
    expect(adaptsBody({ streamOptions: false })).toBe(true);
    expect(adaptsBody({ toolCallIds: 'alphanumeric-9' })).toBe(true);
    expect(adaptsBody({ textContent: 'string' })).toBe(true);
    expect(adaptsBody({ bodyFields: { allow: ['model'] } })).toBe(true);
  });

  test("Mistral passthrough: the length limit renamed (never over the caller's own max_tokens), stream_options dropped", () => {
    expect(adaptBody({ model: 'm', max_completion_tokens: 5, max_tokens: 9, stream_options: { include_usage: true }, stream: true }, MISTRAL)).toEqual({ model: 'm', max_tokens: 9, stream: true });
    expect(adaptBody({ model: 'm', max_completion_tokens: 5 }, MISTRAL)).toEqual({ model: 'm', max_tokens: 5 });
    expect(adaptBody({ model: 'm', messages: 'x', max_completion_tokens: 5 }, MISTRAL)).toEqual({ model: 'm', messages: 'x', max_tokens: 5 });
    expect(adaptBody({ model: 'm', stream_options: { include_usage: true } }, { streamOptions: true })).toBeUndefined();
    expect(adaptBody({ model: 'm', max_completion_tokens: 5 }, { maxTokensField: 'max_completion_tokens' })).toBeUndefined();
  });

  test('Mistral passthrough ids: malformed entries pass as they are, the rest mapped; calls or results alone are mapped too', () => {
    const out = adaptBody(
      {
        model: 'm',
        messages: [
          null,
          'x',
          { role: 'assistant', content: null, tool_calls: [null, { id: 5 }, { id: 'call_abc', type: 'function', function: { name: 'f', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'call_abc', content: [{ type: 'text', text: 'r' }] },
        ],
      },
      MISTRAL,
    )!;
    const messages = out['messages'] as any[];
    expect(messages.slice(0, 2)).toEqual([null, 'x']);
    expect(messages[2].tool_calls.slice(0, 2)).toEqual([null, { id: 5 }]);
    expect(messages[2].tool_calls[2]).toEqual({ id: alphanumericIds(['call_abc'])('call_abc'), type: 'function', function: { name: 'f', arguments: '{}' } });
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: messages[2].tool_calls[2].id, content: 'r' });
    const ids = { toolCallIds: 'alphanumeric-9' as const };
    expect(adaptBody({ model: 'm', messages: [{ role: 'tool', tool_call_id: 'call_x', content: 'r' }] }, ids)).toEqual({ model: 'm', messages: [{ role: 'tool', tool_call_id: alphanumericIds(['call_x'])('call_x'), content: 'r' }] });
    expect(adaptBody({ model: 'm', messages: [{ role: 'assistant', tool_calls: [{ id: 'call_y', type: 'function' }] }] }, ids)).toEqual({ model: 'm', messages: [{ role: 'assistant', tool_calls: [{ id: alphanumericIds(['call_y'])('call_y'), type: 'function' }] }] });
    expect(adaptBody({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, MISTRAL)).toBeUndefined();
  });

  test('a string-only host: content that is not bare text parts is left for the host to judge', () => {
    for (const content of [[], [null], ['plain'], [{ type: 'input_text', text: 'a' }], [{ type: 'text', text: 5 }]]) {
      expect(adaptBody({ model: 'm', messages: [{ role: 'user', content }] }, { textContent: 'string' })).toBeUndefined();
    }
  });
});

describe('bodyFields: only the fields a host accepts (Mistral)', () => {
  const mistral = { bodyFields: { allow: ['model', 'messages', 'random_seed', 'max_tokens'], rename: { seed: 'random_seed' } } };

  it('translated: seed renamed, store/user/metadata dropped and reported', () => {
    const req: ChatRequest = { model: 'm', stream: false, system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], seed: 7, user: 'u', metadata: { a: '1' } };
    const enc = encodeRequest(req, { name: 'mistral', model: 'mistral-large', apiKey: 'k', options: mistral });
    const body = JSON.parse(enc.value.body as string);
    expect(body).toEqual({ model: 'mistral-large', messages: [{ role: 'user', content: 'hi' }], random_seed: 7 });
    expect(enc.warnings.filter((w) => w.detail === 'host').map((w) => w.path)).toEqual(['user', 'metadata']);
  });

  it('passthrough: the same fields fitted, the rest of the body untouched; nothing to fit → the same object', () => {
    const body = { model: 'm', messages: [], seed: 3, store: true, max_tokens: 5 };
    expect(adaptBody(body, mistral)).toEqual({ model: 'm', messages: [], random_seed: 3, max_tokens: 5 });
    expect(adaptsBody(mistral)).toBe(true);
    const clean = { model: 'm', messages: [] };
    expect(fitFields(clean, mistral)).toEqual({ body: clean, dropped: [] });
    expect(fitFields(clean, mistral).body).toBe(clean);
    // A rename whose target the caller already set is a drop, never an overwrite.
    expect(fitFields({ seed: 1, random_seed: 2 }, mistral)).toEqual({ body: { random_seed: 2 }, dropped: ['seed'] });
  });
});

describe('passthrough bodies a host takes as they are', () => {
  const call = (id: unknown) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });

  test('Mistral: a history of its own ids is not rewritten, malformed entries notwithstanding; one foreign id among them is mapped alone', () => {
    const own = { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [call('aB3xK9mP2'), call(5), null] }, { role: 'tool', tool_call_id: 'aB3xK9mP2', content: 'r' }, { role: 'tool', tool_call_id: 12345, content: 'r' }] };
    expect(adaptBody(own, { toolCallIds: 'alphanumeric-9' })).toBeUndefined();
    const mixed = { model: 'm', messages: [{ role: 'assistant', content: null, tool_calls: [call('aB3xK9mP2'), call('call_x')] }] };
    const ids = (adaptBody(mixed, { toolCallIds: 'alphanumeric-9' })!['messages'] as any[])[0].tool_calls.map((c: any) => c.id);
    expect(ids).toEqual(['aB3xK9mP2', alphanumericIds(['aB3xK9mP2', 'call_x'])('call_x')]);
  });

  test('a host without the id rule keeps every id; one without the string rule keeps text arrays', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, { role: 'assistant', content: null, tool_calls: [call('call_x')] }, { role: 'tool', tool_call_id: 'call_x', content: 'r' }] };
    expect(adaptBody(body, { streamOptions: false })).toBeUndefined();
    expect(adaptBody(body, GROQ)).toEqual({ ...body, messages: [{ role: 'user', content: 'a\n\nb' }, body.messages[1], body.messages[2]] });
  });

  test('bodyFields: a field with no rename, or a rename to a field the host does not take, is dropped', () => {
    expect(fitFields({ model: 'm', store: true }, { bodyFields: { allow: ['model'] } })).toEqual({ body: { model: 'm' }, dropped: ['store'] });
    expect(fitFields({ model: 'm', seed: 1 }, { bodyFields: { allow: ['model'], rename: { seed: 'random_seed' } } })).toEqual({ body: { model: 'm' }, dropped: ['seed'] });
  });
});
