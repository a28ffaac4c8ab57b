import 'server-only';
import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import type { LiveErrorCode, ServerMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { Owner } from '@/lib/server/games/owner';
import { WindowBudget } from '@/lib/server/live/budgets';
import { STALL_MS } from '@/lib/server/live/pacing';
import type { GameHost } from '@/lib/server/live/solo/game-host';
import type { MatchHost } from '@/lib/server/live/match/match-host';
import { RoundTrip } from '@/lib/server/live/round-trip';
import { StreamBook } from '@/lib/server/live/streams';

/**
 * Whoever the versus lobby deals with: a socket on this instance, or one on another instance whose
 * versus messages are relayed here (versus-relay.ts). The lobby knows it by identity.
 */
export type VersusPeer = {
  readonly owner: Owner;
  readonly player: LivePlayer;
  readonly address: string;
  /** The browser's device id (its sign-in device cookie), or null: ranked pairing keeps one device's accounts apart. */
  readonly device: string | null;
  /** Still connected: a closed one is never put in a room again. */
  readonly open: boolean;
  /** The versus match this peer plays a seat of (lib/server/live/match/versus-lobby.ts). */
  match: { host: MatchHost; seat: 0 | 1 } | null;
  readonly watches: Map<string, () => void>;
  /** `waitMs`: the message may wait that long for company (Connection.send). */
  send(message: ServerMessage, waitMs?: number): void;
  error(code: LiveErrorCode, message: string, extra?: { gameId?: string; seq?: number }): void;
  /** Closes the socket (its instance's, for a relayed peer); the sparring bot has none. */
  close?(code: number, reason: string): void;
};

/** Whether the seat's owner is the peer's account (or, with no account on either side, its guest). */
export function sameOwner(a: { userId: string | null; guestId: string | null }, b: Pick<VersusPeer, 'owner'>): boolean {
  // A seat with neither (the sparring bot's) is nobody's: it is never taken up or acted on by a peer.
  return a.userId !== null ? a.userId === b.owner.userId : a.guestId !== null && b.owner.userId === null && a.guestId === b.owner.guestId;
}

/**
 * The session a signed-in player's socket was opened with: the socket plays as that player only
 * while it holds (the same session version and role, the account still there). A socket opened by
 * a banned player may watch, not play (identity.ts keeps these up to date).
 */
export type SocketSession = { version: number; role: string; banned: boolean };

/** After a socket is closed for not reading, how long it has to answer the close before it is cut. */
const SHED_WAIT_MS = 2_000;

/**
 * Texts of the messages one object of which goes to many sockets (a catch-up cached per tick, a
 * spectator's frame): serialized once, whoever sends them. Such messages are never changed once sent.
 */
const sharedTexts = new WeakMap<object, string>();
function textOf(message: ServerMessage): string {
  const t = message.t;
  if (t !== 'watching' && t !== 'vwatching' && t !== 'frame' && t !== 'vframe' && t !== 'rframes') return JSON.stringify(message);
  let text = sharedTexts.get(message);
  if (text === undefined) sharedTexts.set(message, (text = JSON.stringify(message)));
  return text;
}

/** A stall widens the message budget (Connection.spend) by at most this long's worth: past the lease (`CLUSTER.leaseMs`), live games here are lost anyway. */
const STALL_GRACE_AT_MOST_MS = 5_000;

/** What the per-second budget says of one more message (Connection.spend). */
export type Spent = 'ok' | 'notice' | 'drop' | 'close';

/**
 * Whether a socket may watch one more game or match (the socket is told if not): its watches here
 * and those of matches on other instances (`elsewhere`, versus-relay.ts) share one budget, or one
 * socket could watch the budget on every instance.
 */
export function mayWatchMore(conn: Pick<Connection, 'watches' | 'error'>, elsewhere: number, gameId: string): boolean {
  if (conn.watches.size + elsewhere < LIVE_LIMITS.watchesPerConnection) return true;
  conn.error('rate_limited', `At most ${LIVE_LIMITS.watchesPerConnection} games watched at once.`, { gameId });
  return false;
}

/** One open socket: who it is, what it plays and watches, and its budgets. */
export class Connection implements VersusPeer {
  /** How another instance names this socket when it answers a relayed versus message. */
  readonly id = randomBytes(8).toString('hex');
  host: GameHost | null = null;
  match: { host: MatchHost; seat: 0 | 1 } | null = null;
  /** The instance this socket's versus messages were last relayed to (versus-relay.ts). */
  relayedTo: string | null = null;
  readonly watches = new Map<string, () => void>();
  /** The match and room seats this socket was told it plays: its batches are looked up here (streams.ts). */
  readonly streams = new StreamBook();
  alive = true;
  /** Measured with pings of its own while a game is played here (the hub feeds it the pongs). */
  readonly roundTrip = new RoundTrip((payload) => {
    if (this.open) this.ws.ping(payload);
  });
  /** Null for a guest. */
  session: SocketSession | null = null;
  /** Catch-ups asked for (watch, unwatch, their versus kin, resumes) and versus lobby messages. */
  readonly catchUps = new WindowBudget(LIVE_LIMITS.catchUpsPerMinute, 60_000);
  readonly lobby = new WindowBudget(LIVE_LIMITS.lobbyMessagesPerMinute, 60_000);
  /** Messages not yet written, in order, each already JSON. */
  private outbox: string[] = [];
  private flushDue: 'now' | NodeJS.Timeout | null = null;
  private windowStart = 0;
  private inWindow = 0;
  /** Messages this window may take past the budget, for our stalls (spend). */
  private grace = 0;
  private noticed = false;
  /** The process's stalls as of the last message read (stalls.ts), and when it was read; null before the first. */
  private stallsSeen: number | null = null;
  private lastReadAt = 0;
  private readonly starts: number[] = [];

  /** `bundles`: the client takes several messages in one frame, as a JSON array (LIVE_BUNDLES_PARAM). */
  constructor(
    readonly ws: WebSocket,
    readonly address: string,
    readonly owner: Owner,
    readonly player: LivePlayer,
    private readonly bundles = false,
    readonly device: string | null = null,
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
    this.streams.heard(message);
    this.outbox.push(textOf(message));
    if (this.flushDue === 'now') return;
    if (waitMs === undefined) {
      if (this.flushDue) clearTimeout(this.flushDue);
      this.flushDue = 'now';
      queueMicrotask(this.flush);
    } else if (!this.flushDue) this.flushDue = setTimeout(this.flush, waitMs).unref();
  }

  /**
   * Writes what is queued: one frame (a JSON array of several when the client takes bundles).
   * Not to a socket still holding LIVE_LIMITS.maxBufferedBytes unsent: that one is shed.
   */
  flush = (): void => {
    if (this.flushDue !== null && this.flushDue !== 'now') clearTimeout(this.flushDue);
    this.flushDue = null;
    const out = this.outbox;
    if (out.length === 0) return;
    this.outbox = [];
    if (!this.open) return;
    if (out.length === 1 || this.bundles) this.write(out.length === 1 ? out[0]! : `[${out.join(',')}]`);
    else for (const text of out) this.write(text);
  };

  private write(text: string): void {
    if (!this.open) return;
    if (this.ws.bufferedAmount > LIVE_LIMITS.maxBufferedBytes) return this.shed();
    this.ws.send(text);
  }

  /**
   * The client takes what it is sent more slowly than it is sent (or not at all): closed with
   * 1013 (try again later; the browser dials again and catches up) rather than buffered further,
   * and cut if it does not answer the close. What it already holds stays bounded.
   */
  private shed(): void {
    this.outbox = [];
    this.ws.close(1013, 'Not reading fast enough.');
    setTimeout(() => this.ws.terminate(), SHED_WAIT_MS).unref();
  }

  /** Closes the socket after what is queued for it. */
  close(code: number, reason: string): void {
    this.flush();
    this.ws.close(code, reason);
  }

  error(code: LiveErrorCode, message: string, extra: { gameId?: string; seq?: number } = {}): void {
    this.send({ t: 'error', code, message, ...extra });
  }

  /**
   * One more message this second: 'ok' within LIVE_LIMITS.messagesPerSecond; past it the first is
   * answered rate_limited ('notice', which the browser's resend waits for) and the rest nothing
   * ('drop'); at LIVE_LIMITS.closeAtMessagesPerSecond the connection is closed ('close').
   * `stalls`: this process's stalls so far (stalls.ts). What a browser sent while we stood still is
   * read at once after it, so a stall since the last message widens this window by what an honest
   * browser sends in that time (LIVE_LIMITS.stallGracePerSecond): its batches that waited behind our
   * stall are no flood of its own. Only for a socket that spoke just before the stall: a quiet one
   * banks nothing.
   */
  spend(now: number, stalls = 0): Spent {
    const stalled = this.stallsSeen === null ? 0 : stalls - this.stallsSeen;
    const credited = stalled > 0 && now - this.lastReadAt <= stalled + STALL_MS ? Math.min(stalled, STALL_GRACE_AT_MOST_MS) : 0;
    this.stallsSeen = stalls;
    this.lastReadAt = now;
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.inWindow = 0;
      this.grace = 0;
      this.noticed = false;
    }
    this.grace += Math.ceil((credited * LIVE_LIMITS.stallGracePerSecond) / 1000);
    const n = ++this.inWindow - this.grace;
    if (n <= LIVE_LIMITS.messagesPerSecond) return 'ok';
    if (n >= LIVE_LIMITS.closeAtMessagesPerSecond) return 'close';
    if (this.noticed) return 'drop';
    this.noticed = true;
    return 'notice';
  }

  /** False when this connection started too many games in the last minute. */
  mayStart(now: number): boolean {
    while (this.starts.length > 0 && now - this.starts[0]! > 60_000) this.starts.shift();
    if (this.starts.length >= LIVE_LIMITS.startsPerMinute) return false;
    this.starts.push(now);
    return true;
  }
}
