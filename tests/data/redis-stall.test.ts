import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisLink } from '@/lib/server/live/cluster/redis';

// A Redis that goes quiet without closing its sockets (stopped, or the network between): the link
// gives up on what it asked and dials again, rather than waiting for ever (decision 0018).
const url = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const target = { host: url.hostname, port: Number(url.port || 6379) };
const redisUp = await new Promise<boolean>((resolve) => {
  const s = net.connect(target, () => (s.destroy(), resolve(true)));
  s.on('error', () => resolve(false));
});

/**
 * A TCP proxy to the real Redis. `stall()` makes the sockets open now go quiet both ways: what the
 * client sends is held, as a stopped server's socket buffer holds it, and reaches Redis only once
 * the client closes that socket (the server ran what it had read). Later sockets pass.
 */
async function stallingProxy() {
  const pairs = new Set<{ stalled: boolean; held: Buffer[]; up: net.Socket }>();
  let dialled = 0;
  const server = net.createServer((down) => {
    dialled++;
    const up = net.connect(target);
    const pair = { stalled: false, held: [] as Buffer[], up };
    pairs.add(pair);
    down.on('data', (b) => (pair.stalled ? pair.held.push(b) : up.write(b)));
    up.on('data', (b) => pair.stalled || down.write(b));
    down.on('close', () => {
      for (const b of pair.held) up.write(b);
      up.end();
      pairs.delete(pair);
    });
    up.on('close', () => down.destroy());
    for (const s of [down, up]) s.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    get dialled() {
      return dialled;
    },
    stall: () => pairs.forEach((p) => (p.stalled = true)),
    /** The sockets open now are cut (as a Redis restarting does): the client dials again at once. */
    cut: () => pairs.forEach((p) => p.up.destroy()),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const links: RedisLink[] = [];
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const l of links) l.kill();
  for (const c of closing) await c();
});
const until = async (check: () => boolean | Promise<boolean>, ms = 5_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (await check()) return;
  throw new Error('timed out waiting');
};

describe.skipIf(!redisUp)('a Redis that stops answering', () => {
  it('fails what was asked after its timeout, dials again, and runs nothing twice', async () => {
    const proxy = await stallingProxy();
    closing.push(proxy.close);
    const key = `test:stall:${randomBytes(6).toString('hex')}`;
    const reader = connectRedis(url.toString());
    const link = connectRedis(proxy.url, { commandMs: 300, watchMs: 100 });
    links.push(reader, link);
    await link.cmd.ping();
    await link.sub.ping();
    const before = proxy.dialled;
    proxy.stall();

    const asked = link.cmd.incr(key);
    await expect(asked).rejects.toThrow(/timed out/);
    // The watch found the link quiet: both connections dial again, and answer.
    await until(() => proxy.dialled >= before + 2);
    await until(async () => (await link.cmd.ping().catch(() => null)) === 'PONG');
    // What the stalled socket held ran once there; it was not sent again on the new one.
    await until(async () => (await reader.cmd.get(key)) === '1');
    await new Promise((r) => setTimeout(r, 200));
    expect(await reader.cmd.get(key)).toBe('1');
    expect(await link.cmd.incr(key)).toBe(2);
    await reader.cmd.del(key);
  });

  it('a PING asked on a connection since cut does not drop the next one when it times out', async () => {
    const proxy = await stallingProxy();
    closing.push(proxy.close);
    const link = connectRedis(proxy.url, { commandMs: 1_000, watchMs: 100 });
    links.push(link);
    await link.cmd.ping();
    await link.sub.ping();
    const before = proxy.dialled;
    proxy.stall();
    await new Promise((r) => setTimeout(r, 150)); // the watch's PING is out, unanswered
    proxy.cut();
    await until(() => proxy.dialled === before + 2 && link.cmd.status === 'ready');
    // Past the old PING's timeout (it was asked under 1 s ago): the new connections are kept.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(proxy.dialled).toBe(before + 2);
    expect(await link.cmd.ping()).toBe('PONG');
  });
});
