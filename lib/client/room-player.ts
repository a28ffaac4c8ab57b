import {
  feedRoomTick, MAX_REPLAY_TICKS, RoomGame, roomCursor, type Replay, type RoomAttack, type RoomCursor, type RoomLeave, type RoomOutcome, type RoomRules,
  type Snapshot, type VersusMode,
} from '@/lib/engine';
import type { FieldEvent } from '@/lib/client/fields-player';
import type { Playable } from '@/lib/client/replay-playback';
import { CHECKPOINT_INTERVAL } from '@/lib/client/replay-player';

/** What a room viewer draws at a tick: every seat's field, whom each aims at, and who is out. */
export type RoomFrame = {
  fields: Snapshot[];
  /** Each seat's aim (its last target, or its manual choice); null before it has one, or once it is out. */
  aims: (number | null)[];
  out: boolean[];
};

/** A seat going out: topped out on its field, or left the room (the host's word, stored with the game). */
export type RoomKo = { seat: number; tick: number; how: 'topOut' | 'left' };

export type RoomGameSource = {
  mode: VersusMode;
  /** This game's own seed (`${set seed}.${index}`). */
  seed: string;
  rules: RoomRules;
  /** Every seat's replay, in seat order. */
  replays: readonly Replay[];
  leaves: readonly RoomLeave[];
  /** The stored deciding tick: the playback never runs past it (verification stopped there too). */
  endTick: number;
};

/**
 * Plays a stored room game back through the referee that verified it (lib/engine/referee.ts), fed
 * from the seats' replays by the same feedRoomTick as verification: garbage is routed again, and
 * lands on each field where and when it did in the room, never read from the replays. On
 * construction the game is played through once, keeping a clone of the referee every
 * `interval` ticks, every attack, every KO and the ticks pieces appeared on; a seek restores the
 * nearest clone at or before the target and plays forward, so any route to a tick lands on the
 * same state.
 */
export class RoomPlayer implements Playable<RoomFrame, FieldEvent> {
  private game: RoomGame;
  private at: RoomCursor;
  private readonly checkpoints: { game: RoomGame; at: RoomCursor }[] = [];
  readonly seats: number;
  readonly endTick: number;
  readonly pieceTicks: readonly number[];
  /** Every attack the referee routed, in order: sent on `tick` (routed at its end), joining `to`'s queue on the next. */
  readonly attacks: readonly RoomAttack[];
  readonly kos: readonly RoomKo[];
  readonly outcome: RoomOutcome | null;

  constructor(
    private readonly source: RoomGameSource,
    private readonly interval = CHECKPOINT_INTERVAL,
  ) {
    this.seats = source.replays.length;
    this.game = this.fresh();
    this.at = roomCursor(this.seats);
    const limit = Math.min(source.endTick + 1, MAX_REPLAY_TICKS);
    const pieces = new Set<number>();
    const attacks: RoomAttack[] = [];
    const kos: RoomKo[] = [];
    while (!this.game.outcome && this.at.tick < limit) {
      if (this.at.tick % interval === 0) this.keep();
      const tick = this.at.tick;
      for (const l of source.leaves) if (l.tick === tick && !this.game.isOut(l.seat)) kos.push({ seat: l.seat, tick, how: 'left' });
      for (const played of feedRoomTick(this.game, source.replays, source.leaves, this.at)) {
        attacks.push(...played.attacks);
        for (const seat of played.out) kos.push({ seat, tick: played.tick, how: 'topOut' });
        if (played.events.some((ev) => ev.some((e) => e.type === 'lock'))) pieces.add(played.tick + 1);
      }
    }
    this.endTick = this.at.tick;
    this.pieceTicks = [...pieces];
    this.attacks = attacks;
    this.kos = kos;
    this.outcome = this.game.outcome;
    this.restore(0);
  }

  get tick(): number {
    return this.at.tick;
  }

  get over(): boolean {
    return this.at.tick >= this.endTick;
  }

  step(): readonly FieldEvent[] {
    if (this.over) return [];
    const out: FieldEvent[] = [];
    for (const played of feedRoomTick(this.game, this.source.replays, this.source.leaves, this.at))
      played.events.forEach((events, field) => {
        for (const event of events) out.push({ field, event });
      });
    return out;
  }

  seek(target: number): void {
    const to = Math.max(0, Math.min(Math.floor(target), this.endTick));
    if (to < this.tick || to - this.tick > this.interval) this.restore(Math.floor(to / this.interval));
    while (this.tick < to) this.step();
  }

  pieceBoundary(dir: 1 | -1): number {
    const marks = [0, ...this.pieceTicks, this.endTick];
    if (dir === 1) return marks.find((t) => t > this.tick) ?? this.endTick;
    return marks.findLast((t) => t < this.tick) ?? 0;
  }

  snapshot(): RoomFrame {
    const seats = Array.from({ length: this.seats }, (_, s) => s);
    const out = seats.map((s) => this.game.isOut(s));
    return {
      fields: seats.map((s) => this.game.game(s).snapshot()),
      aims: seats.map((s) => (out[s] || this.game.aimOf(s) === s ? null : this.game.aimOf(s))),
      out,
    };
  }

  /** Every seat's engine hash in seat order, one space between. */
  hash(): string {
    return Array.from({ length: this.seats }, (_, s) => this.game.game(s).hash()).join(' ');
  }

  private fresh(): RoomGame {
    const { mode, seed, rules, replays } = this.source;
    return new RoomGame({ mode, seed, rules, handling: replays.map((r) => r.handling) });
  }

  private keep(): void {
    this.checkpoints.push({ game: this.game.clone(), at: copyCursor(this.at) });
  }

  /** Continues from a copy of checkpoint i, so the checkpoint itself stays untouched. */
  private restore(i: number): void {
    const c = this.checkpoints[Math.min(i, this.checkpoints.length - 1)];
    this.game = c ? c.game.clone() : this.fresh();
    this.at = c ? copyCursor(c.at) : roomCursor(this.seats);
  }
}

const copyCursor = (at: RoomCursor): RoomCursor => ({ tick: at.tick, next: at.next.slice(), nextTarget: at.nextTarget.slice() });
