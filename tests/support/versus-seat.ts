/**
 * The browser's versus seat (lib/client/live/versus-seat.ts) played by VersusBot: for the match
 * host's unit test (messages handed over directly), the API test and the bench (over a socket).
 *
 *   const seat = new VersusSeat({ seed: 'a', mistakes: 0.2 });
 *   seat.receive(message);                // every server message for this seat
 *   const batch = seat.play(upToTick);    // → vinputs body (without matchId), or null
 */
import type { DealtGame, VersusGame } from '@/lib/engine';
import { VersusSeatState, type SeatBatch } from '@/lib/client/live/versus-seat';
import { VersusBot, type VersusBotOptions } from '@/tests/support/versus-bot';

export type { SeatBatch };

export class VersusSeat extends VersusSeatState {
  readonly bot: VersusBot;

  constructor(options: VersusBotOptions, clock: () => number = () => performance.now()) {
    super(options.ackDelay ?? 2, clock);
    this.bot = new VersusBot(options);
    this.onReset = () => this.bot.reset();
  }

  /** Plays up to `upTo` with the bot's keys. */
  override play(upTo: number): SeatBatch | null {
    return super.play(upTo, (g, seat) => this.bot.inputs(view(g), seat));
  }
}

/** The bot reads its field through the referee's interface; a dealt game stands in for it. */
const view = (g: DealtGame): VersusGame => ({ game: () => g, tickOf: () => g.tickNo, awaiting: () => [] }) as unknown as VersusGame;
