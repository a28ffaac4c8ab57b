import 'server-only';
import { SparringBot } from '@/lib/bot/sparring';
import { keyId, ROOM_RULES_VERSION, type RoomGame } from '@/lib/engine';
import type { LivePlayer, WireEvent } from '@/lib/live/wire';
import type { Handling } from '@/lib/engine';
import type { BotSpec } from '@/lib/bot/spec';
import type { Owner } from '@/lib/server/games/owner';
import type { QueuedSeat } from '@/lib/server/versus/store';
import { MatchSeat } from '@/lib/server/live/match/match-seat';
import { pieceSequence } from '@/lib/engine';

/** Who sits in a room's seat: a person (owner, name) or, with `bot`, the server's bot; `queued`, what the ranked queue knew of them. */
export type RoomSeatSpec = { owner: Owner; player: LivePlayer; handling: Handling; bot?: BotSpec; queued?: QueuedSeat };

/**
 * One seat of a room for the set: the versus seat's stream (MatchSeat: batches, deals never past
 * the preview, the human-input gate and replay size bound, garbage joined, frames cut where the
 * seat knew more pieces than the people in the room were dealt) and, for a bot, its player. A bot
 * is played on the server tick by tick through the same referee, reading its own field and
 * preview only (SparringBot), so it is refereed and stored as any seat is.
 */
export class RoomSeat {
  readonly stream: MatchSeat;
  private bot: SparringBot | null;
  /** The tick after the last batch taken in this game (a person's stream; a bot's is the room's). */
  sentTick = 0;
  /** Left the room: out of this game and every later one of the set. */
  leftRoom = false;
  /** This game's target changes as played in, [tick, seat] (a checkpoint's: the referee logs only the ticks it has played). */
  targets: Array<[number, number]> = [];

  constructor(
    readonly spec: RoomSeatSpec,
    token: string,
  ) {
    this.stream = new MatchSeat({ owner: spec.owner, player: spec.player, handling: spec.handling, nextCount: 0, ...(spec.bot ? { bot: spec.bot } : {}) }, token);
    this.bot = spec.bot ? new SparringBot(spec.bot) : null;
  }

  get isBot(): boolean {
    return this.bot !== null;
  }

  /** A new game of the set on `seed`, its clock from `t0`: a fresh stream (and a bot with no plan). */
  newGame(game: RoomGame, seat: number, seed: string, t0: number): void {
    this.stream.newGame(pieceSequence(seed, ROOM_RULES_VERSION), game.rules.preview, t0, game.game(seat).taken, ROOM_RULES_VERSION);
    this.sentTick = 0;
    this.targets = [];
    if (this.spec.bot) this.bot = new SparringBot(this.spec.bot);
  }

  /** A bot's next tick, from its own field at the room's tick; kept in its stream's log for the frames. */
  botTick(game: RoomGame, seat: number): ReturnType<RoomGame['play']> {
    const g = game.game(seat);
    const tick = g.tickNo;
    const inputs = this.bot!.inputs(g);
    if (inputs.length > 0) {
      const wire: WireEvent[] = inputs.map((e) => [tick, keyId(e.key), e.down ? 1 : 0]);
      this.stream.stream.log.pushWire(wire);
    }
    return game.play(seat, inputs);
  }
}
