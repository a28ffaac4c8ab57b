import 'server-only';
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import type { LiveErrorCode, LivePlayer, ServerMessage } from '@/lib/live/protocol';
import type { Owner } from '@/lib/server/games/owner';
import type { GameHost } from '@/lib/server/live/game-host';
import type { MatchHost } from '@/lib/server/live/match-host';
import { RoundTrip } from '@/lib/server/live/round-trip';

/**
 * Whoever the versus lobby deals with: a socket on this instance, or one on another instance whose
 * versus messages are relayed here (versus-relay.ts). The lobby knows it by identity.
 */
export type VersusPeer = {
  readonly owner: Owner;
  readonly player: LivePlayer;
  readonly address: string;
  /** Still connected: a closed one is never put in a room again. */
  readonly open: boolean;
  /** The versus match this peer plays a seat of (lib/server/live/versus-lobby.ts). */
  match: { host: MatchHost; seat: 0 | 1 } | null;
  readonly watches: Map<string, () => void>;
  /** `waitMs`: the message may wait that long for company (Connection.send). */
  send(message: ServerMessage, waitMs?: number): void;
  error(code: LiveErrorCode, message: string, extra?: { gameId?: string; seq?: number }): void;
};

/** One open socket: who it is, what it plays and watches, and its message budget. */
export class Connection implements VersusPeer {
  /** How another instance names this socket when it answers a relayed versus message. */
  readonly id = randomBytes(8).toString('hex');
  host: GameHost | null = null;
  match: { host: MatchHost; seat: 0 | 1 } | null = null;
  /** The instance this socket's versus messages were last relayed to (versus-relay.ts). */
  relayedTo: string | null = null;
  readonly watches = new Map<string, () => void>();
  alive = true;
  /** Measured with pings of its own while a game is played here (the hub feeds it the pongs). */
  readonly roundTrip = new RoundTrip((payload) => {
    if (this.open) this.ws.ping(payload);
  });
  /** Messages not yet written, in order, each already JSON. */
  private outbox: string[] = [];
  private flushDue: 'now' | NodeJS.Timeout | null = null;
  private windowStart = 0;
  private inWindow = 0;
  private readonly starts: number[] = [];

  /** `bundles`: the client takes several messages in one frame, as a JSON array (LIVE_BUNDLES_PARAM). */
  constructor(
    readonly ws: WebSocket,
    readonly address: string,
    readonly owner: Owner,
    readonly player: LivePlayer,
    private readonly bundles = false,
  ) {}

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  /**
   * Queues a message, written once the handling that made it is done (a microtask): everything one
   * incoming message causes for this socket (an ack, a deal, the opponent's frames waiting) leaves
   * in one frame, one write. Each write costs a system call, and the send path was the largest
   * part of the server's time with versus bots (docs/decisions/0017-versus-live.md). With `waitMs`
   * the message may instead wait that long for the next one (an opponent's field: it then rides
   * on this player's next ack, ~100 ms away).
   */
  send(message: ServerMessage, waitMs?: number): void {
    if (!this.open) return;
    this.outbox.push(JSON.stringify(message));
    if (this.flushDue === 'now') return;
    if (waitMs === undefined) {
      if (this.flushDue) clearTimeout(this.flushDue);
      this.flushDue = 'now';
      queueMicrotask(this.flush);
    } else if (!this.flushDue) this.flushDue = setTimeout(this.flush, waitMs).unref();
  }

  /** Writes what is queued: one frame (a JSON array of several when the client takes bundles). */
  flush = (): void => {
    if (this.flushDue !== null && this.flushDue !== 'now') clearTimeout(this.flushDue);
    this.flushDue = null;
    const out = this.outbox;
    if (out.length === 0) return;
    this.outbox = [];
    if (!this.open) return;
    if (out.length === 1) this.ws.send(out[0]!);
    else if (this.bundles) this.ws.send(`[${out.join(',')}]`);
    else for (const text of out) this.ws.send(text);
  };

  /** Closes the socket after what is queued for it. */
  close(code: number, reason: string): void {
    this.flush();
    this.ws.close(code, reason);
  }

  error(code: LiveErrorCode, message: string, extra: { gameId?: string; seq?: number } = {}): void {
    this.send({ t: 'error', code, message, ...extra });
  }

  /** False when this message is over the per-second budget (it is then dropped with an error). */
  spend(now: number): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
    }
    return ++this.inWindow <= LIVE_LIMITS.messagesPerSecond;
  }

  /** False when this connection started too many games in the last minute. */
  mayStart(now: number): boolean {
    while (this.starts.length > 0 && now - this.starts[0]! > 60_000) this.starts.shift();
    if (this.starts.length >= LIVE_LIMITS.startsPerMinute) return false;
    this.starts.push(now);
    return true;
  }
}
