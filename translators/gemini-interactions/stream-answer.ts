/**
 * The whole Interaction a stream told its caller, rebuilt from its frames, for the state store.
 *
 * An Interactions stream's `interaction.completed` frame carries the id, status and usage but no
 * steps (the streaming guide's captures; SDK `InteractionSseEventInteraction.steps` is optional):
 * the steps exist only as `step.start` / `step.delta` / `step.stop` frames. A stored interaction
 * must hold them (a later `previous_interaction_id` rebuilds the history from them, and `GET`
 * shows them), so this collector folds the frames as they pass: a step's `step.start` content
 * first, then each delta appended (text to the last text content, a thought summary to the
 * summary, the signature set, argument fragments concatenated and parsed at the end, a text's
 * annotations added to it, a search step's arguments, results and signature folded in).
 */
import type { StreamFrame } from '../../src/canonical/index.ts';
import { isJsonObject as isRecord, utf8Length } from '../../src/kit/index.ts';
import { foldSearchDelta, isSearchStep } from './web-search.ts';

type Wire = Record<string, unknown>;


function parse(data: string): Wire | undefined {
  if (!data.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(data) as unknown;
    return isRecord(v) ? v : undefined;
    // Stryker disable next-line BlockStatement: an empty catch falls through to the same undefined
  } catch {
    return undefined;
  }
}

/** Append `text` to the last text content of `list`, or add one. */
function appendText(list: unknown[], text: string): void {
  const last = list.at(-1);
  if (isRecord(last) && last['type'] === 'text' && typeof last['text'] === 'string') last['text'] += text;
  else list.push({ type: 'text', text });
}

/**
 * Add `annotations` to the text contents of `list`. Their offsets count UTF-8 bytes of the step's
 * whole text; the content is text joined between media, so each goes to the text content its start
 * falls in, its offsets moved to that content's own (one without offsets to the last).
 */
function annotate(list: unknown[], annotations: unknown[]): void {
  const texts = list.filter((c): c is Wire => isRecord(c) && c['type'] === 'text' && typeof c['text'] === 'string');
  let from = 0;
  const spans = texts.map((c) => ({ c, from, to: (from += utf8Length(c['text'] as string)) }));
  for (const a of annotations) {
    const start = isRecord(a) && typeof a['start_index'] === 'number' ? a['start_index'] : undefined;
    const at = (start !== undefined && spans.find((s) => start < s.to)) || spans.at(-1);
    if (!at) continue;
    const own = start !== undefined && at.from > 0 ? shifted(a as Wire, at.from) : a;
    at.c['annotations'] = [...(Array.isArray(at.c['annotations']) ? at.c['annotations'] : []), own];
  }
}

/** An annotation with its offsets moved `by` bytes back. */
function shifted(a: Wire, by: number): Wire {
  const end = a['end_index'];
  return { ...a, start_index: (a['start_index'] as number) - by, ...(typeof end === 'number' ? { end_index: end - by } : {}) };
}

function contentOf(step: Wire, field: 'content' | 'summary'): unknown[] {
  const list = Array.isArray(step[field]) ? (step[field] as unknown[]) : [];
  step[field] = list;
  return list;
}

function applyDelta(step: Wire, delta: Wire, args: Map<Wire, string>): void {
  switch (delta['type']) {
    case 'text':
      if (typeof delta['text'] === 'string') appendText(contentOf(step, 'content'), delta['text']);
      return;
    case 'thought_summary': {
      const c = delta['content'];
      if (isRecord(c) && c['type'] === 'text' && typeof c['text'] === 'string') appendText(contentOf(step, 'summary'), c['text']);
      else if (isRecord(c)) contentOf(step, 'summary').push(c);
      return;
    }
    case 'thought_signature':
      if (typeof delta['signature'] === 'string') step['signature'] = delta['signature'];
      return;
    case 'arguments_delta':
      if (typeof delta['arguments'] === 'string') args.set(step, (args.get(step) ?? '') + delta['arguments']);
      return;
    case 'text_annotation_delta':
      if (Array.isArray(delta['annotations']) && Array.isArray(step['content'])) annotate(step['content'], delta['annotations']);
      return;
    case 'image':
    case 'audio':
    case 'document':
    case 'video':
      contentOf(step, 'content').push({ ...delta });
      return;
    default:
      // A search step's deltas hold its arguments, results and signature: a continuation sends the
      // step back to Google as it was. Other hosted-tool deltas are not kept.
      if (isSearchStep(delta['type'])) foldSearchDelta(step, delta);
      return;
  }
}

/** A collector for one stream: feed it every frame; it returns the Interaction at `interaction.completed`. */
export function collectInteraction(): (frame: StreamFrame) => unknown {
  const steps: Wire[] = [];
  const args = new Map<Wire, string>();
  return (frame) => {
    const type = frame.event;
    if (type !== 'step.start' && type !== 'step.delta' && type !== 'interaction.completed') return undefined;
    const data = parse(frame.data);
    if (!data) return undefined;
    const index = data['index'];
    if (type === 'step.start') {
      if (typeof index === 'number' && isRecord(data['step'])) steps[index] = structuredClone(data['step']);
      return undefined;
    }
    if (type === 'step.delta') {
      const step = typeof index === 'number' ? steps[index] : undefined;
      if (step && isRecord(data['delta'])) applyDelta(step, data['delta'], args);
      return undefined;
    }
    const interaction = data['interaction'];
    if (!isRecord(interaction)) return undefined;
    for (const [step, text] of args) {
      try {
        step['arguments'] = JSON.parse(text) as unknown;
      } catch {
        step['arguments'] = {};
      }
    }
    return { ...interaction, steps: steps.filter(Boolean) };
  };
}
