/**
 * One block open at a time, for callers' wires that write blocks one after the other (Anthropic
 * content blocks, Responses output items, Interactions steps) while the canonical stream may
 * interleave tool calls by `index` (stream.ts): a call that starts while another call's block is
 * open waits in order, with its argument fragments and its end, until that block closes; then the
 * waiting calls are written one after the other. `flush(true)` at the end writes and closes every
 * call still waiting.
 *
 * The encoder keeps its own one open block (of any kind) and tells the queue through
 * `ToolCallBlocks` which call's block is open, if any. A call whose block was already written
 * once (a repeated start for its index) is not written again.
 */

/** The encoder's side of the queue: its blocks, as far as tool calls are concerned. */
export interface ToolCallBlocks<C, Out> {
  /** The index of the call whose block is open now; undefined when none is (another kind may be). */
  openCall(): number | undefined;
  /** Open the call's block, closing whatever block is open. */
  openBlock(call: C, out: Out): void;
  /** A non-empty fragment of the open call's arguments. */
  argumentsDelta(fragment: string, out: Out): void;
  /** Close the open call's block. */
  closeBlock(out: Out): void;
}

interface Waiting<C> {
  call: C;
  deltas: string[];
  ended: boolean;
}

/** `Out` is what the encoder writes its frames into, handed through to `ToolCallBlocks` as it is. */
export class ToolCallQueue<C extends { index: number }, Out> {
  private readonly waiting: Waiting<C>[] = [];
  /** Indexes whose block was opened. */
  private readonly written = new Set<number>();

  constructor(private readonly blocks: ToolCallBlocks<C, Out>) {}

  /** No call's block is open and none waits: another kind of block may go out. */
  get idle(): boolean {
    return this.waiting.length === 0 && this.blocks.openCall() === undefined;
  }

  /** `tool-call-start`: opened now when no call's block is open, else queued behind it. */
  start(call: C, out: Out): void {
    this.waiting.push({ call, deltas: [], ended: false });
    if (this.blocks.openCall() === undefined) this.flush(false, out);
  }

  /** `tool-call-delta`: written to the open call, or kept with the waiting one. */
  delta(index: number, fragment: string, out: Out): void {
    if (fragment === '') return;
    if (this.blocks.openCall() === index) this.blocks.argumentsDelta(fragment, out);
    else this.find(index)?.deltas.push(fragment);
  }

  /** `tool-call-end`: closes the open call and writes the waiting ones; true when the open call closed. */
  end(index: number, out: Out): boolean {
    if (this.blocks.openCall() === index) {
      this.blocks.closeBlock(out);
      this.flush(false, out);
      return true;
    }
    const w = this.find(index);
    if (w) w.ended = true;
    return false;
  }

  /** Open the waiting calls in order while no call's block is open; with `all`, close each one too. */
  flush(all: boolean, out: Out): void {
    while (this.waiting.length > 0 && this.blocks.openCall() === undefined) {
      const w = this.waiting.shift()!;
      if (this.written.has(w.call.index)) continue;
      this.written.add(w.call.index);
      this.blocks.openBlock(w.call, out);
      for (const d of w.deltas) this.blocks.argumentsDelta(d, out);
      if (w.ended || all) this.blocks.closeBlock(out);
    }
  }

  private find(index: number): Waiting<C> | undefined {
    return this.waiting.find((w) => w.call.index === index);
  }
}
