/**
 * What a Responses stream's answer keeps beside what its frames show (`CallerStreamEncoder.kept`):
 * reasoning items with their encrypted content when the caller did not ask for it, and a Gemini
 * text signature's reasoning item, which only an encrypted caller is shown. The stream encoder
 * notes them as items complete; the kept answer is made once, after the terminal frame.
 */
import type { CarriedReasoning } from '../../src/canonical/index.ts';
import type { TranslateContext } from '../types.ts';
import { ITEM_PREFIX, keptReasoning, reasoningItem, type OutputOptions } from './encode-output.ts';
import { keptResponse } from './encode-response.ts';
import type { Wire } from './encode-settings.ts';
import type { KeptResponse } from './state.ts';

export class KeptStreamOutput {
  /** Output items as kept, where they differ from the caller's (by output index). */
  private readonly items = new Map<number, Wire>();
  /** Signatures the caller is not shown as items, after the item at `after` (-1: first). */
  private readonly hiddenAfter: Array<{ after: number; carried: CarriedReasoning }> = [];
  private ending?: { response: Wire; output: readonly Wire[]; ats: readonly number[] };
  private answer?: KeptResponse;

  constructor(
    private readonly opts: OutputOptions,
    private readonly ctx: TranslateContext,
  ) {}

  /** A reasoning item the caller got at `at`: kept with its signature. */
  reasoning(at: number, item: Wire, carried: CarriedReasoning | undefined): void {
    const kept = keptReasoning(item, carried);
    if (kept !== item) this.items.set(at, kept);
  }

  /** A signature the caller is not shown, kept after the item at `after`. */
  hidden(after: number, carried: CarriedReasoning): void {
    this.hiddenAfter.push({ after, carried });
  }

  /** The terminal response, with the encoder's output and the indexes of the items it holds. */
  end(response: Wire, output: readonly Wire[], ats: readonly number[]): void {
    this.ending = { response, output, ats };
  }

  /** The kept answer (made once, after `end`). */
  kept(): KeptResponse | undefined {
    if (!this.ending || this.answer) return this.answer;
    const items: Wire[] = [];
    const hidden: string[] = [];
    const hide = (after: number) => {
      for (const h of this.hiddenAfter) {
        if (h.after !== after) continue;
        const item = keptReasoning(reasoningItem(this.ctx.newId(ITEM_PREFIX.reasoning), [], h.carried, this.opts), h.carried);
        items.push(item);
        hidden.push(item['id'] as string);
      }
    };
    hide(-1);
    for (const at of this.ending.ats) {
      items.push(this.items.get(at) ?? this.ending.output[at]!);
      hide(at);
    }
    return (this.answer = keptResponse(this.ending.response, { items, hidden }));
  }
}
