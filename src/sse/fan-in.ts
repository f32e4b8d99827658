/**
 * `n > 1` against an upstream that returns one choice per call: the events of n upstream streams
 * (lanes) merged into one stream of n choices. Lane i becomes choice i; one `message-start`;
 * tool-call ids kept unique across choices; usage held back and summed at the end.
 */
import { sumUsage, type StreamEvent, type Usage } from '../canonical/index.ts';

export class FanIn {
  #started = false;
  readonly #ids = new Set<string>();
  readonly #usage: Array<Usage | undefined> = [];

  /** The caller's event for an event of `lane`, or undefined when it is held back. */
  route(lane: number, ev: StreamEvent): StreamEvent | undefined {
    switch (ev.type) {
      case 'message-start':
        if (this.#started) return undefined;
        this.#started = true;
        return ev;
      case 'usage':
        this.#usage[lane] = ev.usage;
        return undefined;
      case 'tool-call-start': {
        const id = this.#ids.has(ev.id) ? `${ev.id}_${lane}` : ev.id;
        this.#ids.add(id);
        return { ...ev, id, choice: lane };
      }
      case 'error':
      case 'prompt-blocked':
        return ev;
      default:
        return { ...ev, choice: lane };
    }
  }

  /** The summed usage of every lane, once all have ended. */
  usage(): Usage | undefined {
    return sumUsage(this.#usage);
  }
}
