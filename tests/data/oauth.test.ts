import { beforeEach, describe, expect, it } from 'vitest';
import { encodeReplay } from '@/lib/engine';
import { getBoard } from '@/lib/server/games/boards';
import { claimGuestGames } from '@/lib/server/games/claim';
import type { Owner } from '@/lib/server/games/owner';
import { getReplay } from '@/lib/server/games/replays';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { findOrCreateOAuthUser, verifyCredentials } from '@/lib/server/users';
import { changePassword, reauthenticate, RECENT_SIGN_IN_MS } from '@/lib/server/account/password';
import { botGame, claimOf } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, T0 } from '@/tests/data/play';

// OAuth accounts. No provider can be reached from the test machine, so these take the two steps
// the sign-in callback (lib/server/auth.ts, `jwt`) takes for an OAuth sign-in — find or create the
// player, then claim what the browser's guest cookie played — directly on the data layer.

beforeEach(resetDb);

const github = (id: string, name: string) => findOrCreateOAuthUser({ provider: 'github', providerAccountId: id, suggestedName: name });

describe('an OAuth sign-in', () => {
  it('claims the guest’s finished games and the game still in play, which then counts for the account', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-cookie-id-oauth0' };
    const finished = await playAndSubmit({ owner: guest, issuedAt: T0 });
    expect(finished.outcome).toMatchObject({ ok: true, body: { guest: true } });
    // A second game is under way when the player signs in.
    const open = await issueTicket({ mode: 'sprint', owner: guest, now: minutes(6) });

    const account = await github('4242', 'octo');
    expect(await claimGuestGames({ userId: account.id, guestId: guest.guestId!, now: minutes(7) })).toBe(1);
    expect((await getReplay({ gameId: finished.ticket.gameId }))?.game.player?.username).toBe('octo');

    // The game in play is submitted as the account (its guest cookie may be gone by then).
    const played = botGame('sprint', open.seed);
    const outcome = await submitReplay({
      gameId: open.gameId,
      owner: { userId: account.id, guestId: null },
      submission: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) },
      now: minutes(12),
    });
    expect(outcome).toMatchObject({ ok: true, body: { guest: false } });
    const board = await getBoard({ mode: 'sprint', period: 'all', limit: 10 });
    expect(board.rows.map((r) => r.player.username)).toEqual(['octo']);
    expect([finished.ticket.gameId, open.gameId]).toContain(board.rows[0]!.gameId);
  });

  it('signing in again with the same identity claims nothing twice and keeps one player', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-cookie-id-oauth1' };
    await playAndSubmit({ owner: guest });
    const first = await github('7', 'again');
    expect(await claimGuestGames({ userId: first.id, guestId: guest.guestId!, now: minutes(10) })).toBe(1);
    const second = await github('7', 'again');
    expect(second).toEqual(first);
    expect(await claimGuestGames({ userId: second.id, guestId: guest.guestId!, now: minutes(11) })).toBe(0);
  });
});

describe('a password sign-in to an OAuth-only account', () => {
  it('is refused whatever password is tried: the account has none', async () => {
    const account = await github('99', 'oauthonly');
    for (const password of ['password-123', '', 'null', 'undefined', '$argon2id$v=19$m=19456,t=2,p=1$']) {
      expect(await verifyCredentials({ username: account.username, password }), password).toMatchObject({ ok: false });
    }
  });
});

describe('grave steps of an OAuth-only account', () => {
  const NOW = T0.getTime();

  it('need a sign-in with the provider within the last minutes, not just any session', async () => {
    const account = await github('314', 'noPassword');
    const proof = (signedInAt: number | null) => reauthenticate({ userId: account.id, password: '', signedInAt, now: NOW });
    expect(await proof(NOW - 60_000)).toEqual({ ok: true });
    expect(await proof(NOW - RECENT_SIGN_IN_MS)).toEqual({ ok: true });
    // A session signed in long ago (a stolen cookie, a shared computer), or one that does not say.
    for (const stale of [NOW - RECENT_SIGN_IN_MS - 1, NOW - 30 * 86_400_000, null, NOW + 60_000]) {
      expect(await proof(stale), String(stale)).toMatchObject({ ok: false, code: 'reauth_required', providers: ['github'], message: expect.stringContaining('sign in again with Github') });
    }
    // Setting a first password is such a step too: a stolen session could otherwise make one up.
    expect(await changePassword({ userId: account.id, current: '', next: 'a-fresh-secret-5', signedInAt: NOW - 3_600_000, now: NOW })).toMatchObject({ ok: false, code: 'reauth_required' });
    expect(await changePassword({ userId: account.id, current: '', next: 'a-fresh-secret-5', signedInAt: NOW - 60_000, now: NOW })).toMatchObject({ ok: true });
    // With a password, the password is the proof, however old the session.
    expect(await reauthenticate({ userId: account.id, password: 'a-fresh-secret-5', signedInAt: null, now: NOW })).toEqual({ ok: true });
    expect(await reauthenticate({ userId: account.id, password: 'wrong-secret', signedInAt: NOW, now: NOW })).toMatchObject({ ok: false, code: 'wrong_password' });
  });
});
