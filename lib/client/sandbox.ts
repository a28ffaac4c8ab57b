import type { Game, GameEvent, InputEvent, Key, PiecePlacement, Snapshot } from '@/lib/engine';

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

  constructor(private readonly start: Game) {
    this.game = start.clone();
    this.pieceStart = start.clone();
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
    for (const e of events) {
      if (e.type !== 'lock') continue;
      this.history.push(this.pieceStart);
      this.locked.push({ type: e.piece, rotation: e.rotation, x: e.x, y: e.y });
      this.pieceStart = this.game.clone();
    }
    return events;
  }

  /** Back to where the last placed piece appeared; false when nothing was placed since the start. */
  undo(): boolean {
    const previous = this.history.pop();
    if (!previous) return false;
    this.locked.pop();
    this.pieceStart = previous;
    this.game = previous.clone();
    return true;
  }

  reset(): void {
    this.history.length = 0;
    this.locked.length = 0;
    this.pieceStart = this.start.clone();
    this.game = this.start.clone();
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
