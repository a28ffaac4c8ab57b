import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@/lib/live/protocol';
import { KEYS } from '@/lib/server/live/cluster/cluster';
import { connectRedis, type RedisLink } from '@/lib/server/live/cluster/redis';
import { RedisBus } from '@/lib/server/live/cluster/redis-bus';
import { createSharedState } from '@/lib/server/live/cluster/shared-state';
import { BudgetsById } from '@/lib/server/live/budgets';
import type { Connection } from '@/lib/server/live/connection';
import type { LiveHere } from '@/lib/server/live/here';
import { watchElsewhere } from '@/lib/server/live/watch';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// A solo game watched from another instance than its host's, on a real Redis (docs/decisions/0018):
// its host dies, its player's resume takes it up elsewhere, and the spectators watch on there.

const closers: Array<() => void> = [];
afterAll(() => closers.reverse().forEach((close) => close()));

/** An instance's bus; its catch-up of a game it hosts (the hub's `watching`) names the instance. */
function instance(hosts: Set<string>) {
  const link = connectRedis(url.toString());
  const bus = new RedisBus(link);
  /** How many catch-ups this instance built for spectators elsewhere. */
  const built = { snapshots: 0 };
  bus.setHooks(hubHooks(hosts, () => link, built));
  const close = () => (bus.close(), link.close());
  closers.push(close);
  /** Dies without a word: its listing stops, its subscriptions go, its lease stays till it expires. */
  const crash = () => (link.kill(), close());
  /** Its player's resume took the game up here: the lease is this instance's now. */
  const takeUp = async (gameId: string) => {
    hosts.add(gameId);
    await link.cmd.set(KEYS.host(gameId), link.instance, 'PX', 60_000);
  };
  return { link, bus, crash, takeUp, built };
}

/** What the hub answers the bus for the games in `hosts`; its catch-up of a game (`watching`) names the instance. */
function hubHooks(hosts: Set<string>, link: () => RedisLink, built = { snapshots: 0 }) {
  return {
    snapshot: (id: string) => (hosts.has(id) ? (built.snapshots++, { t: 'watching', gameId: id, from: link().instance } as unknown as ServerMessage) : null),
    watchersChanged: () => {},
    // Asked to hand a game over (its player reconnected elsewhere): it lets the lease go, as the hub does.
    release: (id: string) => {
      if (!hosts.delete(id)) return false;
      void link().cmd.del(KEYS.host(id));
      return true;
    },
    hosted: () => [...hosts],
    // Its lease found taken: the host closes here.
    lost: (id: string) => hosts.delete(id),
  };
}

function spectator() {
  const got: Array<{ t: string; from?: unknown }> = [];
  return { got, listener: (m: ServerMessage) => void got.push(m) };
}
const catchUps = (s: ReturnType<typeof spectator>) => s.got.filter((m) => m.t === 'watching').map((m) => m.from);
const frame = (gameId: string, n: number) => ({ t: 'frame', gameId, n }) as unknown as ServerMessage;

/** A game hosted on `a` (its lease 5 s, as if renewed just before it died), watched through `b`. */
async function watchedElsewhere() {
  const gameId = `watch-${randomBytes(6).toString('hex')}`;
  const a = instance(new Set([gameId]));
  const b = instance(new Set());
  await a.link.cmd.set(KEYS.host(gameId), a.link.instance, 'PX', 5_000);
  // Both have listed themselves (every second): a's going is then seen by its listing's end.
  await new Promise((r) => setTimeout(r, 1_200));
  const first = spectator();
  expect(await b.bus.watch(gameId, first.listener)).not.toBeNull();
  expect(catchUps(first)).toEqual([a.link.instance]);
  return { gameId, a, b, first };
}

describe.skipIf(!redisUp)('a game watched from another instance outlives its host', () => {
  it('its host dies: the spectators are asked for again where its player takes it up, one that came meanwhile too, and its frames reach them', { timeout: 40_000 }, async () => {
    const { gameId, a, b, first } = await watchedElsewhere();
    a.crash();
    // A spectator arriving while the dead host's lease still stands: nobody hears its request, so it waits for the take-up.
    const late = spectator();
    const lateWatch = b.bus.watch(gameId, late.listener);
    // A socket that asks, then unwatches while it waits (messages.ts runs what its watch holds, then forgets it), watches nothing after.
    const quitter = spectator();
    const conn = { open: true, watches: new Map<string, () => void>(), send: quitter.listener, error: (code: string) => quitter.got.push({ t: 'error', from: code }) };
    const hub = { shared: { remote: { bus: b.bus } }, ticketReadsByAddress: new BudgetsById(4, 1_000), door: { watchingElsewhere: () => 0 } } as unknown as LiveHere;
    const quitterWatch = watchElsewhere(hub, conn as unknown as Connection, gameId);
    await new Promise((r) => setTimeout(r, 100));
    expect(conn.watches.size).toBe(1); // the wait counts against its watches
    conn.watches.get(gameId)!();
    conn.watches.delete(gameId);
    await new Promise((r) => setTimeout(r, 900));
    const c = instance(new Set());
    await c.takeUp(gameId);
    expect(await lateWatch).not.toBeNull();
    await expect.poll(() => catchUps(first), { timeout: 15_000 }).toEqual([a.link.instance, c.link.instance]);
    expect(catchUps(late)).toEqual([c.link.instance]);
    // The new host has heard of them: it sends its frames on.
    await expect.poll(() => {
      c.bus.publish(gameId, frame(gameId, 1));
      return first.got.some((m) => m.t === 'frame') && late.got.some((m) => m.t === 'frame');
    }, { timeout: 5_000, interval: 200 }).toBe(true);
    expect([...first.got, ...late.got].filter((m) => m.t === 'error')).toEqual([]);
    await quitterWatch;
    expect(quitter.got).toEqual([]);
    expect(conn.watches.size).toBe(0);
  });

  it('its host died and its lease ran out before a spectator came: one whose game may still be taken up waits for that, one whose may not is told at once', { timeout: 40_000 }, async () => {
    const gameId = `watch-${randomBytes(6).toString('hex')}`;
    const ended = `watch-${randomBytes(6).toString('hex')}`;
    const b = instance(new Set());
    // No lease: its host died more than a lease ago, and its player has not resumed yet; its ticket says
    // whether a resume may still take it up (watch.ts: mayBeTakenUp).
    const began = Date.now();
    expect(await b.bus.watch(ended, spectator().listener, async () => false)).toBeNull();
    expect(Date.now() - began).toBeLessThan(1_000);
    const late = spectator();
    const watch = b.bus.watch(gameId, late.listener, async () => true);
    await new Promise((r) => setTimeout(r, 1_500));
    const c = instance(new Set());
    await c.takeUp(gameId);
    expect(await watch).not.toBeNull();
    expect(catchUps(late)).toEqual([c.link.instance]);
    await expect.poll(() => {
      c.bus.publish(gameId, frame(gameId, 1));
      return late.got.some((m) => m.t === 'frame');
    }, { timeout: 5_000, interval: 200 }).toBe(true);
  });

  it('its host dies and the spectators’ own instance takes it up: they watch it there, each frame once', { timeout: 40_000 }, async () => {
    const { gameId, a, b, first } = await watchedElsewhere();
    a.crash();
    await new Promise((r) => setTimeout(r, 1_000));
    await b.takeUp(gameId);
    await expect.poll(() => catchUps(first), { timeout: 15_000 }).toEqual([a.link.instance, b.link.instance]);
    // Another instance watches it too, so b sends its frames to Redis as well: b's own spectator still gets each once.
    const d = instance(new Set());
    const far = spectator();
    expect(await d.bus.watch(gameId, far.listener)).not.toBeNull();
    b.bus.publish(gameId, frame(gameId, 7));
    await expect.poll(() => far.got.filter((m) => m.t === 'frame').length).toBe(1);
    // Time for b to hear its own frame back from Redis, which its spectator must not get again.
    await new Promise((r) => setTimeout(r, 500));
    expect(first.got.filter((m) => m.t === 'frame')).toHaveLength(1);
  });

  it('its host hands it over, alive (its player reconnected elsewhere): the spectators follow it to the next host at once', { timeout: 30_000 }, async () => {
    const { gameId, a, first } = await watchedElsewhere();
    const c = instance(new Set());
    c.bus.askRelease(a.link.instance, gameId);
    await expect.poll(async () => a.link.cmd.get(KEYS.host(gameId))).toBeNull();
    await c.takeUp(gameId);
    await expect.poll(() => catchUps(first), { timeout: 5_000 }).toEqual([a.link.instance, c.link.instance]);
  });

  it('many spectators on one instance cost its host one catch-up when they come together, and one when the game moves: not one each', { timeout: 30_000 }, async () => {
    const { gameId, a, b, first } = await watchedElsewhere();
    const built = a.built.snapshots;
    const crowd = Array.from({ length: 40 }, () => spectator());
    const stops = await Promise.all(crowd.map((s) => b.bus.watch(gameId, s.listener)));
    expect(stops.every((stop) => stop !== null)).toBe(true);
    expect(crowd.every((s) => catchUps(s).length === 1)).toBe(true);
    expect(a.built.snapshots - built).toBeLessThanOrEqual(2);
    await expect.poll(() => a.bus.subscribers(gameId)).toBe(41);
    // Its player reconnects through c: all 41 follow it there, asking c once.
    const c = instance(new Set());
    c.bus.askRelease(a.link.instance, gameId);
    await expect.poll(async () => a.link.cmd.get(KEYS.host(gameId))).toBeNull();
    await c.takeUp(gameId);
    await expect.poll(() => [first, ...crowd].every((s) => catchUps(s).at(-1) === c.link.instance), { timeout: 5_000 }).toBe(true);
    expect(c.built.snapshots).toBe(1);
    await expect.poll(() => c.bus.subscribers(gameId)).toBe(41);
  });

  it('the spectators’ instance dies: its host stops counting them once it is no longer listed', { timeout: 30_000 }, async () => {
    const { gameId, a, b } = await watchedElsewhere();
    await expect.poll(() => a.bus.subscribers(gameId)).toBe(1);
    b.crash();
    await expect.poll(() => a.bus.subscribers(gameId), { timeout: 10_000 }).toBe(0);
  });

  it('its host hands it over: the spectators on the host’s own instance follow it to the next, and stop watching there when they go', { timeout: 30_000 }, async () => {
    const { gameId, a, first } = await watchedElsewhere();
    const here = spectator();
    const stop = a.bus.subscribe(gameId, here.listener);
    const c = instance(new Set());
    c.bus.askRelease(a.link.instance, gameId);
    await expect.poll(async () => a.link.cmd.get(KEYS.host(gameId))).toBeNull();
    await c.takeUp(gameId);
    await expect.poll(() => catchUps(here), { timeout: 5_000 }).toEqual([c.link.instance]);
    await expect.poll(() => catchUps(first), { timeout: 5_000 }).toEqual([a.link.instance, c.link.instance]);
    await expect.poll(() => {
      c.bus.publish(gameId, frame(gameId, 1));
      return here.got.some((m) => m.t === 'frame');
    }, { timeout: 5_000, interval: 200 }).toBe(true);
    expect(a.bus.subscribers(gameId)).toBe(0);
    // Counted at the new host (with `first`, watching through b), and no more once it stops.
    await expect.poll(() => c.bus.subscribers(gameId)).toBe(2);
    stop();
    await expect.poll(() => c.bus.subscribers(gameId)).toBe(1);
    expect(here.got.filter((m) => m.t === 'error')).toEqual([]);
  });

  it('its host finds its lease taken (it lost Redis for a while): its spectators, there and elsewhere, follow the game to the new holder', { timeout: 30_000 }, async () => {
    const gameId = `watch-${randomBytes(6).toString('hex')}`;
    const hosts = new Set([gameId]);
    let link: RedisLink | null = null;
    const shared = createSharedState(hubHooks(hosts, () => link!), url.toString());
    link = shared.remote!.link;
    closers.push(shared.close);
    const a = shared.remote!.bus;
    await link.cmd.set(KEYS.host(gameId), link.instance, 'PX', 5_000);
    const b = instance(new Set());
    await new Promise((r) => setTimeout(r, 1_200));
    const far = spectator();
    expect(await b.bus.watch(gameId, far.listener)).not.toBeNull();
    const here = spectator();
    a.subscribe(gameId, here.listener);
    // Another instance holds the lease now: a's next renewal finds it so and lets the game go.
    const c = instance(new Set());
    await c.takeUp(gameId);
    await expect.poll(() => hosts.has(gameId), { timeout: 5_000 }).toBe(false);
    await expect.poll(() => catchUps(here), { timeout: 5_000 }).toEqual([c.link.instance]);
    await expect.poll(() => catchUps(far), { timeout: 5_000 }).toEqual([link.instance, c.link.instance]);
    await expect.poll(() => c.bus.subscribers(gameId)).toBe(2);
  });
});

type Heard = { k: string; gameId?: string; from?: string; n?: number; req?: string };

/** An instance standing in for a game's host, driven by hand: what it hears on its channel, and a catch-up it sends when told. */
async function handHost() {
  const link = connectRedis(url.toString());
  closers.push(() => link.close());
  const heard: Heard[] = [];
  await link.sub.subscribe(KEYS.instanceChannel(link.instance));
  link.sub.on('message', (_channel: string, text: string) => heard.push(JSON.parse(text) as Heard));
  const answer = (gameId: string, to: string, req: string, m: unknown) => link.cmd.publish(KEYS.gameChannel(gameId), JSON.stringify({ k: 'catchup', to, req, m }));
  const asks = () => heard.filter((w) => w.req);
  return { name: link.instance, link, heard, asks, answer };
}

/** A game hosted on `b` with one spectator there, let go (its lease now `next`'s): the spectator follows it. */
async function letGoTo(next: string) {
  const gameId = `watch-${randomBytes(6).toString('hex')}`;
  const b = instance(new Set());
  await b.link.cmd.set(KEYS.host(gameId), next, 'PX', 60_000);
  const first = spectator();
  const stop = b.bus.subscribe(gameId, first.listener);
  b.bus.leaving(gameId);
  return { gameId, b, first, stop };
}

describe.skipIf(!redisUp)('a game moving while its spectators are asked for', () => {
  it('the one spectator asked for goes before the catch-up came: the next one is asked for afresh, and counted', { timeout: 30_000 }, async () => {
    const h = await handHost();
    const { gameId, b, first, stop } = await letGoTo(h.name);
    await expect.poll(() => h.asks().length, { timeout: 5_000 }).toBe(1);
    stop();
    await expect.poll(() => h.heard.some((w) => w.k === 'watch' && w.n === 0)).toBe(true);
    const next = spectator();
    const watching = b.bus.watch(gameId, next.listener);
    await expect.poll(() => h.asks().length).toBe(2);
    await h.answer(gameId, b.link.instance, h.asks()[1]!.req!, { t: 'watching', gameId, from: h.name });
    expect(await watching).not.toBeNull();
    // The host counts it (else it relays no frame), and the one that went hears nothing more.
    await expect.poll(() => h.heard.filter((w) => w.k === 'watch').at(-1)?.n).toBe(1);
    expect(first.got).toEqual([]);
  });

  it('refused by a host that had just handed the game on: asked for where its lease is now, not told it is gone', { timeout: 30_000 }, async () => {
    const [h1, h2] = [await handHost(), await handHost()];
    const { gameId, b, first } = await letGoTo(h1.name);
    await expect.poll(() => h1.asks().length, { timeout: 5_000 }).toBe(1);
    await b.link.cmd.set(KEYS.host(gameId), h2.name, 'PX', 60_000);
    await h1.answer(gameId, b.link.instance, h1.asks()[0]!.req!, null);
    await expect.poll(() => h2.asks().length).toBe(1);
    await h2.answer(gameId, b.link.instance, h2.asks()[0]!.req!, { t: 'watching', gameId, from: h2.name });
    await expect.poll(() => catchUps(first)).toEqual([h2.name]);
    expect(first.got.filter((m) => m.t === 'error')).toEqual([]);
  });

  it('a spectator arriving while the game is followed: its host is asked once for all of them', { timeout: 30_000 }, async () => {
    const h = await handHost();
    const gameId = `watch-${randomBytes(6).toString('hex')}`;
    const b = instance(new Set());
    const first = spectator();
    b.bus.subscribe(gameId, first.listener);
    // Let go with no holder yet: the game is followed until one takes it.
    b.bus.leaving(gameId);
    await new Promise((r) => setTimeout(r, 150));
    await b.link.cmd.set(KEYS.host(gameId), h.name, 'PX', 60_000);
    const answered = new Set<string>();
    const answering = setInterval(() => {
      for (const w of h.asks()) {
        if (answered.has(w.req!)) continue;
        answered.add(w.req!);
        void h.answer(gameId, b.link.instance, w.req!, { t: 'watching', gameId, from: h.name });
      }
    }, 20);
    closers.push(() => clearInterval(answering));
    const next = spectator();
    expect(await b.bus.watch(gameId, next.listener)).not.toBeNull();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(answered.size).toBe(1);
    expect(catchUps(first)).toEqual([h.name]);
  });
});
