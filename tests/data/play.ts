// Plays real engine games and submits them through the real verification path.
import { encodeReplay, type Mode, type Replay } from '@/lib/engine';
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

/** Issues a ticket, plays it with `play`, and submits after `after` minutes. */
export async function playAndSubmit(options: {
  owner: Owner;
  mode?: Mode;
  issuedAt?: Date;
  after?: number;
  play?: (mode: Mode, seed: string) => Played;
  tamper?: (submission: { replay: Replay; claimed: ReturnType<typeof claimOf> }) => void;
}) {
  const mode = options.mode ?? 'sprint';
  const issuedAt = options.issuedAt ?? T0;
  const ticket = await issueTicket({ mode, owner: options.owner, now: issuedAt });
  const played = (options.play ?? botGame)(mode, ticket.seed);
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
