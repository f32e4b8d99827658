import { describe, expect, it } from 'vitest';
import { decodeSignature, type ChatRequest, type ChatResponse, type WebSearchPart } from '../../src/canonical/index.ts';
import { testContext } from '../../test/support/fixtures.ts';
import { decodeRequest } from './decode-request.ts';
import { decodeResponse } from './decode-response.ts';
import { encodeRequest } from './encode-request.ts';
import { encodeResponse } from './encode-response.ts';

const req: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: false };
const TEXT = 'Spain won Euro 2024 – in Berlin.';
const bytes = (s: string) => new TextEncoder().encode(s).length;
const call = { type: 'google_search_call', id: 'gs1', arguments: { queries: ['euro 2024 winner'] }, search_type: 'web_search', signature: 'EqGoogleCall' };
const result = { type: 'google_search_result', call_id: 'gs1', result: [{ search_suggestions: '<div>chips</div>' }], signature: 'EqGoogleResult' };
const annotation = { type: 'url_citation', url: 'https://uefa.com/x', title: 'uefa.com', start_index: 0, end_index: bytes('Spain won Euro 2024 –') };
const interaction = {
  id: 'v1_s',
  status: 'completed',
  steps: [call, result, { type: 'model_output', content: [{ type: 'text', text: TEXT, annotations: [annotation] }] }],
};

describe('Interactions upstream: search steps and text annotations', () => {
  const decoded = () => decodeResponse(interaction, req, testContext());

  it('the call and its result are one search, its pages the ones the text cites; the steps kept as this dialect wrote them', () => {
    const [search] = decoded().choices[0]!.content;
    expect(search).toEqual({ type: 'web-search', id: 'gs1', kind: 'search', queries: ['euro 2024 winner'], results: [{ url: 'https://uefa.com/x', title: 'uefa.com' }], raw: { dialect: 'gemini-interactions', value: [call, result] } });
  });

  it('url_citation byte offsets become UTF-16 spans of the text', () => {
    const [, text] = decoded().choices[0]!.content;
    expect(text).toMatchObject({ type: 'text', text: TEXT, citations: [{ url: 'https://uefa.com/x', title: 'uefa.com', span: { start: 0, end: 'Spain won Euro 2024 –'.length } }] });
  });

  it('an Interactions caller gets its own steps and annotations back as they were', () => {
    const out = encodeResponse(decoded(), req, testContext()) as { steps: unknown[] };
    expect(out.steps).toEqual(interaction.steps);
  });

  it('a url_context call and its result: a page read; a failed page has no result', () => {
    const r = decodeResponse({ id: 'v', status: 'completed', steps: [
      { type: 'url_context_call', id: 'u1', arguments: { urls: ['https://a.org/p', 'https://b.org/q'] } },
      { type: 'url_context_result', call_id: 'u1', result: [{ url: 'https://a.org/p', status: 'success' }, { url: 'https://b.org/q', status: 'paywall' }] },
    ] }, req, testContext());
    expect(r.choices[0]!.content[0]).toMatchObject({ type: 'web-search', kind: 'fetch', url: 'https://a.org/p', results: [{ url: 'https://a.org/p' }] });
  });

  it('a call whose result never came is a search without results', () => {
    const r = decodeResponse({ id: 'v', status: 'completed', steps: [call] }, req, testContext());
    expect(r.choices[0]!.content).toMatchObject([{ type: 'web-search', id: 'gs1', results: [] }]);
  });
});

describe('another vendor\'s search for an Interactions caller, and back', () => {
  const foreign: WebSearchPart = { type: 'web-search', id: 'srvtoolu_1', kind: 'search', queries: ['rust 2026'], results: [{ url: 'https://a.org/x', title: 'A' }], raw: { dialect: 'anthropic', value: [] } };
  const answer: ChatResponse = {
    id: 'x',
    model: 'm',
    created: 1,
    choices: [{ index: 0, finishReason: { unified: 'stop' }, content: [foreign, { type: 'text', text: 'Café ☕ rust.', citations: [{ url: 'https://a.org/x', title: 'A', span: { start: 0, end: 6 } }] }] }],
  };
  const encoded = () => (encodeResponse(answer, req, testContext()) as { steps: Array<Record<string, any>> }).steps;

  it('written as google_search_call + google_search_result with our carrier as the signature, the citation an annotation at byte offsets', () => {
    const steps = encoded();
    expect(steps.map((s) => s['type'])).toEqual(['google_search_call', 'google_search_result', 'model_output']);
    expect(steps[0]).toMatchObject({ id: 'srvtoolu_1', arguments: { queries: ['rust 2026'] } });
    expect(decodeSignature(steps[0]!['signature'])).toEqual({ origin: 'anthropic', value: 'srvtoolu_1' });
    expect(steps[2]!['content'][0].annotations).toEqual([{ type: 'url_citation', url: 'https://a.org/x', title: 'A', start_index: 0, end_index: bytes('Café ☕') }]);
  });

  it('sent back by the caller, it is read as another vendor\'s: never sent to an Interactions upstream as Google\'s own', () => {
    const steps = encoded();
    const { value, warnings } = decodeRequest({ body: { model: 'm', input: [{ type: 'user_input', content: [{ type: 'text', text: 'q' }] }, ...steps, { type: 'user_input', content: [{ type: 'text', text: 'more' }] }] }, headers: {}, params: {}, query: {} });
    expect(warnings).toEqual([]);
    const part = value.messages[1]!.content[0] as WebSearchPart;
    expect(part).toMatchObject({ type: 'web-search', queries: ['rust 2026'] });
    expect(part.raw).toBeUndefined();
    const up = encodeRequest(value, { name: 'i', model: 'gemini-3-flash-preview', options: {} });
    const body = JSON.parse(up.value.body as string);
    expect(JSON.stringify(body.input)).not.toContain('google_search');
    expect(up.warnings).toContainEqual({ code: 'dropped', path: 'messages[1].content[0]', detail: 'web-search' });
  });

  it('Google\'s own steps from the caller\'s history go back to Google as they were', () => {
    const { value } = decodeRequest({ body: { model: 'm', input: [{ type: 'user_input', content: [{ type: 'text', text: 'q' }] }, ...interaction.steps, { type: 'user_input', content: [{ type: 'text', text: 'more' }] }] }, headers: {}, params: {}, query: {} });
    const body = JSON.parse(encodeRequest(value, { name: 'i', model: 'gemini-3-flash-preview', options: {} }).value.body as string);
    expect(body.input.slice(1, 3)).toEqual([call, result]);
  });
});
