import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYS } from '@/lib/server/live/cluster/cluster';
import { RedisLeases, type Carried } from '@/lib/server/live/cluster/lease';
import { connectRedis, type RedisLink } from '@/lib/server/live/cluster/redis';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// Which instance hosts a live game, on a real Redis (docs/decisions/0018): never two hosts.

const links: RedisLink[] = [];
const opened: RedisLeases[] = [];
afterAll(() => {
  for (const l of opened) l.close();
  for (const l of links) l.close();
});

/** One instance's leases: `hosted` is what its hub holds; `onAsk` answers another's handover request. */
function instance(o: { hosted?: Set<string>; onAsk?: (holder: string, gameId: string) => void } = {}) {
  const link = connectRedis(url.toString());
  links.push(link);
  const lost: string[] = [];
  const leases = new RedisLeases(link, () => [...(o.hosted ?? [])], (id) => lost.push(id), o.onAsk ?? (() => {}));
  opened.push(leases);
  return { link, leases, lost };
}
const gameId = () => `lease-test-${randomBytes(6).toString('hex')}`;

describe.skipIf(!redisUp)('live game leases on Redis', () => {
  it('a link closing answers what was asked just before it (a lease let go at shutdown reaches Redis); killed, it does not', async () => {
    const key = `test:close:${randomBytes(6).toString('hex')}`;
    const reader = instance().link;
    const link = connectRedis(url.toString());
    await link.cmd.ping();
    const asked = link.cmd.set(key, 'let go', 'PX', 60_000);
    link.close();
    await expect(asked).resolves.toBe('OK');
    expect(await reader.cmd.get(key)).toBe('let go');
    const crashed = connectRedis(url.toString());
    await crashed.cmd.ping();
    const lost = crashed.cmd.del(key);
    crashed.kill();
    await expect(lost).rejects.toThrow();
    expect(await reader.cmd.get(key)).toBe('let go');
  });

  it('hands a game over when its holder is asked, with the pauses and lost rank it carries', async () => {
    const id = gameId();
    const carried: Carried = { pauses: 2, unranked: 'too_slow' };
    const a = instance({ hosted: new Set([id]) });
    const b = instance({ onAsk: (holder, g) => holder === a.link.instance && a.leases.release(g, carried) });
    a.leases.claim(id);
    await new Promise((r) => setTimeout(r, 50));
    expect(await b.leases.take(id)).toEqual({ carried });
    expect(await b.link.cmd.get(KEYS.host(id))).toBe(b.link.instance);
  });

  it('waits out the lease of a holder that died, then takes the game', async () => {
    const id = gameId();
    const dead = instance(); // claims, then never renews: as if killed
    dead.leases.claim(id);
    await new Promise((r) => setTimeout(r, 50));
    const b = instance();
    const started = Date.now();
    expect(await b.leases.take(id)).toEqual({ carried: null });
    expect(Date.now() - started).toBeGreaterThan(3_000);
  });

  it('never takes a game a live holder keeps renewing', async () => {
    const id = gameId();
    const a = instance({ hosted: new Set([id]) }); // ignores handover requests (its game is over, being recorded)
    a.leases.claim(id);
    await new Promise((r) => setTimeout(r, 50));
    expect(await instance().leases.take(id)).toBeNull();
    expect(await a.link.cmd.get(KEYS.host(id))).toBe(a.link.instance);
  });

  it('says to every instance while one records a game\'s end, so a POST there waits (stream_pending)', async () => {
    const id = gameId();
    const a = instance({ hosted: new Set([id]) });
    const b = instance();
    a.leases.claim(id);
    a.leases.setRecording(id, true);
    await new Promise((r) => setTimeout(r, 50));
    expect(await b.leases.recordingElsewhere(id)).toBe(true);
    await a.leases.release(id);
    expect(await b.leases.recordingElsewhere(id)).toBe(false);
  });

  it('a release settles once Redis holds the carry and the lease is free, so a process about to exit can wait for it', async () => {
    const id = gameId();
    const a = instance({ hosted: new Set([id]) });
    const b = instance();
    a.leases.claim(id);
    const carried: Carried = { pauses: 1, unranked: null, awayMs: 1200 };
    // Writes wait 300 ms (reads do not): a release that did not wait for Redis would settle first.
    await b.link.cmd.call('CLIENT', 'PAUSE', '300', 'WRITE');
    expect(await a.leases.release(id, carried)).toBe(true);
    expect(await b.link.cmd.get(KEYS.carry(id))).toBe(JSON.stringify(carried));
    expect(await b.link.cmd.get(KEYS.host(id))).toBeNull();
  });

  it('a holder whose lease another instance took lets its game go', async () => {
    const id = gameId();
    const a = instance({ hosted: new Set([id]) });
    a.leases.claim(id);
    await a.link.cmd.set(KEYS.host(id), 'someone-else', 'PX', 5_000);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(a.lost).toEqual([id]);
  });
});
