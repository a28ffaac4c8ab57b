/**
 * The browser's seat in a live room (decision 0034): the room's messages mapped onto the dealt
 * seat (dealt-seat.ts), as versus-seat.ts maps versus's, and the seat's manual target changes,
 * each sent in the batch whose ticks hold it (the server takes them only there), and again in the
 * batch after a resume if those ticks are sent again.
 */
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, ROOM_RULES_VERSION } from '@/lib/engine';
import type { Handling, RoomRules, VersusMode } from '@/lib/engine';
import { ROOM_WIRE_LIMITS, type RoomServerMessage, type WireTarget } from '@/lib/live/rooms';
import { DealtSeat, type SeatBatch } from '@/lib/client/live/dealt-seat';

export type RoomBatch = SeatBatch & { targets?: WireTarget[] };

export class RoomSeatState extends DealtSeat<RoomBatch> {
  seat = 0;
  mode: VersusMode = 'battle';
  handling: Handling = DEFAULT_HANDLING;
  rules: RoomRules = DEFAULT_ROOM_RULES;
  rulesVersion = ROOM_RULES_VERSION;
  /** Out of the current game (topped out, left, or too far behind): nothing more is played in it. */
  out = false;
  /**
   * The current game's target changes, [tick, seat], one a tick, in tick order (aim). All are kept:
   * after a resume the next batch starts at the server's tick, and those it never saw ride in it again.
   */
  private targets: WireTarget[] = [];
  /** Garbage messages of this game so far: each one's place is its id (the server's order). */
  private received = 0;

  /** A set begins for this seat (the caller parsed `rules` against the room's size). */
  enter(m: Extract<RoomServerMessage, { t: 'rmatch' }>, seat: number, rules: RoomRules): void {
    this.matchId = m.matchId;
    this.seat = seat;
    this.mode = m.mode;
    this.handling = m.handling[seat] ?? DEFAULT_HANDLING;
    this.rules = rules;
    this.rulesVersion = m.rulesVersion;
    this.gameIndex = -1;
    this.game = null;
  }

  receive(m: RoomServerMessage): void {
    if ('matchId' in m && m.matchId !== this.matchId) return;
    switch (m.t) {
      case 'rbegin':
        this.out = false;
        this.targets = [];
        this.received = 0;
        return this.begin(m.game, { mode: this.mode, handling: this.handling, nextCount: this.rules.preview, rulesVersion: this.rulesVersion, room: { rules: this.rules, seat: this.seat } }, m.pieces, m.startsInMs);
      case 'rgarbage':
        if (m.game === this.gameIndex) this.addGarbage(m.game, { id: this.received++, tick: m.tick, size: m.size, column: m.column });
        return;
      case 'rresumed':
        if (m.game !== this.gameIndex) return;
        this.received = m.garbage.length;
        this.out = !m.playing;
        if (this.out) this.decided = true;
        return this.resumed(m.game, m.pieces, m.garbage.map(([tick, size, column], id) => ({ id, tick, size, column })), m.lastSeq, m.tick);
      case 'rko':
        if (m.game === this.gameIndex && m.seat === this.seat) {
          this.out = true;
          this.decided = true;
        }
        return;
      case 'rgame':
        // Every seat still in played through the deciding tick: the game stops after it.
        return this.decide(m.game, m.tick + 1);
      case 'rroom':
      case 'rclosed':
      case 'rmatch':
      case 'rframes':
      case 'rover':
        return; // the session's
      default:
        m satisfies never;
    }
  }

  /**
   * Aim at `seat` from the next tick played (manual targeting; the session checks the seat is an
   * opponent). A replay that stopped short (garbage, waiting for a piece) can put the game back
   * behind changes made before: the newest aim holds from its tick on, so those are dropped, and
   * the list stays in tick order (the batch cuts count on it).
   */
  aim(seat: number): void {
    const g = this.game;
    if (!g || this.out) return;
    const tick = Math.max(g.tickNo, this.sentTick);
    this.targets = this.targets.filter(([t]) => t < tick);
    this.targets.push([tick, seat]);
  }

  /** The batch (without the match's id) with the target changes its ticks hold. */
  protected dress(b: SeatBatch, from: number): RoomBatch {
    const now = this.targets.filter(([t]) => t >= from && t < b.tick);
    return now.length > 0 ? { ...b, targets: now } : b;
  }

  /** A batch holds at most ROOM_WIRE_LIMITS.targetsPerBatch changes (many made while the link was down go in several). */
  protected override cutBefore(from: number): number {
    const ahead = this.targets.filter(([t]) => t >= from);
    return ahead[ROOM_WIRE_LIMITS.targetsPerBatch]?.[0] ?? Number.POSITIVE_INFINITY;
  }
}
