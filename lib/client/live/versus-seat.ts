/**
 * The browser's seat in a live versus match, without DOM or socket: it keeps the dealt game
 * (pieces and hole state from `vstart`, more from `vdeal`), puts the garbage the server sends into
 * the game at a tick of its choosing and acknowledges it with the next batch, and follows the
 * server when a message was forced at its deadline (`vack.applied` names another tick): it plays
 * its game again from tick 0 with the server's ticks. docs/decisions/0017-versus-live.md.
 *
 *   const seat = new VersusSeatState();
 *   seat.receive(message);                        // every server message for this seat
 *   const batch = seat.play(upTo, (game) => keys); // → the body of `vinputs` (without matchId)
 */
import { createDealtGame, DEFAULT_HANDLING, KEYS, VERSUS_RULES_VERSION } from '@/lib/engine';
import type { DealtGame, GameEvent, Handling, InputEvent, PieceType } from '@/lib/engine';
import { fromWireEvent, type ServerMessage, type WireAck, type WireEvent } from '@/lib/live/protocol';

type Msg = ServerMessage;
export type SeatBatch = { game: number; seq: number; tick: number; events: WireEvent[]; acks: WireAck[] };
type Garbage = { id: number; tick: number; size: number };

export class VersusSeatState {
  matchId = '';
  seat: 0 | 1 = 0;
  mode: 'battle' | 'race30' = 'battle';
  handling: Handling = DEFAULT_HANDLING;
  nextCount = 5;
  /** The match's versus rules, as the server announced them: the keys the server accepts. */
  rulesVersion: number = VERSUS_RULES_VERSION;
  gameIndex = -1;
  game: DealtGame | null = null;
  /** The current game's countdown end, in the caller's clock (set from vstart's startsInMs). */
  startsAt = 0;
  seq = 0;
  over: Extract<Msg, { t: 'vover' }> | null = null;
  /** Messages forced by the server at their deadline (the acknowledgement came too late). */
  forced = 0;
  private pieces: PieceType[] = [];
  private holes = 0;
  private pending = new Map<number, { size: number; deadline: number; seenAt: number }>();
  private garbage: Garbage[] = [];
  private sentEvents = 0;
  /** The server decided the current game: no more ticks are played in it. */
  private decided = false;
  private acks: WireAck[] = [];

  /** The current game's pieces dealt so far, in order (the opponent's game uses the same sequence). */
  get sequence(): readonly PieceType[] {
    return this.pieces;
  }

  /** Called when a new game starts or the game is played again (a planner's plan is then stale). */
  onReset: () => void = () => {};

  constructor(
    /** Ticks between a garbage message arriving and putting it in the game (the browser: 0). */
    private readonly ackDelay = 0,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  receive(m: Msg): void {
    switch (m.t) {
      case 'match':
        this.matchId = m.matchId;
        this.seat = m.seat;
        this.mode = m.mode;
        this.handling = m.handling[m.seat];
        this.nextCount = m.nextCount;
        this.rulesVersion = m.rulesVersion;
        return;
      case 'vstart':
        this.gameIndex = m.game;
        this.pieces = m.pieces.slice();
        this.holes = m.holes;
        this.pending.clear();
        this.garbage = [];
        this.acks = [];
        this.seq = 0;
        this.sentEvents = 0;
        this.decided = false;
        this.startsAt = this.clock() + m.startsInMs;
        this.onReset();
        this.game = createDealtGame({ mode: this.mode, handling: this.handling, nextCount: this.nextCount, rulesVersion: this.rulesVersion }, this.pieces, this.holes);
        return;
      case 'vdeal':
        // A deal that does not continue the pieces held (one was lost with a dropped socket) waits for vresumed's.
        if (m.game !== this.gameIndex || !this.game || m.from > this.pieces.length) return;
        for (let i = this.pieces.length - m.from; i < m.pieces.length; i++) this.pieces.push(m.pieces[i]!);
        this.game.deal(m.from, m.pieces);
        return;
      case 'garbage':
        if (m.game === this.gameIndex) this.pending.set(m.id, { size: m.size, deadline: m.deadline, seenAt: this.game?.tickNo ?? 0 });
        return;
      case 'vack': {
        if (m.game !== this.gameIndex) return;
        // Applied at another tick than this seat chose (or before it chose): forced at the deadline.
        let differs = false;
        for (const [id, tick] of m.applied) {
          const mine = this.garbage.find((g) => g.id === id);
          if (mine && mine.tick === tick) continue;
          differs = true;
          this.forced++;
          const size = mine?.size ?? this.pending.get(id)?.size;
          if (size === undefined) continue; // sent while this seat was away: vresumed brought it
          this.garbage = this.garbage.filter((g) => g.id !== id);
          this.garbage.push({ id, tick, size });
          this.pending.delete(id);
        }
        if (differs) this.rebuild();
        return;
      }
      case 'vresumed': {
        // Back after a drop: the server's garbage is the truth (some was forced while away).
        if (m.game !== this.gameIndex || !this.game) return;
        // Deals sent while the socket was down: every piece dealt so far comes again.
        for (let i = this.pieces.length; i < m.pieces.length; i++) this.pieces.push(m.pieces[i]!);
        const have = this.game.dealt;
        if (m.pieces.length > have) this.game.deal(have, m.pieces.slice(have));
        const now = this.game.tickNo;
        this.pending = new Map(m.pending.map((p) => [p.id, { size: p.size, deadline: p.deadline, seenAt: now }]));
        const theirs = m.garbage.map(([id, tick, size]) => ({ id, tick, size }));
        const same = theirs.length === this.garbage.length && theirs.every((g) => this.garbage.some((x) => x.id === g.id && x.tick === g.tick));
        this.garbage = theirs;
        this.seq = m.lastSeq;
        if (!same) this.rebuild();
        // Batches after lastSeq were lost with the connection: the next one carries everything
        // from the server's tick on. Their acks go too; what the server still awaits is pending again.
        this.sentEvents = this.game.inputs.filter((e) => e.tick < m.tick).length;
        this.acks = [];
        return;
      }
      case 'vgame':
        // Decided (here, or by the other seat): the game stops where the server counted it.
        if (m.game !== this.gameIndex || !this.game) return;
        this.decided = true;
        if (this.game.tickNo > m.ticks[this.seat]) this.rebuild(m.ticks[this.seat]);
        return;
      case 'vover':
        this.over = m;
        return;
    }
  }

  /**
   * One tick of this seat's game, as the page's runner drives it: garbage that arrived (and has
   * waited `ackDelay` ticks) joins the queue first and is acknowledged at this tick, then the inputs.
   */
  step(inputs: InputEvent[]): readonly GameEvent[] {
    const g = this.game;
    if (!g || g.over || !g.ready || this.decided) return [];
    // A copy, sorted by id, only when something waits: this runs 60 times a second.
    if (this.pending.size > 0) this.takeGarbage(g);
    return g.tick(inputs);
  }

  /** The garbage that has waited `ackDelay` ticks joins the queue now, in id order, acknowledged at this tick. */
  private takeGarbage(g: DealtGame): void {
    const t = g.tickNo;
    for (const [id, p] of [...this.pending].sort((a, b) => a[0] - b[0])) {
      if (t - p.seenAt < this.ackDelay) continue;
      g.receiveGarbage(p.size);
      this.garbage.push({ id, tick: t, size: p.size });
      this.acks.push([id, t]);
      this.pending.delete(id);
    }
  }

  /** What was played since the last batch: the body of `vinputs` (without matchId), or null before the game. */
  batch(): SeatBatch | null {
    const g = this.game;
    if (!g) return null;
    const log = g.inputs;
    const events = log.slice(this.sentEvents).map((e): WireEvent => [e.tick, KEY_INDEX.get(e.key)!, e.down ? 1 : 0]);
    this.sentEvents = log.length;
    const acks = this.acks;
    this.acks = [];
    return { game: this.gameIndex, seq: ++this.seq, tick: g.tickNo, events, acks };
  }

  /** Plays up to `upTo` (the wall clock's tick for this game); the batch to send, or null before the game. */
  play(upTo: number, inputsFor: (game: DealtGame, seat: 0 | 1) => InputEvent[]): SeatBatch | null {
    const g = this.game;
    if (!g) return null;
    while (!g.over && !this.decided && g.tickNo < upTo && g.ready) this.step(inputsFor(g, this.seat));
    return this.batch();
  }

  /**
   * Plays the game again from tick 0 as the server did, up to `end`: after garbage was forced at
   * other ticks than this seat chose, or to stop at the tick where the game was decided.
   */
  private rebuild(end = this.game!.tickNo): void {
    const old = this.game!;
    const events = old.inputs;
    const g = createDealtGame({ mode: this.mode, handling: this.handling, nextCount: this.nextCount, rulesVersion: this.rulesVersion }, this.pieces, this.holes);
    const garbage = this.garbage.slice().sort((a, b) => a.tick - b.tick || a.id - b.id);
    let e = 0;
    let k = 0;
    for (;;) {
      // The dealt queue holds 16 at most: deal as the game goes, as the server did.
      while (g.dealt < this.pieces.length && g.dealt - g.taken < 12) g.deal(g.dealt, [this.pieces[g.dealt]!]);
      if (g.tickNo >= end || g.over || !g.ready) break;
      const t = g.tickNo;
      while (k < garbage.length && garbage[k]!.tick === t) g.receiveGarbage(garbage[k++]!.size);
      const inputs: InputEvent[] = [];
      while (e < events.length && events[e]!.tick === t) inputs.push(fromWireEvent([t, KEY_INDEX.get(events[e]!.key)!, events[e++]!.down ? 1 : 0]));
      g.tick(inputs);
    }
    this.game = g;
    this.onReset();
  }
}

const KEY_INDEX: ReadonlyMap<string, number> = new Map(KEYS.map((k, i) => [k, i]));
