/**
 * Resuming the forwarding scan where an agent's last turn left it. An agent resends the whole
 * conversation with every turn (Claude Code, Codex, Gemini CLI): the body is the last one's bytes
 * and a few new turns. The scan (`peekJson`) leaves checkpoints in the conversation array every
 * CHECKPOINT_EVERY bytes; the next body whose bytes up to a checkpoint are the same, compared
 * natively (memcmp), is scanned from there. The answer is the one a whole scan gives: the scan
 * reads nothing before where it stands, and its state at the checkpoint is kept whole.
 *
 * An entry holds the earlier body's own pieces (the socket's buffers, never written to): nothing
 * is copied. Entries are scoped by dialect and caller credential, so one caller's timing never
 * tells what another sent. Bounded in entries and bytes; the oldest goes first. Node only: without
 * a native compare, comparing costs what the scan does.
 */
import { ByteParts, nativeCompare, peekJson, type Bytes, type NativeCompare, type PeekCheckpoint, type PeekedJson } from '../../kit/index.ts';

/** A checkpoint about every this many bytes of the conversation. */
export const CHECKPOINT_EVERY = 8 * 1024;
const MAX_ENTRIES = 32;
/**
 * How many kept bodies of a scope one scan compares against, the latest first. Bodies that share a
 * long start (one agent's sessions: the same system prompt and tools) each cost a compare up to
 * where they part (memcmp, a tenth of the scan's cost per byte).
 */
const MAX_TRIED = 8;
/** The most bytes the entries may hold, counted by the buffers their pieces keep alive. */
const MAX_BYTES = 16 * 1024 * 1024;

interface Entry {
  scope: string;
  pieces: readonly Uint8Array[];
  held: number;
  checkpoints: PeekCheckpoint[];
}

/** A scan's result, and what keeping it takes (`ScanMemo.keep`). */
export interface MemoScan {
  top: PeekedJson | undefined;
  /** Where the scan started: the bytes before it are those of a body kept earlier (0: all scanned). */
  resumedAt: number;
  checkpoints: PeekCheckpoint[];
  replaces?: Entry;
}

export class ScanMemo {
  private entries: Entry[] = [];
  private held = 0;

  /** Scan `flat` (the bytes of the body), from the furthest checkpoint a kept body of `scope` shares with it. */
  peek(scope: string, flat: Uint8Array): MemoScan {
    const compare = nativeCompare();
    let best: { entry: Entry; count: number } | undefined;
    if (compare) {
      // The latest bodies of the scope first; a body shared to its last checkpoint is the last turn.
      let tried = 0;
      for (let e = this.entries.length - 1; e >= 0 && tried < MAX_TRIED; e--) {
        const entry = this.entries[e]!;
        if (entry.scope !== scope) continue;
        tried++;
        const count = sharedCheckpoints(compare, entry, flat);
        if (count > (best?.count ?? 0)) best = { entry, count };
        if (count === entry.checkpoints.length) break;
      }
    }
    const checkpoints = best ? best.entry.checkpoints.slice(0, best.count) : [];
    const from = checkpoints[checkpoints.length - 1];
    const top = peekJson(flat, { from, into: compare ? checkpoints : undefined, every: CHECKPOINT_EVERY });
    return { top, resumedAt: from?.at ?? 0, checkpoints, replaces: best?.entry };
  }

  /** Keep `body` (whose bytes were scanned as `scan`) for the next turn to resume from. */
  keep(scope: string, body: Bytes, scan: MemoScan): void {
    // (No checkpoints without a native compare: `peek` leaves none then.)
    if (scan.checkpoints.length === 0) return;
    const pieces = body instanceof ByteParts ? body.parts : [body];
    const held = heldBy(pieces);
    if (held > MAX_BYTES) return;
    if (scan.replaces) this.drop(scan.replaces);
    this.entries.push({ scope, pieces, held, checkpoints: scan.checkpoints });
    this.held += held;
    while (this.entries.length > MAX_ENTRIES || this.held > MAX_BYTES) this.drop(this.entries[0]!);
  }

  /** How many bodies are kept (for tests). */
  get size(): number {
    return this.entries.length;
  }

  private drop(entry: Entry): void {
    const i = this.entries.indexOf(entry);
    if (i < 0) return;
    this.entries.splice(i, 1);
    this.held -= entry.held;
  }
}

/** How many of the entry's checkpoints lie where `flat` has the entry's bytes all the way. */
function sharedCheckpoints(compare: NativeCompare, entry: Entry, flat: Uint8Array): number {
  let count = 0;
  let start = 0;
  for (const cp of entry.checkpoints) {
    if (cp.at > flat.length || !sameRange(compare, entry.pieces, flat, start, cp.at)) break;
    count++;
    start = cp.at;
  }
  return count;
}

/**
 * Whether `flat` from `start` to `end` holds the bytes the pieces (one body, in order) hold from
 * `at` on (by default the same place).
 */
export function sameRange(compare: NativeCompare, pieces: readonly Uint8Array[], flat: Uint8Array, start: number, end: number, at = start): boolean {
  if (end === start) return true;
  const shift = at - start;
  let base = 0;
  for (const p of pieces) {
    const pEnd = base + p.byteLength;
    if (pEnd > start + shift) {
      const from = Math.max(start, base - shift);
      const to = Math.min(end, pEnd - shift);
      if (compare.call(flat, p, from + shift - base, to + shift - base, from, to) !== 0) return false;
      if (to === end) return true;
    }
    base = pEnd;
  }
  return false;
}

/** The bytes the pieces keep alive: their whole buffers (a socket read's slice keeps all of it). */
export function heldBy(pieces: readonly Uint8Array[]): number {
  const seen = new Set<ArrayBufferLike>();
  let n = 0;
  for (const p of pieces) {
    if (seen.has(p.buffer)) continue;
    seen.add(p.buffer);
    n += p.buffer.byteLength;
  }
  return n;
}
