import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisLink } from '@/lib/server/live/cluster/redis';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// A Redis that goes quiet without closing its sockets (stopped, or the network between): the link
// gives up on what it asked and dials again, rather than waiting for ever (decision 0018).
const target = { host: url.hostname, port: Number(url.port || 6379) };

/**
 * A TCP proxy to the real Redis (tests/support/tcp-proxy.ts stalls new sockets too and drops what
 * it held). `stall()` makes the sockets open now go quiet both ways, holding what each side sends;
 * `resume()` lets it through, as a Redis that paused. If the client goes first, what it had sent
 * reaches Redis anyway (the server ran what it had read). Later sockets pass.
 */
async function stallingProxy() {
  type Pair = { stalled: boolean; toRedis: Buffer[]; toClient: Buffer[]; up: net.Socket; down: net.Socket };
  const pairs = new Set<Pair>();
  let dialled = 0;
  const server = net.createServer((down) => {
    dialled++;
    const up = net.connect(target);
    const pair: Pair = { stalled: false, toRedis: [], toClient: [], up, down };
    pairs.add(pair);
    down.on('data', (b) => (pair.stalled ? pair.toRedis.push(b) : up.write(b)));
    up.on('data', (b) => (pair.stalled ? pair.toClient.push(b) : down.write(b)));
    down.on('close', () => {
      for (const b of pair.toRedis.splice(0)) up.write(b);
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
    resume: () =>
      pairs.forEach((p) => {
        p.stalled = false;
        for (const b of p.toRedis.splice(0)) p.up.write(b);
        for (const b of p.toClient.splice(0)) p.down.write(b);
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const links: RedisLink[] = [];
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const l of links) l.kill();
  for (const c of closing) await c();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean | Promise<boolean>, ms = 5_000) => {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(20)) if (await check()) return;
  throw new Error('timed out waiting');
};
async function setUp(timeouts: { commandMs: number; watchMs: number }) {
  const proxy = await stallingProxy();
  closing.push(proxy.close);
  const reader = connectRedis(url.toString());
  const link = connectRedis(proxy.url, timeouts);
  links.push(reader, link);
  await link.cmd.ping();
  await link.sub.ping();
  return { proxy, reader, link, before: proxy.dialled };
}

describe.skipIf(!redisUp)('a Redis that stops answering', () => {
  it('fails what was asked after its timeout, dials again, and runs nothing twice', async () => {
    const { proxy, reader, link, before } = await setUp({ commandMs: 300, watchMs: 100 });
    const key = `test:stall:${randomBytes(6).toString('hex')}`;
    proxy.stall();

    const asked = link.cmd.incr(key);
    await expect(asked).rejects.toThrow(/timed out/);
    // The watch found both connections quiet: they dial again, and answer.
    await until(() => proxy.dialled >= before + 2);
    await until(async () => (await link.cmd.ping().catch(() => null)) === 'PONG');
    // What the stalled socket held ran once there; it was not sent again on the new one.
    await until(async () => (await reader.cmd.get(key)) === '1');
    await sleep(200);
    expect(await reader.cmd.get(key)).toBe('1');
    expect(await link.cmd.incr(key)).toBe(2);
    await reader.cmd.del(key);
  });

  it('a pause shorter than two PINGs\u2019 timeouts drops no connection', async () => {
    const { proxy, link, before } = await setUp({ commandMs: 1_000, watchMs: 100 });
    proxy.stall();
    // The first PING times out at 1.0–1.1 s; the second, asked by 1.2 s, is answered once the pause ends.
    await sleep(1_600);
    proxy.resume();
    await sleep(1_200);
    expect(proxy.dialled).toBe(before);
    expect(await link.cmd.ping()).toBe('PONG');
  });

  it('the subscriber, dialling again, keeps its channels, one subscribed while it was quiet too', async () => {
    const { proxy, reader, link, before } = await setUp({ commandMs: 300, watchMs: 100 });
    const [a, b] = ['a', 'b'].map((x) => `test:stall:${x}:${randomBytes(6).toString('hex')}`) as [string, string];
    const heard: string[] = [];
    link.sub.on('message', (channel: string) => heard.push(channel));
    await link.sub.subscribe(a);
    proxy.stall();
    // Unanswered: its caller hears it timed out, but the channel is subscribed on the next socket.
    await expect(link.sub.subscribe(b)).rejects.toThrow(/timed out/);
    await until(() => proxy.dialled >= before + 2 && link.sub.status === 'ready');
    await until(async () => {
      await reader.cmd.publish(a, 'x');
      await reader.cmd.publish(b, 'x');
      await sleep(50);
      return heard.includes(a) && heard.includes(b);
    });
  });
});
