import { KEYS } from './constants';
import type { ReplayEvent } from './types';

/** Key ids take four bits of an entry (KEYS only grows by appending; see the check below). */
const KEY_SPACE = 16;
if (KEYS.length > KEY_SPACE) throw new Error(`an input log entry holds ${KEY_SPACE} key ids, and there are ${KEYS.length} keys`);

/**
 * A game's inputs, one 32-bit entry each (tick × 32 + key id × 2 + down), in a typed array that
 * doubles as it fills. A server holds a log per game in play, and with an object per input the
 * logs of 1,000 live games or 500 versus matches were most of its objects: each one copied by the
 * young collector and marked by the old one (docs/decisions/0017-versus-live.md has the figures).
 * An entry holds ticks below 2^27 (about 26 days of play; a replay stops at MAX_REPLAY_TICKS, an
 * hour) and key ids below 16; `push` takes what a game has already checked: integer ticks, in order.
 */
export class InputLog {
  constructor(
    private entries = new Uint32Array(64),
    public length = 0,
  ) {}

  push(tick: number, keyId: number, down: boolean): void {
    if (this.length === this.entries.length) {
      const bigger = new Uint32Array(this.entries.length * 2);
      bigger.set(this.entries);
      this.entries = bigger;
    }
    this.entries[this.length++] = tick * 32 + keyId * 2 + (down ? 1 : 0);
  }

  tickAt(i: number): number {
    return Math.floor(this.entries[i]! / 32);
  }
  keyIdAt(i: number): number {
    return (this.entries[i]! >> 1) & (KEY_SPACE - 1);
  }
  downAt(i: number): boolean {
    return (this.entries[i]! & 1) === 1;
  }

  /** Entries [from, to) as replay events: new objects each call. */
  events(from = 0, to = this.length): ReplayEvent[] {
    const out: ReplayEvent[] = [];
    for (let i = from; i < Math.min(to, this.length); i++) out.push({ tick: this.tickAt(i), key: KEYS[this.keyIdAt(i)]!, down: this.downAt(i) });
    return out;
  }

  /** An independent log with the same entries. */
  copy(): InputLog {
    return new InputLog(this.entries.slice(0, Math.max(64, this.length)), this.length);
  }
}
