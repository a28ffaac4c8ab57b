import 'server-only';
import { SparringBot } from '@/lib/bot/sparring';
import type { BotSpec } from '@/lib/bot/spec';
import { VersusSeatState } from '@/lib/client/live/versus-seat';
import { TICKS_PER_SECOND } from '@/lib/engine';
import type { LiveErrorCode, ServerMessage, VersusMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { Owner } from '@/lib/server/games/owner';
import type { VersusPeer } from '@/lib/server/live/connection';
import type { MatchHost, Timers } from '@/lib/server/live/match/match-host';

/** How often the bot sends what it played: as a browser on a good connection does. */
const BATCH_EVERY_MS = 100;

/**
 * The sparring bot's seat: a peer of the lobby like a socket, with nothing of a socket. What the
 * server sends it goes into the browser's own seat logic (VersusSeatState: dealt pieces, garbage at
 * the server's tick, replays from the acknowledged checkpoint), and every BATCH_EVERY_MS it plays
 * the ticks the wall clock has reached and hands the batch to the lobby as `inputs`. So the bot
 * is refereed, paced, bounded and stored exactly as a human opponent is; it knows only what a
 * browser in its seat would. It has no owner (no account, no guest), so no client can take its
 * seat up, and its match is never ranked; the instance that takes its match up (a deploy, a crash)
 * seats a new bot there, rebuilt from the match's record of its seat (`rejoin`).
 */
export class BotPeer implements VersusPeer {
  readonly owner: Owner = { userId: null, guestId: null };
  readonly player: LivePlayer;
  readonly address = 'bot';
  readonly device = null;
  match: { host: MatchHost; seat: 0 | 1 } | null = null;
  readonly watches = new Map<string, () => void>();
  private playing = true;
  private readonly seat: VersusSeatState;
  private readonly bot: SparringBot;
  private timer: unknown = null;
  /** Taking a match up (rejoin): its own play of the current game, given back with the `vresumed` that follows. */
  private own: ReturnType<MatchHost['ownPlay']> | null = null;
  /** Why the seat cannot follow its match (a rebuild, a message it could not take): the bot gives it up at its next beat, not inside the host's send. */
  private broken: string | null = null;

  constructor(
    readonly spec: BotSpec,
    private readonly o: { play: (peer: BotPeer, m: VersusMessage) => void; timers: Timers; now: () => number },
  ) {
    this.player = { name: null, guest: false, bot: spec };
    this.bot = new SparringBot(spec);
    this.seat = new VersusSeatState(o.now);
    this.seat.onReset = () => this.bot.reset();
  }

  get open(): boolean {
    return this.playing;
  }

  /**
   * Its match taken up on this instance (versus-lobby.ts `adopt`): a new bot sits in the seat again,
   * rebuilt from what a resuming browser has, its own inputs and the `vresumed` it is sent, and
   * plays on from there to the wall clock, numbering its batches after the last one the match has.
   */
  rejoin(host: MatchHost, seat: 0 | 1): boolean {
    this.match = { host, seat };
    this.own = host.ownPlay(seat);
    const seated = host.resumeBot(seat, this);
    this.own = null;
    if (!seated) this.stop();
    return seated;
  }

  send(message: ServerMessage): void {
    if (!this.playing) return;
    // A fault here is the bot's, not the host's that sends: it gives its match up at its next beat.
    try {
      if (message.t === 'vresumed' && this.own) this.seat.rebuild(message, this.own);
      else this.seat.receive(message);
    } catch (error) {
      this.broken ??= `could not follow its match: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (message.t === 'vover') return this.stop();
    if (message.t === 'match' && this.timer === null) this.timer = this.o.timers.set(() => this.beat(), BATCH_EVERY_MS);
  }

  /**
   * Refused. `game_over` is the match ending while its last batches were on their way (its end is
   * sent once stored): nothing to say. Anything else is a bug to see in the log; the bot gives the
   * match up rather than leave its opponent waiting out a lag forfeit per game.
   */
  error(code: LiveErrorCode, message: string): void {
    if (code !== 'game_over') this.fail(`was refused (${code}): ${message}`);
    this.stop();
  }

  /** Its match is over or closed: no more batches, no timer left behind. */
  stop(): void {
    this.playing = false;
    if (this.timer !== null) this.o.timers.clear(this.timer);
    this.timer = null;
  }

  private fail(what: string): void {
    console.error(`[versus] the sparring bot ${what}`);
    this.stop();
    const m = this.match;
    if (m) m.host.leave(m.seat);
  }

  /**
   * Plays to the wall clock and sends what it played. It runs from a timer, not from a socket's
   * guarded handler: anything thrown below it (seat logic, search, referee, bus) would end the
   * process, so it is caught here and the bot gives its match up.
   */
  private beat(): void {
    this.timer = null;
    if (!this.playing) return;
    if (this.match?.host.ended) return this.stop();
    if (this.broken) return this.fail(this.broken);
    try {
      this.play();
    } catch (error) {
      return this.fail(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
    if (this.playing) this.timer = this.o.timers.set(() => this.beat(), BATCH_EVERY_MS);
  }

  private play(): void {
    const s = this.seat;
    const now = this.o.now();
    if (!s.game || now < s.startsAt) return;
    const batch = s.play(Math.floor(((now - s.startsAt) * TICKS_PER_SECOND) / 1000), (game) => this.bot.inputs(game));
    // Sent even when empty, as a browser does: each batch is numbered as it is cut (seq), so one
    // skipped would be a gap; an empty one tells the host how far the clock ran.
    if (batch) this.o.play(this, { t: 'inputs', stream: s.matchId, ...batch });
  }
}
