import { BOARD_LEN } from './board';
import { keysOf, PIECES, ROTATIONS } from './constants';
import type { Core } from './core';
import { droppedFromAbove, finesseTarget, type FinesseMove } from './finesse-table';
import { K_180, K_CCW, K_CW, K_HARD, K_HOLD, K_LEFT, K_RIGHT } from './keys';
import type { PieceType, Rotation } from './types';

/**
 * Finesse faults: for each placed piece, the inputs pressed beyond the fewest that reach its
 * placement from the spawn (finesse-table.ts). An input is a press of left, right or a rotation
 * key while the piece is in play; hold starts the count again (the held-in piece spawns fresh);
 * soft drop, one row down and hard drop are not inputs. A piece that could not have been placed by
 * a straight drop from the spawn rows (a tuck or a spin) is not judged; neither is a piece that
 * used fewer inputs than the chart (a direction kept held from the piece before: no fault).
 */
export interface PieceFinesse {
  /** The piece's number among the pieces placed, from 0. */
  readonly index: number;
  /** The tick it locked on. */
  readonly tick: number;
  readonly piece: PieceType;
  readonly rotation: Rotation;
  readonly x: number;
  readonly y: number;
  /** Presses counted for it. */
  readonly inputs: number;
  /** Fewest inputs for its placement; null when not judged (a tuck or a spin). */
  readonly needed: number | null;
  /** A shortest sequence, for the trainer's explanation; empty when not judged. */
  readonly path: readonly FinesseMove[];
  readonly faults: number;
}

/** What a game's finesse adds up to; it grows as the game is played. */
export interface FinesseTally {
  readonly faults: number;
  /** Pieces judged (placed by a straight drop). */
  readonly judged: number;
  readonly pieces: readonly PieceFinesse[];
}

const COUNTED = (1 << K_LEFT) | (1 << K_RIGHT) | (1 << K_CW) | (1 << K_CCW) | (1 << K_180);

/**
 * Follows a game on its core (game.ts calls it around each input and each step). Needs the core
 * to emit events: the lock event names the placement.
 */
export class FinesseTracker implements FinesseTally {
  faults = 0;
  judged = 0;
  pieces: PieceFinesse[] = [];
  private inputs = 0;
  private placed: number;
  /** The board before the call that may lock: the placement is judged against it. */
  private before = new Int32Array(BOARD_LEN);
  private readonly half: boolean;

  constructor(c: Core) {
    this.placed = c.pieces;
    this.half = keysOf(c.rulesVersion) > K_180;
  }

  /** Before one key edge is applied. */
  press(c: Core, key: number, down: boolean): void {
    if (!down || c.piece < 0 || (c.held & (1 << key)) !== 0) return;
    if ((COUNTED & (1 << key)) !== 0) this.inputs++;
    else if (key === K_HOLD && !c.holdUsed) this.inputs = 0; // the held-in piece spawns fresh; the press itself is not counted
    else if (key === K_HARD) this.before.set(c.board);
  }

  /** Before the step of a tick (a resting piece may lock in it). */
  step(c: Core): void {
    this.before.set(c.board);
  }

  /** After an input or a step of tick `tick`: a lock closes the piece's count. */
  after(c: Core, tick: number): void {
    if (c.pieces === this.placed) return;
    this.placed = c.pieces;
    const out = c.out ?? [];
    let lock = null;
    for (let i = out.length - 1; i >= 0 && !lock; i--) {
      const e = out[i]!;
      if (e.type === 'lock') lock = e;
    }
    const inputs = this.inputs;
    this.inputs = 0;
    if (!lock) return;
    const piece = PIECES.indexOf(lock.piece);
    const rot = ROTATIONS.indexOf(lock.rotation);
    const target = droppedFromAbove(this.before, piece, rot, lock.x, lock.y) ? finesseTarget(piece, rot, lock.x, this.half) : null;
    const faults = target ? Math.max(0, inputs - target.needed) : 0;
    this.faults += faults;
    if (target) this.judged++;
    this.pieces.push({
      index: this.pieces.length, tick, piece: lock.piece, rotation: lock.rotation, x: lock.x, y: lock.y,
      inputs, needed: target?.needed ?? null, path: target?.path ?? [], faults,
    });
  }

  copy(): FinesseTracker {
    const t = Object.create(FinesseTracker.prototype) as FinesseTracker;
    Object.assign(t, this, { pieces: this.pieces.slice(), before: this.before.slice() });
    return t;
  }
}
