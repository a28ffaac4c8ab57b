/**
 * A versus player over a real socket: a LiveClient whose messages feed a VersusSeat, sending a
 * batch every 100 ms at real pace (as the browser does) until the match is over. For the API test
 * and the versus bench.
 *
 *   const p = await VersusPlayer.connect(baseURL, { seed: 'a', mistakes: 0.3 }, { cookie });
 *   p.client.send({ t: 'queue', mode: 'battle', ranked: true, handling, nextCount: 5 });
 *   const over = await p.play();        // resolves with `vover`
 */
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import { BatchClock } from '@/tests/support/batch-clock';
import { LiveClient } from '@/tests/support/live-client';
import type { VersusBotOptions } from '@/tests/support/versus-bot';
import { VersusSeat } from '@/tests/support/versus-seat';

export const HANDLING = DEFAULT_HANDLING;
export type Vover = Extract<ServerMessage, { t: 'vover' }>;

export class VersusPlayer {
  seat: VersusSeat;
  /** Extra fields merged into every batch (a forged attack claim, say). */
  extra: Record<string, unknown> = {};
  /** Called with every garbage message and when it arrived (ms): the bench measures delivery. */
  onGarbage: ((m: Extract<ServerMessage, { t: 'garbage' }>, at: number) => void) | null = null;
  /** Called with each batch acknowledged, when it was sent and when acknowledged (ms): the cluster bench times delivery. */
  onAck: ((sentAt: number, ackedAt: number) => void) | null = null;
  /** The batches of the current game: when each was sent and acknowledged (ms). */
  batches: Array<{ game: number; seq: number; sentAt: number; ackedAt: number | null }> = [];
  private timer: NodeJS.Timeout | null = null;
  /** Numbers each play(): only the newest one sends and stops. */
  private plays = 0;
  private paused = false;

  private constructor(
    public client: LiveClient,
    private readonly bot: VersusBotOptions,
    private readonly record: boolean,
  ) {
    this.seat = new VersusSeat(bot, undefined, record);
    this.listen();
  }

  /** `record: false`: the seat keeps no message log (the bench's bots play for minutes). */
  static async connect(baseURL: string, bot: VersusBotOptions, options: { cookie?: string; address?: string; record?: boolean } = {}): Promise<VersusPlayer> {
    return new VersusPlayer(await LiveClient.connect(baseURL, options), bot, options.record ?? true);
  }

  /** `name=value` of the guest cookie the server minted on the 101 (to come back as the same guest). */
  guestCookie(): string {
    return this.client.setCookies.map((c) => c.split(';')[0]).join('; ');
  }

  /** A new match: a fresh seat (the bot's options stay). */
  reset(): void {
    this.seat = new VersusSeat(this.bot, undefined, this.record);
  }

  /** Plays until `vover` (a batch every 100 ms, at `phaseMs` in it: BatchClock); rejects after `timeoutMs`. */
  play(timeoutMs = 120_000, phaseMs?: number): Promise<Vover> {
    this.stop();
    const clock = new BatchClock(phaseMs);
    // An earlier play still waiting for its vover (a reconnect test's) must not stop this one's timer.
    const run = ++this.plays;
    const wake = () => {
      try {
        this.step();
      } finally {
        if (this.plays === run && this.timer) this.timer = setTimeout(wake, clock.next());
      }
    };
    this.timer = setTimeout(wake, clock.next());
    return this.client.next('vover', () => true, timeoutMs).finally(() => {
      if (this.plays === run) this.stop();
    });
  }

  /** Stops sending (a dropped network, as the server sees it, once the socket is closed too). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The socket dropped: a new one (same cookies) takes the seat up again with the resume token. */
  async reconnect(baseURL: string, cookie: string, address?: string): Promise<Extract<ServerMessage, { t: 'vresumed' }>> {
    this.paused = true;
    this.client.ws.terminate();
    this.client = await LiveClient.connect(baseURL, { cookie, ...(address ? { address } : {}) });
    this.listen();
    this.client.send({ t: 'resume', of: { kind: 'match', id: this.seat.matchId }, token: this.seat.resumeToken });
    const resumed = await this.client.next('vresumed');
    this.paused = false;
    return resumed;
  }

  close(): void {
    this.stop();
    this.client.close();
  }

  private listen(): void {
    const client = this.client;
    client.onMessage = (m) => {
      if (client !== this.client) return;
      const at = performance.now();
      if (m.t === 'garbage') this.onGarbage?.(m, at);
      if (m.t === 'ack' && m.stream === this.seat.matchId) {
        const b = this.batches.find((x) => x.game === m.game && x.seq === m.seq);
        if (b && b.ackedAt === null) {
          b.ackedAt = at;
          this.onAck?.(b.sentAt, at);
        }
      }
      if (m.t === 'vstart') this.batches = [];
      this.seat.receive(m);
      // The seat took it; no test waits for these in a match of its own (a spectator's frames stay).
      if (m.t === 'ack' || m.t === 'deal') return m.stream === this.seat.matchId;
      return (m.t === 'garbage' || m.t === 'vframe') && m.matchId === this.seat.matchId;
    };
  }

  private step(): void {
    if (this.paused || this.seat.over) return;
    const s = this.seat;
    if (!s.game || performance.now() < s.startsAt) return;
    const upTo = Math.floor(((performance.now() - s.startsAt) * 60) / 1000);
    const batch = s.play(upTo);
    if (!batch) return;
    this.client.send({ t: 'inputs', stream: s.matchId, ...batch, ...this.extra });
    this.batches.push({ game: batch.game, seq: batch.seq, sentAt: performance.now(), ackedAt: null });
    if (this.batches.length > 64) this.batches.splice(0, this.batches.length - 64);
  }
}
