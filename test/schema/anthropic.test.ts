/**
 * What an Anthropic caller receives, checked against the Messages API schema (anthropic.schema.json,
 * derived from the OpenAPI document Anthropic's SDKs are generated from; source and commit there):
 * JSON messages, every SSE event type, errors (HTTP and in-stream), count_tokens, the model list.
 */
import { describe, expect, it } from 'vitest';
import type { StreamEvent, StreamFrame } from '../../src/canonical/index.ts';
import { anthropic } from '../../translators/anthropic/index.ts';
import { testContext } from '../support/fixtures.ts';
import { fixtureErrors, fixtureResponses, fixtureStreams, scenarioErrors, scenarioResponses, scenarioStreams, type Sample } from './sources.ts';
import { checker, type Allowance } from './validate.ts';

const allowances: Allowance[] = [
  {
    def: 'ErrorResponse',
    at: /^\/error\/type$/,
    value: (v) => v === 'request_too_large',
    as: 'invalid_request_error',
    reason:
      'HTTP 413: the real service answers `request_too_large` (docs.claude.com/en/api/errors), which the ' +
      'OpenAPI ErrorResponse union does not list; the SDKs map errors by HTTP status, not by this string.',
  },
];
const check = checker('anthropic', allowances);

const defOfEvent: Record<string, string> = {
  message_start: 'MessageStartEvent',
  content_block_start: 'ContentBlockStartEvent',
  content_block_delta: 'ContentBlockDeltaEvent',
  content_block_stop: 'ContentBlockStopEvent',
  message_delta: 'MessageDeltaEvent',
  message_stop: 'MessageStopEvent',
  error: 'ErrorResponse',
};

function frameProblems(frames: StreamFrame[]): string[] {
  return frames.flatMap((f, i) => {
    const data = JSON.parse(f.data) as { type?: string };
    if (f.event !== data.type) return [`frame ${i}: event ${f.event} carries type ${data.type}`];
    const def = defOfEvent[data.type ?? ''];
    return def ? check.problems(def, data).map((p) => `frame ${i}: ${p}`) : [`frame ${i}: unknown event ${data.type}`];
  });
}

/** The whole stream, and the stream cut after a third and two thirds of its events (finish() closes it). */
function encodeStream(s: Sample<StreamEvent[]>): StreamFrame[][] {
  const n = s.value.length;
  return [...new Set([n, Math.floor(n / 3), Math.floor((2 * n) / 3)])].map((cut) => {
    const enc = anthropic.createStreamEncoder(s.req, testContext());
    return [...s.value.slice(0, cut).flatMap((e) => enc.push(e)), ...enc.finish()];
  });
}

const label = <T,>(samples: Sample<T>[]) => samples.map((s) => [s.name, s] as const);

describe('Anthropic caller: JSON messages conform to Message', () => {
  it.each(label([...fixtureResponses(), ...scenarioResponses()]))('%s', (_name, s) => {
    expect(check.problems('Message', anthropic.encodeResponse(s.value, s.req, testContext()))).toEqual([]);
  });
});

describe('Anthropic caller: every SSE event conforms to its event schema', () => {
  it.each(label([...fixtureStreams(), ...scenarioStreams()]))('%s', (_name, s) => {
    for (const frames of encodeStream(s)) expect(frameProblems(frames)).toEqual([]);
  });
});

describe('Anthropic caller: errors, count_tokens, model list', () => {
  it.each(label([...fixtureErrors(), ...scenarioErrors()]))('error %s', (_name, s) => {
    const { status, body } = anthropic.encodeError(s.value);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(check.problems('ErrorResponse', body)).toEqual([]);
  });

  it('count_tokens and the model list', () => {
    expect(check.problems('CountMessageTokensResponse', anthropic.encodeCountTokensResponse!(1234))).toEqual([]);
    const list = anthropic.encodeModelList!([
      { id: 'claude-sonnet-4-5', ownedBy: 'claude', created: 1_739_923_200 },
      { id: 'gpt-*', ownedBy: 'openai', created: 0 },
      { id: 'big-claude', ownedBy: 'claude', created: 0, contextWindow: 1_000_000, maxOutputTokens: 64_000, reasoning: { budgetTokens: 4096 } },
    ]);
    expect(check.problems('ListResponse_ModelInfo_', list)).toEqual([]);
    expect(check.problems('ListResponse_ModelInfo_', anthropic.encodeModelList!([]))).toEqual([]);
  });
});

describe('Anthropic schema checks have teeth', () => {
  const message = () => anthropic.encodeResponse(scenarioResponses().find((s) => s.name === 'all part kinds')!.value, scenarioResponses()[0]!.req, testContext()) as any;

  it('rejects what strict clients reject: no request_id, no caller, a partial usage, a foreign citation', () => {
    expect(check.problems('ErrorResponse', { type: 'error', error: { type: 'api_error', message: 'x' } })).toEqual(['ErrorResponse/ must have required property \'request_id\'']);
    const m = message();
    delete m.content.find((b: any) => b.type === 'tool_use').caller;
    m.usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    m.content.unshift({ type: 'text', text: 'x', citations: [{ type: 'url_citation', url_citation: { url: 'https://x' } }] });
    const problems = check.problems('Message', m);
    expect(problems.some((p) => p.includes("must have required property 'caller'"))).toBe(true);
    for (const f of ['cache_creation', 'inference_geo', 'service_tier', 'server_tool_use']) {
      expect(problems).toContain(`Message/usage must have required property '${f}'`);
    }
    expect(problems.some((p) => p.startsWith('Message/content/0/citations/0/type'))).toBe(true);
  });

  it('every allowance is needed', () => {
    expect(check.unused().map((a) => a.reason)).toEqual([]);
  });
});
