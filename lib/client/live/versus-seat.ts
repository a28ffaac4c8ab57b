/**
 * The browser's seat in a live versus match: the versus messages mapped onto the dealt seat
 * (dealt-seat.ts: pieces from `vstart`, more from `deal`, garbage at the server's tick and
 * column, checkpoints at `ack`). docs/decisions/0017-versus-live.md.
 *
 *   const seat = new VersusSeatState();
 *   seat.receive(message);                        // every server message for this seat
 *   const batch = seat.play(upTo, (game) => keys); // → the body of `inputs` (without its stream)
 */
import { isRoomServerMessage } from '@/lib/live/rooms';
import { isTeamServerMessage } from '@/lib/live/teams';
import { DEFAULT_HANDLING, VERSUS_RULES_VERSION } from '@/lib/engine';
import type { DealtGame, DealtGameConfig, Handling, InputEvent, ReplayEvent } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import { DealtSeat, type SeatBatch } from '@/lib/client/live/dealt-seat';

export type { SeatBatch } from '@/lib/client/live/dealt-seat';
type Msg = ServerMessage;

export class VersusSeatState extends DealtSeat<SeatBatch> {
  seat: 0 | 1 = 0;
  mode: 'battle' | 'race30' = 'battle';
  handling: Handling = DEFAULT_HANDLING;
  nextCount = 5;
  /** The match's versus rules, as the server announced them: the keys the server accepts. */
  rulesVersion: number = VERSUS_RULES_VERSION;
  over: Extract<Msg, { t: 'vover' }> | null = null;

  /** A versus batch is the seat's play alone. */
  protected dress(b: SeatBatch): SeatBatch {
    return b;
  }

  /** Plays up to `upTo`; the planner is told this seat's number (0 or 1). */
  override play(upTo: number, inputsFor: (game: DealtGame, seat: 0 | 1) => InputEvent[]): SeatBatch | null {
    return super.play(upTo, (game) => inputsFor(game, this.seat));
  }

  /**
   * Takes the seat up with nothing kept but its own play (the server's sparring bot on the instance
   * that took its match up): after `match`, the `vresumed` a browser gets, with this seat's own
   * inputs of the game and its clock's start. Nothing else: what a browser in the seat would know.
   * Between games (`playing` false) there is no game to rebuild: the next `vstart` begins one.
   */
  rebuild(m: Extract<Msg, { t: 'vresumed' }>, own: { inputs: ReadonlyArray<Readonly<ReplayEvent>>; startsInMs: number }): void {
    if (!m.playing) return this.receive(m);
    this.restore(m.game, this.config(), {
      pieces: m.pieces, garbage: m.garbage.map(([id, tick, size, column]) => ({ id, tick, size, column })), lastSeq: m.lastSeq, tick: m.tick, ...own,
    });
  }

  /** The game this seat plays, as `match` announced it. */
  private config(): DealtGameConfig {
    return { mode: this.mode, handling: this.handling, nextCount: this.nextCount, rulesVersion: this.rulesVersion, seat: this.seat };
  }

  receive(m: Msg): void {
    if (isRoomServerMessage(m)) return; // a live room's: room-seat.ts plays those
    if (isTeamServerMessage(m)) return; // the ranked 2v2 queue's (lib/live/teams.ts): the versus page's queue control reads them
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
        return this.begin(m.game, this.config(), m.pieces, m.startsInMs);
      case 'deal':
      case 'ack':
        return this.answer(m);
      case 'garbage':
        return this.addGarbage(m.game, { id: m.id, tick: m.tick, size: m.size, column: m.column });
      case 'vresumed':
        return this.resumed(m.game, m.pieces, m.garbage.map(([id, tick, size, column]) => ({ id, tick, size, column })), m.lastSeq, m.tick);
      case 'vgame':
        // Decided (here, or by the other seat): the game stops where the server counted it.
        return this.decide(m.game, m.ticks[this.seat]);
      case 'vover':
        this.over = m;
        return;
      case 'welcome':
      case 'started':
      case 'resumed':
      case 'status':
      case 'over':
      case 'watching':
      case 'frame':
      case 'ended':
      case 'error':
      case 'pong':
      case 'queued':
      case 'unqueued':
      case 'room':
      case 'room_closed':
      case 'rematch_state':
      case 'rematch_over':
      case 'vframe':
      case 'vaway':
      case 'vwatching':
        return; // the session's (lobby, rooms, away, errors) or a spectator's
      default:
        m satisfies never;
    }
  }
}
