import { describe, expect, it } from 'vitest';
import type { ChatRequest, NativeTool, ResponseFormat, ToolChoice } from '../../src/canonical/index.ts';
import { ByteParts } from '../../src/kit/http.ts';
import type { UpstreamTarget } from '../types.ts';
import { encodeRequest } from './encode-request.ts';

const target = (model: string, options: UpstreamTarget['options'] = {}): UpstreamTarget => ({ name: 'u', model, apiKey: 'k', options });
const openrouter = target('anthropic/claude-sonnet-4.5', { webTools: 'openrouter' });
const searchModel = target('gpt-4o-search-preview');

const baseReq: ChatRequest = { model: 'm', system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }], stream: false };
const fn = { name: 'f', parameters: { type: 'object' } };
const anthropicSearch = (path: string): NativeTool => ({ dialect: 'anthropic', definition: { type: 'web_search_20250305' }, path, web: { kind: 'search' } });
const ownOptions: NativeTool = {
  dialect: 'openai-chat',
  definition: { web_search_options: { search_context_size: 'low' } },
  path: 'web_search_options',
  web: { kind: 'search', contextSize: 'low' },
};

function encode(req: ChatRequest, t: UpstreamTarget) {
  const { value, warnings } = encodeRequest(req, t);
  return { body: JSON.parse(value.body as string) as Record<string, any>, warnings };
}

describe('a web tool choice: no Chat Completions tool choice names the search', () => {
  it('beside function tools, tool_choice auto, reported approximated', () => {
    const { body, warnings } = encode({ ...baseReq, tools: [fn], toolChoice: { type: 'web' } as ToolChoice }, searchModel);
    expect(body.tool_choice).toBe('auto');
    expect(warnings).toContainEqual({ code: 'approximated', path: 'toolChoice', detail: 'web search→auto' });
  });

  it('without function tools, no tool_choice, reported approximated (not dropped)', () => {
    const { body, warnings } = encode({ ...baseReq, toolChoice: { type: 'web' } as ToolChoice }, searchModel);
    expect(body.tool_choice).toBeUndefined();
    expect(warnings).toEqual([{ code: 'approximated', path: 'toolChoice', detail: 'web search→auto' }]);
  });

  it('a tool choice or response format of no known type is a programming error', () => {
    expect(() => encodeRequest({ ...baseReq, tools: [fn], toolChoice: { type: 'bogus' } as unknown as ToolChoice }, searchModel)).toThrow('unhandled tool choice');
    expect(() => encodeRequest({ ...baseReq, responseFormat: { type: 'bogus' } as unknown as ResponseFormat }, searchModel)).toThrow('unhandled response format');
  });
});

describe('native tools toward Chat Completions', () => {
  it('OpenRouter without function tools: the server tool is the only tool', () => {
    const { body, warnings } = encode({ ...baseReq, nativeTools: [anthropicSearch('tools[0]')] }, openrouter);
    expect(body.tools).toEqual([{ type: 'openrouter:web_search' }]);
    expect(warnings).toEqual([]);
  });

  it('this dialect\'s own web_search_options go back as they came, even toward OpenRouter', () => {
    for (const t of [openrouter, searchModel, target('gpt-4o-mini')]) {
      const { body, warnings } = encode({ ...baseReq, nativeTools: [ownOptions] }, t);
      expect(body.web_search_options).toEqual({ search_context_size: 'low' });
      expect(body.tools).toBeUndefined();
      expect(warnings).toEqual([]);
    }
  });

  it('a search model takes one web search: a second is dropped, lossy', () => {
    const { body, warnings } = encode({ ...baseReq, nativeTools: [anthropicSearch('tools[0]'), anthropicSearch('tools[1]')] }, searchModel);
    expect(body.web_search_options).toEqual({});
    expect(warnings).toEqual([{ code: 'dropped', path: 'tools[1]', detail: expect.any(String), lossy: true }]);
  });
});

describe('the body of a long conversation', () => {
  it('is sent in UTF-8 pieces, the same JSON', () => {
    const long = 'x'.repeat(70_000);
    const req: ChatRequest = {
      ...baseReq,
      messages: [
        { role: 'user', content: [{ type: 'text', text: long }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
      ],
    };
    const body = encodeRequest(req, searchModel).value.body;
    expect(body).toBeInstanceOf(ByteParts);
    const text = new TextDecoder().decode((body as ByteParts).join());
    expect(JSON.parse(text).messages[0].content).toBe(long);
  });
});
