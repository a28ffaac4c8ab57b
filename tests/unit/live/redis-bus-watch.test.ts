import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { KEYS } from '@/lib/server/live/cluster/cluster';
import { RedisBus } from '@/lib/server/live/cluster/redis-bus';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import type { ServerMessage } from '@/lib/live/protocol';
import type { Connection } from '@/lib/server/live/connection';
import { spectating } from '@/lib/server/live/watch';

/** A link whose subscriber refuses the SUBSCRIBEs `fails` picks out by their number (Redis quiet: each timed out). */
function link(fails: (n: number) => boolean) {
  const subscribed: string[][] = [];
  const sub = Object.assign(new EventEmitter(), {
    subscribe: async (...channels: string[]) => {
      subscribed.push(channels);
      if (fails(subscribed.length)) throw new Error('Command timed out');
      return channels.length;
    },
    unsubscribe: async () => 0,
  });
  const cmd = { get: async () => 'the-host', publish: async () => 1 };
  return { link: { instance: 'here', cmd, sub } as unknown as RedisLink, subscribed };
}

describe('the bus on a Redis that did not answer', () => {
  it('subscribes its own channels again on each new connection: one refused at start is not lost', async () => {
    const { link: l, subscribed } = link((n) => n === 1);
    const bus = new RedisBus(l);
    try {
      await new Promise((r) => setTimeout(r, 0));
      expect(subscribed).toEqual([[KEYS.instanceChannel('here'), KEYS.sessions]]);
      (l.sub as unknown as EventEmitter).emit('ready');
      expect(subscribed).toHaveLength(2);
      expect(subscribed[1]).toEqual(subscribed[0]);
    } finally {
      bus.close();
    }
  });

  it('a watch whose SUBSCRIBE failed leaves nothing behind: the next watch subscribes again', async () => {
    const { link: l, subscribed } = link((n) => n === 2);
    const bus = new RedisBus(l);
    try {
      await expect(bus.watch('game1234', () => {})).rejects.toThrow(/timed out/);
      // No host answers the catch-up here: the watch ends after its wait, but it did subscribe again.
      const second = bus.watch('game1234', () => {});
      await new Promise((r) => setTimeout(r, 10));
      expect(subscribed.filter((c) => c.some((x) => x.endsWith('game1234')))).toHaveLength(2);
      void second; // it settles after the catch-up wait, unheard
    } finally {
      bus.close();
    }
  });

  it('a game let go whose spectators here cannot follow it (its channel refused): each is told it is gone, and its socket may watch it again', async () => {
    const { link: l } = link((n) => n === 2);
    const bus = new RedisBus(l);
    try {
      const got: ServerMessage[] = [];
      const conn = { watches: new Map<string, () => void>(), send: (m: ServerMessage) => void got.push(m) } as unknown as Connection;
      conn.watches.set('game1234', bus.subscribe('game1234', spectating(conn, 'game1234')));
      bus.leaving('game1234');
      await new Promise((r) => setTimeout(r, 10));
      expect(got).toMatchObject([{ t: 'error', code: 'unknown_game', gameId: 'game1234' }]);
      expect(conn.watches.size).toBe(0);
    } finally {
      bus.close();
    }
  });
});
