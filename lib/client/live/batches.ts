import { batchCuts } from '@/lib/client/live/batch-cuts';
import type { ReplayEvent } from '@/lib/engine';
import { toWireEvent, type ClientMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';

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
  /** The clock as far as the server has acknowledged it: where a resend's first batch starts. */
  private ackedTick = 0;
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
    const from = Math.max(0, this.tick);
    this.tick = tick;
    const fresh = log.slice(this.sent).map(toWireEvent);
    this.sent = log.length;
    // Only the last batch carries the clock (and the hash) to `tick`.
    const out = this.number(fresh, from, tick, hash);
    this.unacked.push(...out);
    return out;
  }

  /** Whether `log` (the game's whole input log) and its `tick` hold play no batch has carried yet. */
  uncut(log: readonly ReplayEvent[], tick: number): boolean {
    return log.length !== this.sent || tick !== this.tick;
  }

  /** The server has every batch up to `seq`. */
  ack(seq: number): void {
    for (const b of this.unacked) if (b.seq <= seq) this.ackedTick = Math.max(this.ackedTick, b.tick);
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
    this.seq = seq;
    const out = this.number(kept.flatMap((b) => b.events), this.ackedTick, last.tick, last.hash);
    this.unacked = out;
    return out.slice();
  }

  /** Numbered batches for `events` from the clock at `from` to `upTo` (batch-cuts.ts). */
  private number(events: readonly WireEvent[], from: number, upTo: number, hash?: string): InputsMessage[] {
    const out: InputsMessage[] = [];
    let i = 0;
    for (const cut of batchCuts(events.map((e) => e[0]), from, upTo)) {
      out.push({ t: 'inputs', stream: this.gameId, seq: ++this.seq, tick: cut.tick, events: events.slice(i, i + cut.count) });
      i += cut.count;
    }
    if (hash) out[out.length - 1]!.hash = hash;
    return out;
  }

  /** Every batch the server has not acknowledged, in order (to send again after a refusal). */
  kept(): InputsMessage[] {
    return this.unacked.slice();
  }

  get pending(): number {
    return this.unacked.length;
  }
}
