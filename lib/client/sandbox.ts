import type { Game, GameEvent, InputEvent, Key, PieceFinesse, PiecePlacement, Snapshot } from '@/lib/engine';

/**
 * The practice sandbox's game: any engine game (a replay's moment, a fumen, an edited board) with
 * undo by piece and reset to its start. Each piece's starting state is kept as a `Game.clone()`
 * (about a kilobyte), so going back is exact: the same board, queue, bag and generator state as
 * when that piece appeared. Nothing here is ranked or submitted.
 */
export class Sandbox {
  private game: Game;
  /** The state each placed piece started from, oldest first. */
  private readonly history: Game[] = [];
  private readonly locked: PiecePlacement[] = [];
  private pieceStart: Game;
  /** Keys the engine holds but the player's keyboard does not: released on the next tick. */
  private releaseHeld = false;
  /**
   * The finesse trainer: a piece placed with a finesse fault is taken back and starts again
   * where it appeared, and `fault` says why. Off: faults are only counted.
   */
  trainer = false;
  private lastFault: PieceFinesse | null = null;

  constructor(private readonly start: Game) {
    this.game = counted(start.clone());
    this.pieceStart = counted(start.clone());
  }

  /** The trainer's last taken-back piece, until a piece is placed without a fault (or a jump). */
  get fault(): PieceFinesse | null {
    return this.lastFault;
  }

  /** Finesse faults of the pieces placed since the start (undone pieces and taken-back ones excluded). */
  get faults(): number {
    return this.game.finesse().faults;
  }

  get over(): boolean {
    return this.game.over;
  }

  /** Pieces locked since the start, in order: the pages of a fumen export. */
  get placed(): readonly PiecePlacement[] {
    return this.locked;
  }

  /** Pieces dealt so far, the one in play included (what a drill counts its fumen pieces by). */
  get taken(): number {
    return this.game.taken;
  }

  get canUndo(): boolean {
    return this.history.length > 0;
  }

  /**
   * The player takes over from here with their own keyboard: keys the game has down (a replay's
   * DAS held at that moment, say) are let go on the next tick instead of staying down forever.
   */
  takeOver(): void {
    this.releaseHeld = true;
  }

  tick(inputs?: readonly InputEvent[]): readonly GameEvent[] {
    let feed = inputs;
    if (this.releaseHeld) {
      this.releaseHeld = false;
      const held: Key[] = this.game.snapshot().held;
      if (held.length > 0) feed = [...held.map((key) => ({ key, down: false })), ...(inputs ?? [])];
    }
    const events = this.game.tick(feed);
    const judged = this.game.finesse().pieces;
    let lockNo = judged.length - events.filter((e) => e.type === 'lock').length;
    for (const e of events) {
      if (e.type !== 'lock') continue;
      const placed = judged[lockNo++];
      if (this.trainer && placed && placed.faults > 0) return this.takeBack(placed);
      if (placed) this.lastFault = null;
      this.history.push(this.pieceStart);
      this.locked.push({ type: e.piece, rotation: e.rotation, x: e.x, y: e.y });
      this.pieceStart = this.game.clone();
    }
    return events;
  }

  /** The trainer: the faulty piece goes back to where it appeared, nothing of its lock kept. */
  private takeBack(placed: PieceFinesse): readonly GameEvent[] {
    this.lastFault = placed;
    this.game = this.pieceStart.clone();
    // Keys the player let go of since that moment must not stay down in the game.
    this.takeOver();
    return [];
  }

  /** Back to where the last placed piece appeared; false when nothing was placed since the start. */
  undo(): boolean {
    const previous = this.history.pop();
    if (!previous) return false;
    this.locked.pop();
    this.pieceStart = previous;
    this.game = previous.clone();
    this.lastFault = null;
    return true;
  }

  reset(): void {
    this.history.length = 0;
    this.locked.length = 0;
    this.pieceStart = counted(this.start.clone());
    this.game = counted(this.start.clone());
    this.lastFault = null;
  }

  snapshot(): Snapshot {
    return this.game.snapshot();
  }

  /** The start's snapshot (the first page of an export). */
  startSnapshot(): Snapshot {
    return this.start.snapshot();
  }

  hash(): string {
    return this.game.hash();
  }
}

/** A game that counts finesse from here on; its clones (each piece's start) carry the count. */
function counted(game: Game): Game {
  game.finesse();
  return game;
}
