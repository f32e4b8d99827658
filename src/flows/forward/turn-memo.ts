/**
 * The memory of callers' last translated turns (docs/performance.md "Translating only what
 * changed"): per caller, the last request bodies it sent, parsed (parse-memo.ts); per caller and
 * route, the last body sent upstream (`JsonBodyKeep`, src/kit/json-body.ts). Both serve only to
 * do less work: what they give is what the work would have given, byte for byte.
 *
 * Private per caller: every entry is scoped by the caller's dialect and credential (one credential
 * is one caller, as for stored state), and a caller is only ever compared against its own bodies,
 * so neither what one caller gets nor how long it takes depends on what another sent. Bounded: the
 * entries hold at most `maxBytes` (counted as the buffers they keep alive plus their text again
 * for the values made of it), the least recently used going first. One per app: per process on
 * Node, per isolate on Workers.
 */
import { ByteParts, type Bytes, type JsonBodyKeep, type KeptJsonBody } from '../../kit/index.ts';
import type { MemoCaller, TurnMemory } from '../context.ts';
import { memoParse, type ParsedBody } from './parse-memo.ts';
import { heldBy } from './scan-memo.ts';

/** Kept bodies per caller (different conversations of one agent: a main loop and its subagents). */
const BODIES_PER_CALLER = 4;

const scopeOf = (who: MemoCaller) => `${who.caller.id}\n${who.callerKey ?? ''}`;

interface Entry {
  size: number;
  parsed?: ParsedBody[];
  sent?: KeptJsonBody;
}

export class TurnMemo implements TurnMemory {
  /** In order of use, the least recent first (a Map keeps insertion order). */
  private entries = new Map<string, Entry>();
  private held = 0;

  constructor(
    readonly maxBytes: number,
    /** Smaller bodies are parsed as they are (in no time) and not kept. */
    readonly fromBytes: number,
  ) {}

  /**
   * `flat` (the bytes of `body`) parsed for the caller `who`, from its last bodies where they
   * hold the same bytes; `whole` parses a body as without the memo.
   */
  parse(who: MemoCaller, body: Bytes, flat: Uint8Array, conversation: string, whole: (flat: Uint8Array) => unknown): unknown {
    if (flat.length < this.fromBytes || flat.length > this.maxBytes) return whole(flat);
    const key = `parse\n${scopeOf(who)}`;
    const kept = this.entries.get(key)?.parsed ?? [];
    const pieces = body instanceof ByteParts ? body.parts : [body];
    const r = memoParse(flat, pieces, conversation, kept, whole);
    if (r.keep) {
      const list = [r.keep, ...kept.filter((b) => b !== r.replaces)].slice(0, BODIES_PER_CALLER);
      this.put(key, { size: list.reduce((n, b) => n + heldBy(b.pieces) + b.length, 0), parsed: list });
    }
    return r.value;
  }

  /** Where the last body sent upstream for the caller `who` and `route` (its upstream and model) is kept. */
  sent(who: MemoCaller, route: string): JsonBodyKeep {
    const key = `sent\n${scopeOf(who)}\n${route}`;
    return {
      last: () => this.entries.get(key)?.sent,
      keep: (body) => {
        if (!body) this.drop(key);
        // (Its text counted twice: once as text, once for the values made of it.)
        else this.put(key, { size: body.size + body.pieces.reduce((n, p) => n + p.length, 0), sent: body });
      },
    };
  }

  /** What the entries hold, as counted against `maxBytes` (for tests). */
  get size(): number {
    return this.held;
  }

  private put(key: string, entry: Entry): void {
    this.drop(key);
    if (entry.size > this.maxBytes) return;
    this.entries.set(key, entry);
    this.held += entry.size;
    for (const [k] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.drop(k);
    }
  }

  private drop(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.held -= e.size;
  }
}
