import 'server-only';
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import type { LiveErrorCode, LivePlayer, ServerMessage } from '@/lib/live/protocol';
import type { Owner } from '@/lib/server/games/owner';
import type { GameHost } from '@/lib/server/live/game-host';
import type { MatchHost } from '@/lib/server/live/match-host';

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
  send(message: ServerMessage): void;
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
  private windowStart = 0;
  private inWindow = 0;
  private readonly starts: number[] = [];

  constructor(
    readonly ws: WebSocket,
    readonly address: string,
    readonly owner: Owner,
    readonly player: LivePlayer,
  ) {}

  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  send(message: ServerMessage): void {
    if (this.open) this.ws.send(JSON.stringify(message));
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
