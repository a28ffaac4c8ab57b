// Plays real engine games and submits them through the real verification path.
import { encodeReplay, MODE_NAMES, simulateReplay, type Mode, type Replay } from '@/lib/engine';
import { toWireEvent, type ServerMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { GameHost } from '@/lib/server/live/solo/game-host';
import type { Owner } from '@/lib/server/games/owner';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { createUser } from '@/lib/server/users';
import { botGame, claimOf, type Played } from '@/tests/support/replays';

export const T0 = new Date('2026-11-18T12:00:00Z');
export const minutes = (n: number, from = T0) => new Date(from.getTime() + n * 60_000);

export async function player(name: string): Promise<Owner> {
  const created = await createUser({ username: name, password: 'password-123' });
  if (!created.ok) throw new Error('user exists');
  return { userId: created.user.id, guestId: null };
}

/**
 * Streams a played game through a real live game host (the server's engine, dealing and pacing)
 * on a clock that advances exactly with the game, a batch every 6 ticks, as a browser at real
 * pace would; the ticket then carries the streamed game's digest, so the submission ranks.
 */
export async function streamLive(options: {
  gameId: string; seed: string; owner: Owner; replay: Replay;
  /** What the host sends the player. */
  onMessage?: (message: ServerMessage) => void;
  /** Called just before the batch that ends the game. */
  beforeEnd?: () => void;
  /** Called just after it, before the end is recorded. */
  afterEnd?: (host: GameHost) => void;
  /** When the host stores the stream itself if no POST came (default: never). */
  finalizeAfterMs?: number | null;
}): Promise<GameHost> {
  let now = 0;
  const { replay } = options;
  const mode = MODE_NAMES.find((m) => m === replay.mode);
  if (!mode) throw new Error(`live games are solo games, not ${replay.mode}`);
  const host = new GameHost({
    gameId: options.gameId, seed: options.seed, mode, rulesVersion: replay.rulesVersion, handling: replay.handling, nextCount: replay.nextCount ?? 5,
    owner: options.owner, player: { name: null, guest: options.owner.userId === null }, bus: createLocalBus(), now: () => now,
    finalizeAfterMs: options.finalizeAfterMs ?? null, onClose: () => {},
  });
  host.attach({ send: options.onMessage ?? (() => {}) });
  const end = simulateReplay(replay).ticks;
  for (let tick = 0, seq = 1; tick < end; seq++) {
    const upTo = Math.min(end, tick + 6);
    const events = replay.events.filter((e) => e.tick >= tick && e.tick < upTo).map(toWireEvent);
    now = (upTo * 1000) / 60;
    if (upTo === end) options.beforeEnd?.();
    const fail = host.inputs(seq, upTo, events);
    if (fail) throw new Error(`live stream refused: ${fail.code} ${fail.message}`);
    tick = upTo;
  }
  options.afterEnd?.(host);
  await host.recorded;
  return host;
}

/** Issues a live ticket, plays it with `play` over a live game host, and submits after `after` minutes. */
export async function playAndSubmit(options: {
  owner: Owner;
  mode?: Mode;
  issuedAt?: Date;
  after?: number;
  play?: (mode: Mode, seed: string) => Played;
  /** false: an HTTP ticket, no stream (the game is then held as unpaced). */
  live?: boolean;
  tamper?: (submission: { replay: Replay; claimed: ReturnType<typeof claimOf> }) => void;
}) {
  const mode = options.mode ?? 'sprint';
  const issuedAt = options.issuedAt ?? T0;
  const live = options.live !== false;
  const ticket = await issueTicket({ mode, owner: options.owner, now: issuedAt, live });
  const played = (options.play ?? botGame)(mode, ticket.seed);
  // A live game's replay names its preview length (the browser's start message always does).
  if (live) played.replay.nextCount ??= 5;
  if (live) await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner: options.owner, replay: played.replay });
  const submission = { replay: played.replay, claimed: claimOf(played.result) };
  options.tamper?.(submission);
  const outcome = await submitReplay({
    gameId: ticket.gameId,
    owner: options.owner,
    submission: { replay: encodeReplay(submission.replay), claimed: submission.claimed },
    now: minutes(options.after ?? 5, issuedAt),
  });
  return { ticket, played, outcome };
}
