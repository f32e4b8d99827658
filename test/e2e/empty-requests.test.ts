/**
 * Nothing empty or malformed goes upstream: a request with no conversation (absent, `null`, `""`,
 * `[]`) is a 400 in the caller's dialect naming the field, from every caller route, toward an
 * upstream of the caller's own dialect and of another, whether the body is small (decoded) or
 * large enough to be forwarded without parsing (src/flows/forward/); a malformed reference to
 * stored state (`previous_response_id` not a string, an `item_reference` without a string id,
 * `previous_interaction_id` not a string) is a 400 too, never skipped. Continuations the APIs
 * allow without input (`previous_response_id` with `input: []`, the Interactions SDK's automatic
 * continuation with `previous_interaction_id` and no input) still reach the upstream.
 */
import { describe, expect, it } from 'vitest';
import { FORWARD_MIN_BYTES } from '../../src/flows/forward/index.ts';
import { fixtureReply } from '../support/mock-upstream.ts';
import { INBOUND_KEY, TARGETS, useHarness } from '../support/proxy.ts';
import { interactionsAnswer } from '../support/interactions-upstream.ts';
import { anthropicHeaders } from './helpers-anthropic.ts';
import { interactionsE2eConfig } from './interactions-helpers.ts';

/** Text that takes a body past FORWARD_MIN_BYTES outside its conversation. */
const BIG = 'Be brief. '.repeat(FORWARD_MIN_BYTES / 8);

const bearer = { authorization: `Bearer ${INBOUND_KEY}`, 'content-type': 'application/json' };
const goog = { 'x-goog-api-key': INBOUND_KEY, 'content-type': 'application/json' };

type Shape = 'openai' | 'anthropic' | 'google';

interface Caller {
  name: string;
  path: (model: string) => string;
  headers: Record<string, string>;
  /** The conversation's field. */
  field: string;
  /** A body around `conversation` (left out when undefined), its system prompt `system`. */
  body: (model: string, system: string) => Record<string, unknown>;
  shape: Shape;
  /** A model of the caller's own dialect, and one of another. */
  models: [same: string, other: string];
}

const chatLike = (name: string, path: string, extra: Record<string, unknown> = {}): Caller => ({
  name,
  path: () => path,
  headers: bearer,
  field: 'messages',
  body: (model, system) => ({ model, tools: [{ type: 'function', function: { name: 'f', description: system, parameters: { type: 'object' } } }], ...extra }),
  shape: 'openai',
  models: ['gpt-4o', 'to-anthropic'],
});

const CALLERS: Caller[] = [
  chatLike('chat', '/v1/chat/completions'),
  {
    name: 'messages',
    path: () => '/v1/messages',
    headers: anthropicHeaders(),
    field: 'messages',
    body: (model, system) => ({ model, max_tokens: 10, system }),
    shape: 'anthropic',
    models: ['claude-sonnet-4-5', 'to-openai'],
  },
  {
    name: 'messages count_tokens',
    path: () => '/v1/messages/count_tokens',
    headers: anthropicHeaders(),
    field: 'messages',
    body: (model, system) => ({ model, system }),
    shape: 'anthropic',
    models: ['claude-sonnet-4-5', 'to-openai'],
  },
  {
    name: 'generateContent',
    path: (m) => `/v1beta/models/${m}:generateContent`,
    headers: goog,
    field: 'contents',
    body: (_m, system) => ({ systemInstruction: { parts: [{ text: system }] } }),
    shape: 'google',
    models: ['gemini-2.5-flash', 'to-openai'],
  },
  {
    name: 'countTokens',
    path: (m) => `/v1beta/models/${m}:countTokens`,
    headers: goog,
    field: 'contents',
    body: (_m, system) => ({ systemInstruction: { parts: [{ text: system }] } }),
    shape: 'google',
    models: ['gemini-2.5-flash', 'to-anthropic'],
  },
  {
    name: 'responses',
    path: () => '/v1/responses',
    headers: bearer,
    field: 'input',
    body: (model, system) => ({ model, instructions: system, store: false }),
    shape: 'openai',
    models: ['to-responses', 'to-anthropic'],
  },
  {
    name: 'responses input_tokens',
    path: () => '/v1/responses/input_tokens',
    headers: bearer,
    field: 'input',
    body: (model, system) => ({ model, instructions: system }),
    shape: 'openai',
    models: ['to-responses', 'to-anthropic'],
  },
  {
    name: 'interactions',
    path: () => '/v1beta/interactions',
    headers: goog,
    field: 'input',
    body: (model, system) => ({ model, system_instruction: system, store: false }),
    shape: 'google',
    models: ['to-interactions', 'to-gemini'],
  },
];

/** The error body is the caller's dialect's, a 400 that names `param`. */
function expectRefusal(shape: Shape, status: number, body: any, param: string): void {
  expect(status).toBe(400);
  if (shape === 'openai') {
    expect(body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(body.error.param ?? body.error.message).toContain(param);
  } else if (shape === 'anthropic') {
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain(param);
  } else {
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toContain(param);
  }
}

/** No conversation at all, and the empty ones. */
const EMPTY: Array<[string, unknown]> = [
  ['absent', undefined],
  ['null', null],
  ['""', ''],
  ['[]', []],
];

describe.each(TARGETS)('%s: nothing empty or malformed goes upstream', (target) => {
  const h = useHarness(target, interactionsE2eConfig);
  const send = async (c: Caller, model: string, body: Record<string, unknown>) => {
    const res = await fetch(`${h.proxy.url}${c.path(model)}`, { method: 'POST', headers: c.headers, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  describe.each(CALLERS)('$name', (c) => {
    it.each(EMPTY)('a conversation %s is a 400 naming it, toward either upstream, small or forwarded, nothing sent', async (_label, conversation) => {
      h.mock.reply(fixtureReply('openai-chat', 'text-basic.json'));
      for (const model of c.models) {
        for (const system of ['Be brief.', BIG]) {
          const body = { ...c.body(model, system), ...(conversation === undefined ? {} : { [c.field]: conversation }) };
          if (system === BIG) expect(JSON.stringify(body).length).toBeGreaterThan(FORWARD_MIN_BYTES);
          const res = await send(c, model, body);
          expectRefusal(c.shape, res.status, res.body, c.field);
        }
      }
      expect(h.mock.requests).toHaveLength(0);
    });
  });

  const responses = CALLERS.find((c) => c.name === 'responses')!;
  const interactions = CALLERS.find((c) => c.name === 'interactions')!;
  /** `create` and `input_tokens` check references alike. */
  const referring = CALLERS.filter((c) => c.name.startsWith('responses'));

  it.each([
    ['previous_response_id: 5', { previous_response_id: 5, input: 'hi' }, 'previous_response_id'],
    ['previous_response_id: ""', { previous_response_id: '', input: 'hi' }, 'previous_response_id'],
    ['previous_response_id: {} beside an item_reference', { previous_response_id: {}, input: [{ type: 'item_reference', id: 'msg_1' }, { role: 'user', content: 'hi' }] }, 'previous_response_id'],
    ['an item_reference without an id', { input: [{ type: 'item_reference' }, { role: 'user', content: 'hi' }] }, 'input[0].id'],
    ['an item_reference with a number id', { input: [{ role: 'user', content: 'hi' }, { type: 'item_reference', id: 7 }] }, 'input[1].id'],
  ])('Responses (create, input_tokens): %s is a 400 naming it, toward either upstream, small or forwarded, nothing sent', async (_label, fields, param) => {
    for (const c of referring) {
      for (const model of c.models) {
        for (const system of ['Be brief.', BIG]) {
          const res = await send(c, model, { ...c.body(model, system), ...fields });
          expectRefusal('openai', res.status, res.body, param);
        }
      }
    }
    expect(h.mock.requests).toHaveLength(0);
  });

  it.each([
    ['previous_interaction_id: 5', { previous_interaction_id: 5, input: 'hi' }],
    ['previous_interaction_id: ""', { previous_interaction_id: '', input: 'hi' }],
  ])('Interactions: %s is a 400 naming it, toward either upstream, small or forwarded, nothing sent', async (_label, fields) => {
    for (const model of interactions.models) {
      for (const system of ['Be brief.', BIG]) {
        const res = await send(interactions, model, { ...interactions.body(model, system), ...fields });
        expectRefusal('google', res.status, res.body, 'previous_interaction_id');
      }
    }
    expect(h.mock.requests).toHaveLength(0);
  });

  it('Responses: a stored prompt template with no input is served only by a Responses upstream; toward another it is a 400 naming prompt, nothing sent', async () => {
    for (const c of referring) {
      for (const system of ['Be brief.', BIG]) {
        const res = await send(c, 'to-anthropic', { ...c.body('to-anthropic', system), prompt: { id: 'pmpt_1', version: '2' }, input: [] });
        expectRefusal('openai', res.status, res.body, 'prompt');
      }
    }
    expect(h.mock.requests).toHaveLength(0);
    h.mock.reply(fixtureReply('openai-responses', 'refusal.json'));
    const res = await send(responses, 'to-responses', { ...responses.body('to-responses', 'Be brief.'), prompt: { id: 'pmpt_1' } });
    expect(res.status).toBe(200);
    expect(h.mock.requests.map((r) => r.json.prompt)).toEqual([{ id: 'pmpt_1' }]);
  });

  it('Responses: previous_response_id with an empty input is a continuation OpenAI takes: it reaches a Responses upstream', async () => {
    h.mock.reply(fixtureReply('openai-responses', 'refusal.json'));
    for (const system of ['Be brief.', BIG]) {
      const res = await send(responses, 'to-responses', { ...responses.body('to-responses', system), previous_response_id: 'resp_abc', input: [] });
      expect(res.status).toBe(200);
    }
    expect(h.mock.requests.map((r) => r.json.previous_response_id)).toEqual(['resp_abc', 'resp_abc']);
  });

  it("Interactions: the SDK's automatic continuation (previous_interaction_id, continuation_token, no input) reaches an Interactions upstream", async () => {
    h.mock.reply(interactionsAnswer({ steps: [{ type: 'text', text: 'more' }] }));
    for (const system of ['Be brief.', BIG]) {
      const res = await send(interactions, 'to-interactions', { ...interactions.body('to-interactions', system), previous_interaction_id: 'v1_abc', continuation_token: 'tok' });
      expect(res.status).toBe(200);
    }
    expect(h.mock.requests.map((r) => [r.json.previous_interaction_id, 'input' in r.json])).toEqual([['v1_abc', false], ['v1_abc', false]]);
  });
});
