import type { ReplayEvent } from '@/lib/engine';
import { MAX_BATCH_EVENTS, toWireEvent, type ClientMessage } from '@/lib/live/protocol';

type InputsMessage = Extract<ClientMessage, { t: 'inputs' }>;

/**
 * A live game's input stream cut into numbered batches. Every batch is kept until the server
 * acknowledges it, so after a dropped connection the ones it never saw are sent again, in order,
 * and the server's copy of the game loses nothing. Pure: no socket, no clock.
 */
export class InputBatches {
  private seq = 0;
  private sent = 0;
  private tick = -1;
  private unacked: InputsMessage[] = [];

  constructor(private readonly gameId: string) {}

  /**
   * Cuts the batches for the inputs logged since the last call (`log` is the game's whole input
   * log so far) up to `tick`, the game's tick now. An empty batch still tells the server how far
   * the clock has run; with no input and no tick since the last one (the game waits for
   * pieces) there is no batch.
   */
  cut(log: readonly ReplayEvent[], tick: number, hash?: string): InputsMessage[] {
    if (log.length === this.sent && tick === this.tick) return [];
    this.tick = tick;
    const fresh = log.slice(this.sent);
    this.sent = log.length;
    const out: InputsMessage[] = [];
    for (let i = 0; i === 0 || i < fresh.length; i += MAX_BATCH_EVENTS) {
      const part = fresh.slice(i, i + MAX_BATCH_EVENTS);
      const last = i + MAX_BATCH_EVENTS >= fresh.length;
      // A batch's tick is past all its events; only the last one carries the clock (and the hash) to `tick`.
      const upTo = last ? tick : part[part.length - 1]!.tick + 1;
      const batch: InputsMessage = { t: 'inputs', gameId: this.gameId, seq: ++this.seq, tick: upTo, events: part.map(toWireEvent) };
      if (last && hash) batch.hash = hash;
      out.push(batch);
    }
    this.unacked.push(...out);
    return out;
  }

  /** The server has every batch up to `seq`. */
  ack(seq: number): void {
    this.unacked = this.unacked.filter((b) => b.seq > seq);
  }

  /**
   * What to send again after a reconnect: the batches after `seq`, the last one the server holds,
   * merged and numbered again from `seq + 1`. A connection that died quietly kept being fed a
   * batch every 100 ms until the page noticed (up to several seconds), and sending that backlog
   * batch by batch would run into the server's per-second message budget; merged, it is one
   * message (or a few, at MAX_BATCH_EVENTS each).
   */
  after(seq: number): InputsMessage[] {
    this.ack(seq);
    const kept = this.unacked;
    if (kept.length === 0) {
      this.seq = seq;
      return [];
    }
    const last = kept[kept.length - 1]!;
    const events = kept.flatMap((b) => b.events);
    this.seq = seq;
    const out: InputsMessage[] = [];
    for (let i = 0; i === 0 || i < events.length; i += MAX_BATCH_EVENTS) {
      const part = events.slice(i, i + MAX_BATCH_EVENTS);
      const isLast = i + MAX_BATCH_EVENTS >= events.length;
      const batch: InputsMessage = { t: 'inputs', gameId: this.gameId, seq: ++this.seq, tick: isLast ? last.tick : part[part.length - 1]![0] + 1, events: part };
      if (isLast && last.hash) batch.hash = last.hash;
      out.push(batch);
    }
    this.unacked = out;
    return out.slice();
  }

  /** Every batch the server has not acknowledged, in order (to send again after a refusal). */
  kept(): InputsMessage[] {
    return this.unacked.slice();
  }

  get pending(): number {
    return this.unacked.length;
  }
}
