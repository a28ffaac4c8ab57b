import type { GameEvent, Handling, PieceType, RoomRules, Snapshot, VersusMode } from '@/lib/engine';
import type { RoomServerMessage } from '@/lib/live/rooms';
import { SpectatorFeed } from '@/lib/client/live/spectator';

type Frames = Extract<RoomServerMessage, { t: 'rframes' }>;
type Setup = { mode: VersusMode; rules: RoomRules; handling: readonly Handling[]; rulesVersion: number; own: number | null };

/**
 * Every seat's field of a room but the page's own, re-run from the room's frames (a SpectatorFeed
 * each, with the room's rules and the seat's number), a few hundred ms behind the players. Every
 * seat of a game plays one piece sequence: the frames carry it once for all.
 */
export class RoomFields {
  private setup: Setup | null = null;
  private feeds: (SpectatorFeed | null)[] = [];
  private pieces: PieceType[] = [];
  private game = -1;

  enter(setup: Setup): void {
    this.setup = setup;
    this.clear();
  }

  /** A game begins: fields start as the first pieces are known (the page's own, or the frames'). */
  begin(game: number, own: readonly PieceType[]): void {
    this.game = game;
    this.pieces = own.slice();
    this.feeds = (this.setup?.handling ?? []).map(() => null);
  }

  get current(): number {
    return this.game;
  }

  frames(m: Frames): void {
    if (m.game !== this.game) return;
    for (let i = 0; i < m.pieces.length; i++) this.pieces[m.from + i] = m.pieces[i]!;
    for (const f of this.feeds) f?.push({ from: m.from, pieces: m.pieces, events: [], tick: 0 });
    for (const f of m.seats) {
      if (f.seat === this.setup?.own) continue;
      this.feed(f.seat)?.push({ from: 0, pieces: [], events: f.events, tick: f.tick, garbage: f.garbage });
    }
  }

  private feed(seat: number): SpectatorFeed | null {
    const s = this.setup;
    if (!s || seat >= this.feeds.length) return null;
    const have = this.feeds[seat];
    if (have || this.pieces.length === 0 || this.pieces[0] === undefined) return have ?? null;
    const feed = new SpectatorFeed({
      mode: s.mode, rulesVersion: s.rulesVersion, handling: s.handling[seat]!, nextCount: s.rules.preview, room: { rules: s.rules, seat },
      pieces: this.pieces.slice(0, contiguous(this.pieces)), events: [], tick: 0, paused: false,
    });
    this.feeds[seat] = feed;
    return feed;
  }

  /** The game was decided at `tick`: every field at once to there. */
  finish(tick: number): GameEvent[][] {
    return this.feeds.map((f) => f?.runTo(tick) ?? []);
  }

  /** One animation frame: each field's events since the last (empty for a seat not shown). */
  advance(now: number): GameEvent[][] {
    return this.feeds.map((f) => f?.advance(now) ?? []);
  }

  snapshot(seat: number): Snapshot | null {
    return this.feeds[seat]?.snapshot() ?? null;
  }

  clear(): void {
    this.feeds = [];
    this.pieces = [];
    this.game = -1;
  }
}

/** How many pieces from the first are known without a gap. */
function contiguous(pieces: readonly (PieceType | undefined)[]): number {
  let n = 0;
  while (n < pieces.length && pieces[n] !== undefined) n++;
  return n;
}
