/**
 * The browser's versus seat (lib/client/live/versus-seat.ts) played by VersusBot: for the match
 * host's unit test (messages handed over directly), the API test and the bench (over a socket).
 *
 *   const seat = new VersusSeat({ seed: 'a', mistakes: 0.2 });
 *   seat.receive(message);                // every server message for this seat
 *   const batch = seat.play(upToTick);    // → an `inputs` body (without its stream), or null
 */
import type { DealtGame, VersusGame } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import { VersusSeatState, type SeatBatch } from '@/lib/client/live/versus-seat';
import { VersusBot, type VersusBotOptions } from '@/tests/support/versus-bot';

export type { SeatBatch };

export class VersusSeat extends VersusSeatState {
  readonly bot: VersusBot;
  /** Every message the player received since this seat was made, for the tests' checks; the bench's bots keep none (`record: false`). */
  readonly received: ServerMessage[] = [];
  /** The seat's resume token, from `match`. */
  resumeToken = '';
  private viewed: { game: DealtGame; view: VersusGame } | null = null;

  constructor(options: VersusBotOptions, clock: () => number = () => performance.now(), private readonly record = true) {
    super(clock);
    this.bot = new VersusBot(options);
    this.onReset = () => this.bot.reset();
  }

  override receive(m: ServerMessage): void {
    if (this.record) this.received.push(m);
    if (m.t === 'match') this.resumeToken = m.resumeToken;
    super.receive(m);
  }

  /** Plays up to `upTo` with the bot's keys. */
  override play(upTo: number): SeatBatch | null {
    return super.play(upTo, (g, seat) => this.bot.inputs(this.view(g), seat));
  }

  /** The bot reads its field through the referee's interface; the dealt game stands in for it (one view per game, not per tick). */
  private view(game: DealtGame): VersusGame {
    if (this.viewed?.game !== game) {
      const view = { game: () => game, tickOf: () => game.tickNo, awaiting: () => [] } as unknown as VersusGame;
      this.viewed = { game, view };
    }
    return this.viewed.view;
  }
}
