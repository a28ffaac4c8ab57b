import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { RedisMatchCheckpoints } from '@/lib/server/live/cluster/match-checkpoints';
import { KEYS } from '@/lib/server/live/cluster/cluster';
import { connectRedis, type RedisLink } from '@/lib/server/live/cluster/redis';
import { MatchHost } from '@/lib/server/live/match/match-host';
import type { MatchCheckpoint } from '@/lib/server/live/match/match-checkpoint';
import { fakeTimers } from '@/tests/support/fake-timers';
import { VersusSeat } from '@/tests/support/versus-seat';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// Match checkpoints on a real Redis (docs/decisions/0018): written as the match goes, a head and
// what each write added, read back whole by another instance.
const closers: Array<() => void> = [];
afterAll(() => closers.forEach((close) => close()));

const info = (g: string) => ({ owner: { userId: null, guestId: g }, player: { name: null, guest: true }, handling: DEFAULT_HANDLING, nextCount: 5 });
const strip = (cp: MatchCheckpoint | null) => (cp ? { ...cp, writtenAt: 0 } : null);
/** `link`'s instance holds the match's lease (as MatchLeases.claim or take leave it). */
const hold = (link: RedisLink, matchId: string) => link.cmd.set(KEYS.matchHost(matchId), link.instance, 'PX', 60_000);

/** A match on a fake clock between two bots; `play(ms)` moves it on, each seat sending every 100 ms. */
function matchOn(checkpoints: RedisMatchCheckpoints, matchId: string) {
  const { clock, timers, fire } = fakeTimers();
  const now = () => clock.t;
  const seats = [new VersusSeat({ seed: 'a', mistakes: 0.15 }, now), new VersusSeat({ seed: 'b', mistakes: 0.3 }, now)] as const;
  const host = new MatchHost({
    bus: createLocalBus(), now, timers, checkpoints, onClose: () => {}, matchId, seed: 'redis-checkpoint-seed', mode: 'battle', firstTo: 2, ranked: false,
    seats: [info('a'), info('b')], store: async () => ({ ok: true, matchId, repeated: false, ratings: null, noContest: false }),
  });
  host.begin([{ send: (m) => seats[0].receive(m) }, { send: (m) => seats[1].receive(m) }]);
  const play = (ms: number) => {
    for (const end = clock.t + ms; clock.t < end && !host.ended; ) {
      clock.t += 100;
      fire();
      for (const s of [0, 1] as const) {
        const upTo = Math.floor(((clock.t - seats[s].startsAt) * 60) / 1000);
        const batch = upTo > 0 && !host.ended ? seats[s].play(upTo) : null;
        if (batch) host.inputs(s, batch);
      }
    }
  };
  return { host, play, now, timers };
}

describe.skipIf(!redisUp)('match checkpoints on Redis', () => {
  it('reads back, on another connection, exactly the match its host would write whole, at every point of a set', async () => {
    const [writer, reader] = [connectRedis(url.toString()), connectRedis(url.toString())];
    closers.push(writer.close, reader.close);
    const [saving, reading] = [new RedisMatchCheckpoints(writer), new RedisMatchCheckpoints(reader)];
    const { clock, timers, fire } = fakeTimers();
    const now = () => clock.t;
    const seats = [new VersusSeat({ seed: 'a', mistakes: 0.15 }, now), new VersusSeat({ seed: 'b', mistakes: 0.3 }, now)] as const;
    const matchId = `ckpt${Date.now().toString(36)}`;
    await hold(writer, matchId);
    const host = new MatchHost({
      bus: createLocalBus(), now, timers, checkpoints: saving, onClose: () => {}, matchId, seed: 'redis-checkpoint-seed', mode: 'battle', firstTo: 2, ranked: false,
      seats: [info('a'), info('b')], store: async () => ({ ok: true, matchId, repeated: false, ratings: null, noContest: false }),
    });
    host.begin([{ send: (m) => seats[0].receive(m) }, { send: (m) => seats[1].receive(m) }]);
    let compared = 0;
    for (let step = 0; !host.ended && step < 6_000; step++) {
      clock.t += 100;
      fire();
      // Seat 1 sends every other step: seat 0's batches in between are one feed that grows (a write may catch it half-grown).
      for (const s of step % 2 === 0 ? ([0, 1] as const) : ([0] as const)) {
        const upTo = Math.floor(((clock.t - seats[s].startsAt) * 60) / 1000);
        const batch = upTo > 0 && !host.ended ? seats[s].play(upTo) : null;
        if (batch) host.inputs(s, batch);
      }
      if (step % 13 === 0 && !host.ended) {
        // What the host holds now is written now (a checkpoint between two timed writes is written here by hand).
        const whole = host.checkpoint();
        saving.save(whole);
        await writer.cmd.ping(); // written (one connection keeps its order), then read on another
        expect(strip((await reading.read(matchId))!)).toEqual(strip(whole));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10);
    await host.finished;
    await expect.poll(() => reading.read(matchId)).toBeNull(); // stored: dropped
  });

  it('an instance taking back a match it once hosted writes it afresh, not after what it wrote before', async () => {
    const [linkA, linkB, reader] = [connectRedis(url.toString()), connectRedis(url.toString()), connectRedis(url.toString())];
    closers.push(linkA.close, linkB.close, reader.close);
    const [a, b, reading] = [new RedisMatchCheckpoints(linkA), new RedisMatchCheckpoints(linkB), new RedisMatchCheckpoints(reader)];
    const matchId = `back${Date.now().toString(36)}`;
    await hold(linkA, matchId);
    const m = matchOn(a, matchId);
    m.play(5_000);
    const early = m.host.checkpoint();
    m.play(2_000);
    const later = m.host.checkpoint();
    // A goes on writing past both (a stall: B took the match up from the earlier checkpoint meanwhile), then loses it.
    m.play(3_000);
    expect(m.host.ended).toBe(false);
    m.host.close();
    await hold(linkB, matchId);
    b.save(early);
    await linkB.cmd.ping();
    expect(strip(await reading.read(matchId))).toEqual(strip(early));
    // B hands it back: A takes it up from B's checkpoint, plays on and writes.
    await hold(linkA, matchId);
    const back = MatchHost.restore((await reading.read(matchId))!, { bus: createLocalBus(), now: m.now, timers: m.timers, checkpoints: a, onClose: () => {} });
    expect(back.gameIndex).toBe(later.games.length - 1);
    a.save(later);
    await linkA.cmd.ping();
    expect(strip(await reading.read(matchId))).toEqual(strip(later));
  });

  it('only the holder of the match’s lease appends to its checkpoint: an instance that lost it writes nothing and hears so', async () => {
    const [linkA, linkB, reader] = [connectRedis(url.toString()), connectRedis(url.toString()), connectRedis(url.toString())];
    closers.push(linkA.close, linkB.close, reader.close);
    const refused: string[] = [];
    const [a, b, reading] = [new RedisMatchCheckpoints(linkA, (id) => refused.push(id)), new RedisMatchCheckpoints(linkB), new RedisMatchCheckpoints(reader)];
    const matchId = `split${Date.now().toString(36)}`;
    await hold(linkB, matchId);
    const m = matchOn(a, matchId);
    m.play(4_000);
    const taken = m.host.checkpoint();
    b.save(taken);
    await linkB.cmd.ping();
    // A, stalled, never heard it lost the match: it plays on and writes.
    m.play(2_000);
    a.save(m.host.checkpoint());
    await linkA.cmd.ping();
    expect(refused).toContain(matchId);
    expect(new Set(refused)).toEqual(new Set([matchId]));
    expect(strip(await reading.read(matchId))).toEqual(strip(taken));
  });
});
