import type { GameEvent, Snapshot } from '@/lib/engine';
import type { Playable } from '@/lib/client/replay-playback';
import type { ReplayPlayer } from '@/lib/client/replay-player';

/** One event of a multi-field playback, with the field it happened on. */
export type FieldEvent = { field: number; event: GameEvent };

/**
 * Several replays on one clock (the two seats of a versus game): each field is its own
 * ReplayPlayer, so every field is exactly its engine's state at the shared tick. A field whose
 * game ended earlier stays on its last tick while the others play on. The transport (seek,
 * steps by piece) works on the union of every field's piece ticks.
 */
export class FieldsPlayer implements Playable<Snapshot[], FieldEvent> {
  private ticks = 0;
  readonly endTick: number;
  /** Every tick on which a piece appeared on any field, in order, without repeats. */
  readonly pieceTicks: readonly number[];

  constructor(readonly fields: readonly ReplayPlayer[]) {
    if (fields.length === 0) throw new Error('a playback needs at least one field');
    this.endTick = Math.max(...fields.map((f) => f.endTick));
    this.pieceTicks = [...new Set(fields.flatMap((f) => f.pieceTicks))].sort((a, b) => a - b);
    this.seek(0);
  }

  get tick(): number {
    return this.ticks;
  }

  get over(): boolean {
    return this.ticks >= this.endTick;
  }

  step(): readonly FieldEvent[] {
    if (this.over) return [];
    const out: FieldEvent[] = [];
    this.fields.forEach((f, field) => {
      // Only a field still on the shared clock moves; an ended one has stopped on its end tick.
      if (f.tick === this.ticks && !f.over) for (const event of f.step()) out.push({ field, event });
    });
    this.ticks++;
    return out;
  }

  seek(target: number): void {
    const to = Math.max(0, Math.min(Math.floor(target), this.endTick));
    for (const f of this.fields) f.seek(Math.min(to, f.endTick));
    this.ticks = to;
  }

  /** As ReplayPlayer.pieceBoundary, over every field's pieces. */
  pieceBoundary(dir: 1 | -1): number {
    const marks = [0, ...this.pieceTicks, this.endTick];
    if (dir === 1) return marks.find((t) => t > this.ticks) ?? this.endTick;
    return marks.findLast((t) => t < this.ticks) ?? 0;
  }

  snapshot(): Snapshot[] {
    return this.fields.map((f) => f.snapshot());
  }

  hash(): string {
    return this.fields.map((f) => f.hash()).join(' ');
  }
}
