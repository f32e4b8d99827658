/**
 * `interlingua demo`: the proxy with five built-in upstreams, one per dialect, answering
 * in-process (no network, no key) in their own wire format (upstream.ts, answer.ts). Any caller
 * dialect reaches any of them: that is the translation to see, in the inspector too. Loaded only
 * when the demo runs (the CLI imports it dynamically; the Worker never does).
 */
import { registry } from '../../translators/index.ts';
import type { FetchLike } from '../kit/index.ts';
import { createDemoFetch, type DemoFetchOptions, type DemoUpstream } from './upstream.ts';

export type { DemoUpstream } from './upstream.ts';

const host = (name: string) => `http://${name}.demo.interlingua.invalid`;

/** The demo upstreams; each one's model has its name. */
export const DEMO_UPSTREAMS: readonly DemoUpstream[] = [
  { name: 'demo-openai', dialect: 'openai', label: 'OpenAI Chat Completions', baseUrl: `${host('demo-openai')}/v1` },
  { name: 'demo-anthropic', dialect: 'anthropic', label: 'Anthropic Messages', baseUrl: host('demo-anthropic') },
  { name: 'demo-gemini', dialect: 'gemini', label: 'Gemini generateContent', baseUrl: host('demo-gemini') },
  { name: 'demo-responses', dialect: 'openai-responses', label: 'OpenAI Responses', baseUrl: `${host('demo-responses')}/v1` },
  { name: 'demo-interactions', dialect: 'gemini-interactions', label: 'Gemini Interactions', baseUrl: host('demo-interactions') },
];

/** The demo's config document: the five upstreams, a route to each by its name, the inspector on. No keys. */
export function demoConfigDocument(): Record<string, unknown> {
  return {
    upstreams: Object.fromEntries(DEMO_UPSTREAMS.map((u) => [u.name, { dialect: u.dialect, baseUrl: u.baseUrl, retry: { attempts: 1 } }])),
    models: Object.fromEntries(DEMO_UPSTREAMS.map((u) => [u.name, { upstream: u.name }])),
    inspector: true,
  };
}

/** The app's upstream client in the demo: the demo upstreams, and no network. */
export function demoFetch(o: DemoFetchOptions = {}): FetchLike {
  return createDemoFetch(DEMO_UPSTREAMS, registry, o);
}

/** One request per caller dialect, each to an upstream of another dialect: a comment line and a curl. */
export function demoRequests(origin: string): Array<{ title: string; curl: string }> {
  const json = "-H 'content-type: application/json'";
  const q = (body: unknown) => `'${JSON.stringify(body)}'`;
  const hello = 'Hello from curl';
  return [
    {
      title: 'OpenAI Chat Completions → demo-anthropic (Anthropic Messages)',
      curl: `curl -s ${origin}/v1/chat/completions ${json} -d ${q({ model: 'demo-anthropic', messages: [{ role: 'user', content: hello }] })}`,
    },
    {
      title: 'the same, streamed → demo-gemini (Gemini generateContent)',
      curl: `curl -sN ${origin}/v1/chat/completions ${json} -d ${q({ model: 'demo-gemini', stream: true, messages: [{ role: 'user', content: hello }] })}`,
    },
    {
      title: 'Anthropic Messages → demo-gemini (Gemini generateContent)',
      curl: `curl -s ${origin}/v1/messages ${json} -H 'anthropic-version: 2023-06-01' -d ${q({ model: 'demo-gemini', max_tokens: 256, messages: [{ role: 'user', content: hello }] })}`,
    },
    {
      title: 'Gemini generateContent → demo-responses (OpenAI Responses)',
      curl: `curl -s ${origin}/v1beta/models/demo-responses:generateContent ${json} -d ${q({ contents: [{ role: 'user', parts: [{ text: hello }] }] })}`,
    },
    {
      title: 'OpenAI Responses → demo-interactions (Gemini Interactions)',
      curl: `curl -s ${origin}/v1/responses ${json} -d ${q({ model: 'demo-interactions', input: hello })}`,
    },
    {
      title: 'Gemini Interactions → demo-openai (OpenAI Chat Completions)',
      curl: `curl -s ${origin}/v1beta/interactions ${json} -d ${q({ model: 'demo-openai', input: hello })}`,
    },
  ];
}
