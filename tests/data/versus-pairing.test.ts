import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { cleanupExpired } from '@/lib/server/games/cleanup';
import { CONSOLE } from '@/lib/server/moderation/audit';
import { banPlayer } from '@/lib/server/moderation/bans';
import { RANKED_RULES, rankedEligibility, rankedEntry } from '@/lib/server/versus/pairing';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf } from '@/lib/server/versus/verify';
import { resetDb } from '@/tests/data/db';
import { playAndSubmit, player } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const HOUR = 3_600_000;
const later = (ms: number) => new Date(Date.now() + ms);

beforeEach(resetDb);

describe('ranked eligibility', () => {
  it('a new account needs a day, or three finished solo games on the boards; the refusal says which', async () => {
    expect(RANKED_RULES).toMatchObject({ minAccountAgeMs: 24 * HOUR, minFinishedSoloGames: 3 });
    const fresh = await player('fresh');
    const refused = await rankedEligibility({ userId: fresh.userId! });
    expect(refused).toEqual({ ok: false, code: 'not_eligible', message: expect.stringMatching(/after 3 finished solo games \(you have 0\) or in 24 hours/) });
    expect(await rankedEligibility({ userId: fresh.userId!, now: later(24 * HOUR + 60_000) })).toEqual({ ok: true });

    // Games that are not on the boards (played without the live channel) do not count.
    for (let i = 0; i < 3; i++) await playAndSubmit({ owner: fresh, live: false, issuedAt: new Date(), after: 5 });
    expect(await rankedEligibility({ userId: fresh.userId! })).toMatchObject({ ok: false, message: expect.stringContaining('(you have 0)') });
    const player2 = await player('grinder');
    for (let i = 0; i < 3; i++) {
      const { outcome } = await playAndSubmit({ owner: player2, issuedAt: new Date(Date.now() + i * 600_000), after: 5 });
      // Each stored on the boards (a failure here says why it was not, rather than a count short by one).
      expect(outcome).toMatchObject({ ok: true, status: 201 });
    }
    expect(await rankedEligibility({ userId: player2.userId! })).toEqual({ ok: true });
    expect(await rankedEntry({ userId: fresh.userId!, address: '10.1.1.1' })).toMatchObject({ ok: false, code: 'not_eligible' });
    // A ban closes ranked whatever the account's age.
    await banPlayer({ username: 'grinder', reason: 'win trading', actor: CONSOLE });
    expect(await rankedEligibility({ userId: player2.userId!, now: later(48 * HOUR) })).toEqual({ ok: false, code: 'not_eligible', message: expect.stringContaining('banned this account from ranked play: win trading') });
  });
});

describe('ranked pairing limits', () => {
  const inADay = later(25 * HOUR);

  it('keeps apart accounts seen on one address or device within the window; stores no address', async () => {
    const [ann, ben, cat] = [await player('ann'), await player('ben'), await player('cat')];
    const entry = (who: typeof ann, address: string, device: string | null, now = inADay) => rankedEntry({ userId: who.userId!, address, device, now });
    expect(await entry(ann, '10.5.5.5', 'dev-a')).toEqual({ ok: true, avoid: [] });
    expect(await entry(ben, '10.5.5.5', 'dev-b')).toEqual({ ok: true, avoid: [ann.userId] });
    // Ben moves to another address later that day: still kept apart from Ann (and she from him).
    expect(await entry(ben, '10.6.6.6', 'dev-b', new Date(inADay.getTime() + HOUR))).toEqual({ ok: true, avoid: [ann.userId] });
    expect(await entry(ann, '10.7.7.7', 'dev-a', new Date(inADay.getTime() + 2 * HOUR))).toEqual({ ok: true, avoid: [ben.userId] });
    // The same browser (device) on another network.
    expect(await entry(cat, '10.8.8.8', 'dev-a', new Date(inADay.getTime() + 3 * HOUR))).toEqual({ ok: true, avoid: [ann.userId] });
    // A day later the sightings no longer count, and cleanup deletes them.
    expect(await entry(cat, '10.5.5.5', 'dev-a', new Date(inADay.getTime() + 30 * HOUR))).toEqual({ ok: true, avoid: [] });
    const db = await getDb();
    const keys = (await db.versusSighting.findMany({ select: { key: true } })).map((s) => s.key);
    expect(keys.join(' ')).not.toMatch(/10\.5|dev-a/);
    await cleanupExpired({ now: new Date(inADay.getTime() + 30 * HOUR) });
    expect(await db.versusSighting.count()).toBe(2); // Cat's address and device, just now
  });

  it('the same two accounts meet in ranked at most three times a day', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    const set = (seed: string) => {
      const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
      playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
      return recordOf(match, seed, 'battle');
    };
    const at = (h: number) => new Date(inADay.getTime() + h * HOUR);
    for (const [i, h] of [[1, -30], [2, 1], [3, 2]] as const) {
      await storeMatch({ matchId: `m${i}`, record: set(`pair-${i}`), seats: [ann, ben], ranked: true, now: at(h) });
    }
    // One of the three was more than a day ago: two today.
    expect(await rankedEntry({ userId: ann.userId!, address: '10.1.0.1', now: at(3) })).toEqual({ ok: true, avoid: [] });
    await storeMatch({ matchId: 'm4', record: set('pair-4'), seats: [ben, ann], ranked: true, now: at(3) });
    expect(await rankedEntry({ userId: ann.userId!, address: '10.1.0.1', now: at(4) })).toEqual({ ok: true, avoid: [ben.userId] });
    expect(await rankedEntry({ userId: ben.userId!, address: '10.2.0.1', now: at(4) })).toEqual({ ok: true, avoid: [ann.userId] });
    // A day after the first two, only the last counts: they may meet again.
    expect(await rankedEntry({ userId: ann.userId!, address: '10.1.0.1', now: at(26) })).toEqual({ ok: true, avoid: [] });
  });
});
