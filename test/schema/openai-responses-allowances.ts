/**
 * Where what the proxy sends a Responses upstream departs from OpenAI's document on purpose, for
 * every check of those requests (test/schema/openai-responses.test.ts, the end-to-end suites).
 */
import type { Allowance } from './validate.ts';

export const replayedReasoningWithoutId: Allowance = {
  def: 'InputParam',
  at: /^\/\d+$/,
  value: (v) => !!v && typeof v === 'object' && (v as Record<string, unknown>)['type'] === 'reasoning' && !('id' in v),
  as: { type: 'reasoning', id: 'rs_stand_in', summary: [] },
  reason:
    "a reasoning item replayed to a Responses upstream carries no id: the document requires one, but an id the service did not issue or did not store is looked up and refused, and its encrypted_content carries what the id would; Codex sends reasoning items the same way (its ResponseItem::Reasoning never serializes the id), and the service takes them.",
};
