import { PIECES, ROTATIONS, TICKS_PER_SECOND, type Game, type InputEvent, type Key } from '@/lib/engine';
import { best, bitboardOf, candidates, type SearchOptions } from '@/lib/bot/search';
import type { BotSpec, BotStyle } from '@/lib/bot/spec';

/**
 * The search behind each style (spec.ts says what each is for), given the stack's height in rows.
 * The attacker gives its well up while the stack is high: waiting for an I piece there tops it out.
 */
const STYLE_SEARCH: Readonly<Record<BotStyle, (height: number) => SearchOptions>> = {
  tidy: () => ({}),
  attacker: (height) => ({ well: height <= WELL_MAX_HEIGHT }),
};
const WELL_MAX_HEIGHT = 8;

/** Rows from the floor to the highest filled cell. */
function stackHeight(rows: readonly string[]): number {
  const top = rows.findIndex((row) => /[^.]/.test(row));
  return top < 0 ? 0 : rows.length - top;
}

const TURN_KEYS = [null, 'rotateCW', 'rotate180', 'rotateCCW'] as const;
/** Ticks a tap takes: pressed on one tick, released on the next. */
const TAP_TICKS = 2;

/**
 * The sparring bot: it plays a seat the way a player's browser does, key edges tick by tick into
 * its own copy of the game, so the server referees it as it does anyone (lib/server/live/match/
 * bot-peer.ts). Per piece: it searches every placement reachable by one rotation, taps and a hard
 * drop (search.ts), waits until its pace allows, turns, shifts from wherever the kick put the
 * piece, and drops. Its pace is an average: piece n locks no sooner than (n + 1) ticks-per-piece
 * into the game, so a slow piece is made up on the next ones and it is never faster than asked.
 * It reads only its own field and preview, never the seed or the other seat.
 */
export class SparringBot {
  private plan: InputEvent[][] = [];
  /** Where the piece being placed goes once its turn is done, and the ticks to wait before dropping it. */
  private placing: { x: number; wait: number } | null = null;
  /** The pieces locked when the plan was made: a piece that locked on its own (gravity) voids the plan. */
  private planFor = -1;
  private readonly ticksPerPiece: number;

  constructor(readonly spec: BotSpec) {
    this.ticksPerPiece = Math.round(TICKS_PER_SECOND / spec.pps);
  }

  /** Forgets the piece being placed: the game was played again from a checkpoint (garbage arrived), so the plan is stale. */
  reset(): void {
    this.plan = [];
    this.placing = null;
  }

  /** The key edges for the game's next tick. */
  inputs(game: Game): InputEvent[] {
    if (game.stats().pieces !== this.planFor) this.reset();
    if (this.plan.length === 0) this.think(game);
    return this.plan.shift() ?? [];
  }

  private tap(key: Key): void {
    this.plan.push([{ key, down: true }], [{ key, down: false }]);
  }

  private idle(ticks: number): void {
    for (let i = 0; i < ticks; i++) this.plan.push([]);
  }

  /** Turn first; then, from wherever the kick put the piece, shift, wait out the pace, and drop. */
  private think(game: Game): void {
    const snap = game.snapshot();
    const a = snap.active;
    this.planFor = snap.pieces;
    // A voided plan can leave a key down (a hard drop locks on its press, before its release is
    // played): let go of it first, or the next press of that key is no press at all.
    if (snap.held.length > 0) {
      this.plan.push(snap.held.map((key) => ({ key, down: false })));
      return;
    }
    if (!a) return;
    if (this.placing) {
      const dx = this.placing.x - a.x;
      for (let i = 0; i < Math.abs(dx); i++) this.tap(dx < 0 ? 'left' : 'right');
      this.idle(this.placing.wait);
      this.tap('hardDrop');
      this.placing = null;
      return;
    }
    const pick = best(candidates(bitboardOf(snap.board), PIECES.indexOf(a.type), ROTATIONS.indexOf(a.rotation), a.x, a.y, STYLE_SEARCH[this.spec.style](stackHeight(snap.board))));
    const turnKey = pick ? TURN_KEYS[pick.turn] : null;
    const taps = (turnKey ? 1 : 0) + (pick ? Math.abs(pick.x - a.x) : 0) + 1;
    const wait = Math.max(0, (snap.pieces + 1) * this.ticksPerPiece - snap.tick - taps * TAP_TICKS);
    if (!pick) {
      this.idle(wait);
      this.tap('hardDrop');
      return;
    }
    this.placing = { x: pick.x, wait };
    if (turnKey) this.tap(turnKey);
    else this.think(game);
  }
}
