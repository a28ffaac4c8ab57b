import 'server-only';
import { InputLog, keyId, type ReplayEvent } from '@/lib/engine';
import type { WireEvent } from '@/lib/live/wire';

/**
 * A live host's copy of its game's inputs: the engine's packed log (lib/engine/input-log.ts),
 * read and written in the forms the host deals in. Only inputs an engine has accepted go in.
 */
export class EventLog extends InputLog {
  pushEvents(events: readonly ReplayEvent[]): void {
    for (const e of events) this.push(e.tick, keyId(e.key), e.down);
  }

  pushWire(events: readonly WireEvent[], from = 0, to = events.length): void {
    for (let i = from; i < to; i++) this.push(events[i]![0], events[i]![1], events[i]![2] === 1);
  }

  /** Entries [from, to), in their wire form. */
  wire(from = 0, to = this.length): WireEvent[] {
    const out: WireEvent[] = [];
    for (let i = from; i < Math.min(to, this.length); i++) out.push([this.tickAt(i), this.keyIdAt(i), this.downAt(i) ? 1 : 0]);
    return out;
  }
}
