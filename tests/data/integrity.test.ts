import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { claimGuestGames } from '@/lib/server/games/claim';
import { integritySettled, judgePlayer } from '@/lib/server/integrity/record';
import { listOpenFlags } from '@/lib/server/integrity/flags';
import { listActions } from '@/lib/server/moderation/audit';
import { decide } from '@/lib/server/moderation/decide';
import { storeMatch } from '@/lib/server/versus/store';
import { moderationActionSchema } from '@/lib/validations/moderation';
import { recordOf } from '@/lib/server/versus/verify';
import type { Owner } from '@/lib/server/games/owner';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { FAST_HUMAN } from '@/tests/support/human';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

/** A battle set: seat 0 types 1-tick taps back to back (a bot), seat 1 with fast human timing. */
function botVersusHuman(seed: string) {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/bot`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/human`, mistakes: 0.2, human: FAST_HUMAN })]);
  return recordOf(match, seed, 'battle');
}
const records = ['int-1', 'int-2', 'int-3'].map(botVersusHuman);

async function store(i: number, seats: [Owner, Owner], now = minutes(i)) {
  const out = await storeMatch({ matchId: `m${i}`, record: records[i % records.length]!, seats, ranked: false, now });
  expect(out).toMatchObject({ ok: true });
  await integritySettled();
}

const decideFlag = (actor: { id: string; name: string }, action: 'dismiss_flag' | 'confirm_flag', flagId: string, reason: string) =>
  decide({ actor, input: moderationActionSchema.parse({ action, flagId, reason }) });

beforeEach(resetDb);

describe('feature rows after a store', () => {
  it('a stored solo game gets one row, written after the store', async () => {
    const alice = await player('alice');
    const { ticket, outcome } = await playAndSubmit({ owner: alice });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    await integritySettled();
    const db = await getDb();
    const rows = await db.gameFeatures.findMany();
    expect(rows).toEqual([expect.objectContaining({ userId: alice.userId, mode: 'sprint', gameId: ticket.gameId, matchId: null, playedAt: minutes(5) })]);
    expect(rows[0]!.pieces).toBeGreaterThan(90);
    expect(rows[0]!.reactionTicks).toBeGreaterThan(0);
  });

  it('a guest game claimed by an account is measured then: games played as a guest do not skip the judge', async () => {
    const guest: Owner = { userId: null, guestId: 'guest-cookie-claimed' };
    const { ticket } = await playAndSubmit({ owner: guest });
    await integritySettled();
    const db = await getDb();
    expect(await db.gameFeatures.count()).toBe(0);
    const alice = await player('alice');
    expect(await claimGuestGames({ userId: alice.userId!, guestId: guest.guestId!, now: minutes(7) })).toBe(1);
    await integritySettled();
    expect(await db.gameFeatures.findMany()).toEqual([expect.objectContaining({ userId: alice.userId, gameId: ticket.gameId, mode: 'sprint' })]);
  });

  it('a stored versus match gets a row per game and signed-in seat; a guest seat none', async () => {
    const alice = await player('alice');
    await store(0, [alice, { userId: null, guestId: 'guest-1' }]);
    const db = await getDb();
    const rows = await db.gameFeatures.findMany({ orderBy: { gameIndex: 'asc' } });
    expect(rows.map((r) => [r.userId, r.matchId, r.gameIndex, r.seat])).toEqual(records[0]!.games.map((_, i) => [alice.userId, 'm0', i, 0]));
    // Stored again (a retried store): nothing twice.
    await store(0, [alice, { userId: null, guestId: 'guest-1' }]);
    expect(await db.gameFeatures.count()).toBe(rows.length);
  });
});

describe('flags across games', () => {
  it('a run of superhuman games raises one open flag per reason; a moderator dismisses it, audited; nobody else can', async () => {
    const [bot, human, mod, someone] = [await player('botty'), await player('humane'), await player('moddy'), await player('someone')];
    const db = await getDb();
    await db.user.update({ where: { id: mod.userId! }, data: { role: 'moderator' } });
    for (let i = 0; i < 3; i++) await store(i, [bot, human]);
    const flags = await listOpenFlags({ limit: 10 });
    expect(flags.every((f) => f.player === 'botty' && f.mode === 'battle')).toBe(true);
    const reasons = flags.map((f) => f.reason).sort();
    expect(reasons).toContain('steady_taps');
    // More games add no second flag for the same player, mode and reason.
    await store(3, [bot, human]);
    expect((await listOpenFlags({ limit: 10 })).map((f) => f.reason).sort()).toEqual(reasons);

    const taps = flags.find((f) => f.reason === 'steady_taps')!;
    expect(taps.evidence?.recent.tapShare).toBe(1);
    expect(taps.evidence?.out[0]).toMatchObject({ kind: 'versus', seat: 0 });

    const actor = (o: Owner, name: string) => ({ id: o.userId!, name });
    expect(await decideFlag(actor(someone, 'someone'), 'dismiss_flag', taps.id, 'looks fine')).toMatchObject({ ok: false, status: 403, code: 'forbidden' });
    expect(await decideFlag(actor(bot, 'botty'), 'dismiss_flag', taps.id, 'mine')).toMatchObject({ ok: false, status: 403 });
    expect(await decideFlag(actor(mod, 'moddy'), 'dismiss_flag', taps.id, 'a rhythm game player')).toEqual({ ok: true, action: 'dismiss_flag' });
    expect(await decideFlag(actor(mod, 'moddy'), 'confirm_flag', taps.id, 'second thoughts')).toMatchObject({ ok: false, status: 409, code: 'flag_decided' });
    expect((await listActions({ limit: 10 })).map((a) => [a.moderatorName, a.action, a.targetName, a.reason])).toEqual([
      ['moddy', 'dismiss_flag', 'botty', `steady_taps in battle (flag ${taps.id}): a rhythm game player`],
    ]);
    expect((await listOpenFlags({ limit: 10 })).map((f) => f.reason)).not.toContain('steady_taps');

    // The games it was dismissed over do not raise it again; new games played after the decision do.
    await judgePlayer({ userId: bot.userId!, mode: 'battle' });
    expect((await listOpenFlags({ limit: 10 })).map((f) => f.reason)).not.toContain('steady_taps');
    for (const i of [4, 5]) await store(i, [bot, human], new Date(Date.now() + i * 60_000));
    expect((await listOpenFlags({ limit: 10 })).map((f) => f.reason)).toContain('steady_taps');
  });

  it('a moderator cannot decide on a flag about themselves', async () => {
    const [mod, human] = [await player('moddy'), await player('humane')];
    const db = await getDb();
    await db.user.update({ where: { id: mod.userId! }, data: { role: 'moderator' } });
    for (let i = 0; i < 3; i++) await store(i, [mod, human]);
    const [flag] = await listOpenFlags({ limit: 10 });
    expect(await decideFlag({ id: mod.userId!, name: 'moddy' }, 'confirm_flag', flag!.id, 'me')).toMatchObject({ ok: false, status: 403, code: 'own_flag' });
  });
});
