import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/canonical/index.ts';
import { fixtureJson, fixtureSse, testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { inputSteps, interactionsState as state, interactionsState } from './state.ts';

const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

const turn1 = {
  model: 'claude-sonnet',
  system_instruction: 'Be brief.',
  tools,
  generation_config: { thinking_level: 'low' },
  response_format: { type: 'text', mime_type: 'application/json' },
  input: 'Weather in Paris?',
};

const answer1 = {
  id: 'v1_turn1',
  object: 'interaction',
  status: 'requires_action',
  steps: [
    { type: 'thought', signature: 'EqQBCkgBSig' },
    { type: 'function_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } },
  ],
};

const result = { type: 'function_result', call_id: 'c1', name: 'get_weather', result: '18C' };

function keep(request: unknown, response: unknown): Map<string, string> {
  return new Map(state.record(request, response, new Map(), testContext()));
}

describe('interactionsState: references', () => {
  it('previous_interaction_id is one reference under interaction:{id}', () => {
    expect(state.references({ model: 'm', previous_interaction_id: 'v1_turn1', input: [result] })).toEqual({
      refs: [{ key: 'interaction:v1_turn1', param: 'previous_interaction_id', id: 'v1_turn1' }],
    });
    expect(state.references({ model: 'm', input: 'x' })).toEqual({ refs: [] });
    expect(state.references('nope')).toEqual({ refs: [] });
  });

  it.each([
    [{ background: true }, 'background'],
    [{ agent: 'deep-research-pro-preview' }, 'agent'],
    [{ agent_config: { type: 'deep-research' } }, 'agent_config'],
    [{ background: false }, undefined],
  ])('%j is stateful only: %s', (extra, param) => {
    expect(state.references({ model: 'm', input: 'x', ...extra }).statefulOnly).toBe(param);
  });

  it('keeps unless store is false; the key of an id', () => {
    expect(state.keeps({ model: 'm' })).toBe(true);
    expect(state.keeps({ model: 'm', store: true })).toBe(true);
    expect(state.keeps({ model: 'm', store: false })).toBe(false);
    expect(state.keyOf('v1_x')).toBe('interaction:v1_x');
    expect(state.ownedKeys(keep(turn1, answer1).get('interaction:v1_turn1')!)).toEqual([]);
  });
});

describe('interactionsState: a continuation rebuilt from the store', () => {
  const found = () => keep(turn1, answer1);

  it('the stored input, the stored output steps, then this input; previous_interaction_id gone', () => {
    const expanded = state.expand({ model: 'claude-sonnet', previous_interaction_id: 'v1_turn1', input: [result] }, found()) as Record<string, unknown>;
    expect(expanded['previous_interaction_id']).toBeUndefined();
    expect(expanded['input']).toEqual([
      { type: 'user_input', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      ...answer1.steps,
      result,
    ]);
  });

  it('system_instruction, tools and generation_config carry over when omitted (the docs do not resend tools); response_format does not', () => {
    const expanded = state.expand({ model: 'm', previous_interaction_id: 'v1_turn1', input: [result] }, found()) as Record<string, unknown>;
    expect(expanded).toMatchObject({ system_instruction: 'Be brief.', tools, generation_config: { thinking_level: 'low' } });
    expect(expanded['response_format']).toBeUndefined();
    const own = state.expand({ model: 'm', previous_interaction_id: 'v1_turn1', input: 'x', tools: [], system_instruction: 'Other.' }, found()) as Record<string, unknown>;
    expect(own).toMatchObject({ tools: [], system_instruction: 'Other.', generation_config: { thinking_level: 'low' } });
  });

  it('the rebuilt body decodes: user, assistant (the call, signed by the thought before it), the result, with the tools', () => {
    const expanded = state.expand({ model: 'm', previous_interaction_id: 'v1_turn1', input: [result] }, found());
    const { value } = decodeRequest({ body: expanded, headers: {}, params: {}, query: {} });
    expect(value.messages.map((m) => [m.role, m.content.map((p) => p.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['tool-call']],
      ['user', ['tool-result']],
    ]);
    expect(value.messages[1]!.content[0]).toMatchObject({ signature: { origin: 'gemini', value: 'EqQBCkgBSig' } });
    expect(value.tools?.map((t) => t.name)).toEqual(['get_weather']);
    expect(value.extras).toBeUndefined();
  });

  it('chains: turn 3 continues turn 2, whose kept input is already the whole history', () => {
    const body2 = state.expand({ model: 'm', previous_interaction_id: 'v1_turn1', input: [result] }, found());
    const answer2 = { id: 'v1_turn2', status: 'completed', steps: [{ type: 'model_output', content: [{ type: 'text', text: '18C in Paris.' }] }] };
    const store = new Map([...found(), ...keep(body2, answer2)]);
    const body3 = state.expand({ model: 'm', previous_interaction_id: 'v1_turn2', input: 'Thanks' }, store) as { input: unknown[]; tools: unknown };
    expect(body3.input).toHaveLength(6);
    expect(body3.input.at(-1)).toEqual({ type: 'user_input', content: [{ type: 'text', text: 'Thanks' }] });
    expect(body3.tools).toEqual(tools);
  });

  it('a body without a reference is left as it is; a missing or broken stored value throws', () => {
    const body = { model: 'm', input: 'x' };
    expect(state.expand(body, new Map())).toBe(body);
    expect(() => state.expand({ model: 'm', previous_interaction_id: 'v1_gone' }, new Map())).toThrow();
    expect(() => state.expand({ model: 'm', previous_interaction_id: 'v1_x' }, new Map([['interaction:v1_x', '{"nope":1}']]))).toThrow();
  });
});

describe('interactionsState: an answer kept without its steps (a stream stored from its completed frame)', () => {
  it('continues from the stored input alone, and GET shows the input alone', () => {
    const kept = keep({ model: 'm', input: 'Hi' }, { id: 'v1_bare', status: 'completed' });
    expect(state.expand({ model: 'm', previous_interaction_id: 'v1_bare', input: 'Again' }, kept)).toEqual({
      model: 'm',
      input: [
        { type: 'user_input', content: [{ type: 'text', text: 'Hi' }] },
        { type: 'user_input', content: [{ type: 'text', text: 'Again' }] },
      ],
    });
    expect(state.retrieved(kept.get('interaction:v1_bare')!)).toEqual({ id: 'v1_bare', status: 'completed', steps: [{ type: 'user_input', content: [{ type: 'text', text: 'Hi' }] }] });
  });
});

describe('interactionsState: what is not a reference or not kept', () => {
  it('an empty or null reference is none; null agents are no agents; an empty id expands to the body itself', () => {
    expect(state.references({ model: 'm', previous_interaction_id: '', agent: null, agent_config: null })).toEqual({ refs: [] });
    const body = { model: 'm', previous_interaction_id: '', input: 'x' };
    expect(state.expand(body, new Map())).toBe(body);
    expect(state.expand('text', new Map())).toBe('text');
  });

  it('only object requests with an answer id are kept, with only the settings they set', () => {
    expect(state.record('x', answer1, new Map(), testContext())).toEqual([]);
    expect(state.record(turn1, 'x', new Map(), testContext())).toEqual([]);
    const [[key, value]] = state.record({ model: 'm', input: 'q', tools: null, system_instruction: 'S' }, { id: 'v1_k' }, new Map(), testContext()) as [[string, string]];
    expect(key).toBe('interaction:v1_k');
    expect(JSON.parse(value)).toEqual({ interaction: { id: 'v1_k' }, input: [{ type: 'user_input', content: [{ type: 'text', text: 'q' }] }], settings: { system_instruction: 'S' } });
  });

  it('finalOf: a completed frame without an interaction object is nothing', () => {
    expect(state.finalOf({ event: 'interaction.completed', data: JSON.stringify({ interaction: 'x' }) })).toBeUndefined();
    expect(state.finalOf({ event: 'interaction.completed', data: '[1]' })).toBeUndefined();
    expect(state.finalOf({ event: 'interaction.created', data: JSON.stringify({ interaction: { id: 'a' } }) })).toBeUndefined();
  });
});

describe('interactionsState: inputSteps', () => {
  it('a string, one content, a content list, steps', () => {
    const text = { type: 'text', text: 'a' };
    expect(inputSteps('a')).toEqual([{ type: 'user_input', content: [text] }]);
    expect(inputSteps(text)).toEqual([{ type: 'user_input', content: [text] }]);
    expect(inputSteps([text, { type: 'image', uri: 'u' }])).toEqual([{ type: 'user_input', content: [text, { type: 'image', uri: 'u' }] }]);
    expect(inputSteps([result])).toEqual([result]);
    expect(inputSteps(undefined)).toEqual([]);
  });
});

describe('interactionsState: what GET and DELETE answer', () => {
  it('retrieved: this interaction’s own input steps first, then its output steps', () => {
    const stored1 = keep(turn1, answer1).get('interaction:v1_turn1')!;
    expect(state.retrieved(stored1)).toEqual({ ...answer1, steps: [{ type: 'user_input', content: [{ type: 'text', text: 'Weather in Paris?' }] }, ...answer1.steps] });
    const body2 = state.expand({ model: 'm', previous_interaction_id: 'v1_turn1', input: [result] }, keep(turn1, answer1));
    const answer2 = { id: 'v1_turn2', status: 'completed', steps: [{ type: 'model_output', content: [{ type: 'text', text: 'ok' }] }] };
    const stored2 = keep(body2, answer2).get('interaction:v1_turn2')!;
    expect((state.retrieved(stored2) as { steps: unknown[] }).steps).toEqual([result, ...answer2.steps]);
  });

  it('the GET capture’s shape: the fixture’s timeline is what a stored single turn gives back', () => {
    const got = fixtureJson('gemini-interactions', 'interaction-get-with-input.json');
    const [input, ...output] = got.steps;
    const stored = keep({ model: got.model, input: input.content }, { ...got, steps: output }).get(`interaction:${got.id}`)!;
    expect(state.retrieved(stored)).toEqual(got);
  });

  it('deleted is the SDK’s Empty; input items are not part of this API', () => {
    expect(state.deleted('v1_x')).toEqual({});
    expect(() => state.inputItems('{}', {})).toThrow(ProxyError);
  });

  it('nothing is recorded for an answer without an id', () => {
    expect(state.record(turn1, { status: 'failed' }, new Map(), testContext())).toEqual([]);
  });
});

describe('interactionsState: streams', () => {
  const frames = fixtureSse('gemini-interactions', 'stream-function-call.sse').map((e) => ({ event: e.event, data: e.data }));

  it('finalOf: only interaction.completed, its interaction (which has no steps in a stream)', () => {
    const finals = frames.map((f) => state.finalOf(f)).filter((x) => x !== undefined);
    expect(finals).toHaveLength(1);
    expect(finals[0]).toMatchObject({ status: 'requires_action' });
    expect(state.finalOf({ event: 'interaction.completed', data: 'not json' })).toBeUndefined();
  });

  it('collect: the whole interaction with its output steps, which a continuation then resends', () => {
    const collect = state.collect();
    const finals = frames.map((f) => collect(f)).filter((x) => x !== undefined) as Array<{ id: string; steps: Array<{ type: string }> }>;
    expect(finals).toHaveLength(1);
    const answer = finals[0]!;
    expect(answer.steps.map((s) => s.type)).toEqual(['thought', 'function_call']);
    const expanded = state.expand({ model: 'm', previous_interaction_id: answer.id, input: [result] }, keep({ model: 'm', input: 'q' }, answer)) as { input: unknown[] };
    expect(expanded.input).toEqual([{ type: 'user_input', content: [{ type: 'text', text: 'q' }] }, ...answer.steps, result]);
  });
});

describe('interactionsState: references that resolve to nothing', () => {
  it('an interaction that kept no steps, continued with no input, is a 400 naming input', () => {
    const found = new Map([['interaction:v1_e', JSON.stringify({ interaction: { id: 'v1_e', steps: [] }, input: [] })]]);
    expect(() => state.expand({ model: 'm', previous_interaction_id: 'v1_e' }, found)).toThrow(
      expect.objectContaining({ kind: 'invalid-request', param: 'input', message: expect.stringContaining("'previous_interaction_id'") }),
    );
    expect((state.expand({ model: 'm', previous_interaction_id: 'v1_e', input: 'hi' }, found) as { input: unknown[] }).input).toHaveLength(1);
  });
});

describe('the dialect entry: a missing interaction', () => {
  it('a missing interaction is a 404 naming it', () => {
    const err = interactionsState.notFound('previous_interaction_id', 'v1_gone');
    expect(err).toBeInstanceOf(ProxyError);
    expect({ status: err.status, param: err.param, code: err.code, message: err.message }).toEqual({
      status: 404,
      param: 'previous_interaction_id',
      code: 'not_found',
      message: "Interaction 'v1_gone' not found (it expired, was deleted, or was answered by another deployment).",
    });
  });
});
