import { describe, expect, it } from 'vitest';
import type { StreamFrame } from '../../src/canonical/index.ts';
import { collectInteraction } from './stream-answer.ts';

const frame = (event: string, data: unknown): StreamFrame => ({ event, data: typeof data === 'string' ? data : JSON.stringify({ ...(data as object), event_type: event }) });

describe('the Interaction a stream told, rebuilt for the store', () => {
  it('folds step.start content and every delta kind into the steps; nothing before interaction.completed', () => {
    const collect = collectInteraction();
    const frames = [
      frame('interaction.created', { interaction: { id: 'int_1', status: 'in_progress', object: 'interaction', model: 'm' } }),
      frame('step.start', { index: 0, step: { type: 'thought', signature: '', summary: [{ type: 'text', text: 'Let me ' }] } }),
      frame('step.delta', { index: 0, delta: { type: 'thought_summary', content: { type: 'text', text: 'think.' } } }),
      frame('step.delta', { index: 0, delta: { type: 'thought_signature', signature: 'c2ln' } }),
      frame('step.stop', { index: 0 }),
      frame('step.start', { index: 1, step: { type: 'model_output' } }),
      frame('step.delta', { index: 1, delta: { type: 'text', text: 'Hel' } }),
      frame('step.delta', { index: 1, delta: { type: 'text', text: 'lo' } }),
      frame('step.delta', { index: 1, delta: { type: 'image', data: 'iVBO', mime_type: 'image/png' } }),
      frame('step.delta', { index: 1, delta: { type: 'text', text: '!' } }),
      frame('step.stop', { index: 1 }),
      frame('step.start', { index: 2, step: { type: 'function_call', id: 'call_1', name: 'get_weather', arguments: {} } }),
      frame('step.delta', { index: 2, delta: { type: 'arguments_delta', arguments: '{"city":' } }),
      frame('step.delta', { index: 2, delta: { type: 'arguments_delta', arguments: '"Paris"}' } }),
      frame('step.stop', { index: 2 }),
    ];
    for (const f of frames) expect(collect(f)).toBeUndefined();
    const answer = collect(frame('interaction.completed', { interaction: { id: 'int_1', status: 'requires_action', usage: { total_tokens: 3 } } }));
    expect(answer).toEqual({
      id: 'int_1',
      status: 'requires_action',
      usage: { total_tokens: 3 },
      steps: [
        { type: 'thought', signature: 'c2ln', summary: [{ type: 'text', text: 'Let me think.' }] },
        { type: 'model_output', content: [{ type: 'text', text: 'Hello' }, { type: 'image', data: 'iVBO', mime_type: 'image/png' }, { type: 'text', text: '!' }] },
        { type: 'function_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
      ],
    });
  });

  it('keeps a step.start that already holds its whole content, and does not change the frames it read', () => {
    const collect = collectInteraction();
    const start = frame('step.start', { index: 0, step: { type: 'model_output', content: [{ type: 'text', text: 'Hi' }] } });
    const before = start.data;
    collect(start);
    collect(frame('step.delta', { index: 0, delta: { type: 'text', text: ' there' } }));
    expect(start.data).toBe(before);
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toEqual([{ type: 'model_output', content: [{ type: 'text', text: 'Hi there' }] }]);
  });

  it('skips what it cannot read: the done frame, unknown deltas, a delta without its step, broken arguments', () => {
    const collect = collectInteraction();
    expect(collect(frame('done', '[DONE]'))).toBeUndefined();
    expect(collect({ event: 'step.start', data: 'not json' })).toBeUndefined();
    collect(frame('step.delta', { index: 5, delta: { type: 'text', text: 'orphan' } }));
    collect(frame('step.start', { index: 0, step: { type: 'function_call', id: 'c', name: 'f', arguments: {} } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text_annotation_delta', annotations: [] } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'arguments_delta', arguments: '{"a":' } }));
    expect(collect(frame('interaction.completed', { nothing: true }))).toBeUndefined();
    const answer = collect(frame('interaction.completed', { interaction: { id: 'y', status: 'failed' } })) as { steps: unknown[] };
    expect(answer.steps).toEqual([{ type: 'function_call', id: 'c', name: 'f', arguments: {} }]);
  });

  it('a summary content that is not text is kept as it came, after the text before it', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'thought' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'thought_summary', content: { type: 'text', text: 'a' } } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'thought_summary', content: { type: 'image', data: 'AA==', mime_type: 'image/png' } } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'thought_summary', content: 'not a content' } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toEqual([{ type: 'thought', summary: [{ type: 'text', text: 'a' }, { type: 'image', data: 'AA==', mime_type: 'image/png' }] }]);
  });

  it('a search step keeps what its deltas carry (arguments, results, signature), as Google streamed it', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'google_search_call', id: 'gs1', arguments: {} } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'google_search_call', arguments: { queries: ['euro 2024'] }, signature: 'EqCall' } }));
    collect(frame('step.start', { index: 1, step: { type: 'google_search_result', call_id: 'gs1', result: [] } }));
    collect(frame('step.delta', { index: 1, delta: { type: 'google_search_result', result: [{ search_suggestions: '<div/>' }], signature: 'EqResult' } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([
      { type: 'google_search_call', id: 'gs1', arguments: { queries: ['euro 2024'] }, signature: 'EqCall' },
      { type: 'google_search_result', call_id: 'gs1', result: [{ search_suggestions: '<div/>' }], signature: 'EqResult' },
    ]);
  });

  it('deltas of the wrong shape change nothing: text, signature or arguments that are not strings, a summary text that is not one', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'model_output', content: [{ type: 'text' }] } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text', text: 'a' } }));
    collect(frame('step.start', { index: 1, step: { type: 'thought', signature: 'S' } }));
    collect(frame('step.delta', { index: 1, delta: { type: 'thought_signature', signature: 7 } }));
    collect(frame('step.delta', { index: 1, delta: { type: 'thought_summary', content: { type: 'text', text: 5 } } }));
    collect(frame('step.delta', { index: 1, delta: { type: 'thought_summary', content: { type: 'image', text: 'alt' } } }));
    collect(frame('step.start', { index: 2, step: { type: 'function_call', id: 'c', name: 'f', arguments: { kept: true } } }));
    collect(frame('step.delta', { index: 2, delta: { type: 'arguments_delta', arguments: 3 } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([
      { type: 'model_output', content: [{ type: 'text' }, { type: 'text', text: 'a' }] },
      { type: 'thought', signature: 'S', summary: [{ type: 'text', text: 5 }, { type: 'image', text: 'alt' }] },
      { type: 'function_call', id: 'c', name: 'f', arguments: { kept: true } },
    ]);
  });

  it('text after a media content that has a text field of its own is a new text content', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'model_output', content: [{ type: 'document', text: 'caption', uri: 'files/d' }] } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text', text: 'b' } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([{ type: 'model_output', content: [{ type: 'document', text: 'caption', uri: 'files/d' }, { type: 'text', text: 'b' }] }]);
  });

  it('audio, document and video deltas are contents of the step', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'model_output' } }));
    for (const type of ['audio', 'document', 'video']) collect(frame('step.delta', { index: 0, delta: { type, uri: `files/${type}` } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([{ type: 'model_output', content: [{ type: 'audio', uri: 'files/audio' }, { type: 'document', uri: 'files/document' }, { type: 'video', uri: 'files/video' }] }]);
  });

  it('steps by their index, none where no step started; a start or delta without a numeric index, or a step that is not an object, is skipped', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 1, step: { type: 'model_output', content: [] } }));
    collect(frame('step.start', { step: { type: 'thought' } }));
    collect(frame('step.start', { index: 0, step: 'model_output' }));
    collect(frame('step.delta', { index: '1', delta: { type: 'text', text: 'no' } }));
    collect(frame('step.delta', { index: 1, delta: 'text' }));
    collect(frame('step.delta', { index: 1, delta: { type: 'text', text: 'yes' } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([{ type: 'model_output', content: [{ type: 'text', text: 'yes' }] }]);
  });

  it('frames whose data is not a JSON object are not read (a leading space, broken JSON); broken arguments are {} even when the start gave none', () => {
    const collect = collectInteraction();
    collect({ event: 'step.start', data: ` ${JSON.stringify({ index: 0, step: { type: 'thought' } })}` });
    collect({ event: 'step.start', data: '{"index":0,' });
    collect(frame('step.start', { index: 0, step: { type: 'function_call', id: 'c', name: 'f' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'arguments_delta', arguments: '{"a":' } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([{ type: 'function_call', id: 'c', name: 'f', arguments: {} }]);
  });
});

describe('a text\'s annotations, kept on the text they cite', () => {
  const cite = (url: string, start?: number, end?: number) => ({ type: 'url_citation', url, ...(start !== undefined ? { start_index: start, end_index: end } : {}) });

  it('each text_annotation_delta adds to the step\'s text content, in order', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'model_output', content: [] } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text', text: 'Spain won.' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text_annotation_delta', annotations: [cite('https://a.org', 0, 5)] } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text_annotation_delta', annotations: [cite('https://b.org', 6, 10), cite('https://c.org')] } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text_annotation_delta' } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([
      { type: 'model_output', content: [{ type: 'text', text: 'Spain won.', annotations: [cite('https://a.org', 0, 5), cite('https://b.org', 6, 10), cite('https://c.org')] }] },
    ]);
  });

  it('a step whose text a medium splits: each annotation on the text its start falls in, counted from that text (UTF-8 bytes)', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'model_output' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text', text: 'Café.' } })); // 6 bytes
    collect(frame('step.delta', { index: 0, delta: { type: 'image', data: 'AA==', mime_type: 'image/png' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text', text: 'Tea.' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text_annotation_delta', annotations: [cite('https://a.org', 0, 6), cite('https://b.org', 6, 10), cite('https://c.org')] } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([
      {
        type: 'model_output',
        content: [
          { type: 'text', text: 'Café.', annotations: [cite('https://a.org', 0, 6)] },
          { type: 'image', data: 'AA==', mime_type: 'image/png' },
          { type: 'text', text: 'Tea.', annotations: [cite('https://b.org', 0, 4), cite('https://c.org')] },
        ],
      },
    ]);
  });

  it('an annotation of a step with no text yet is dropped', () => {
    const collect = collectInteraction();
    collect(frame('step.start', { index: 0, step: { type: 'model_output' } }));
    collect(frame('step.delta', { index: 0, delta: { type: 'text_annotation_delta', annotations: [cite('https://a.org', 0, 1)] } }));
    const answer = collect(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] };
    expect(answer.steps).toStrictEqual([{ type: 'model_output' }]);
    const empty = collectInteraction();
    empty(frame('step.start', { index: 0, step: { type: 'model_output', content: [] } }));
    empty(frame('step.delta', { index: 0, delta: { type: 'text_annotation_delta', annotations: [cite('https://a.org', 0, 1)] } }));
    expect((empty(frame('interaction.completed', { interaction: { id: 'x', status: 'completed' } })) as { steps: unknown[] }).steps).toStrictEqual([{ type: 'model_output', content: [] }]);
  });
});
