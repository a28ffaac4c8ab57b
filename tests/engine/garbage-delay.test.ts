import { describe, expect, it } from 'vitest';
import {
  createDealtGame, createGame, decodeReplay, encodeReplay, GameConfigError, garbageDelayOf, pieceSequence, simulateReplay,
  VersusGame, type Game, type GameConfig, type GarbageMessage, type PieceType,
} from '@/lib/engine';
import { playHashCore } from '@/lib/engine/hash';
import { HANDLING, idle, ofType, tap } from '@/tests/engine/helpers';
import { VersusBot } from '@/tests/support/versus-bot';

// Rules 6: garbage joins the receiver's queue the tick it is routed, shown and cancellable, and
// may rise only GARBAGE_DELAY ticks later; nobody acknowledges anything. ASCII boards as in
// garbage.test.ts (rules 4's acknowledged garbage).
const V6 = 6;
const DELAY = garbageDelayOf(V6)!;
const battle = (config: Partial<GameConfig> = {}): Game => createGame({ mode: 'battle', seed: 'delay', handling: HANDLING, rulesVersion: V6, ...config });
const well = (rows: number) => Array.from({ length: rows }, () => 'XXXXXXXXX.');
const iIntoWell = (g: Game) => [...tap(g, 'rotateCW'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'right'), ...tap(g, 'hardDrop')];
const hardDrops = (t: number) => [{ key: 'hardDrop' as const, down: t % 2 === 0 }];

describe('rules 6: garbage in flight', () => {
  it('is the rules data: 30 ticks, and rules 2 and 4 have none', () => {
    expect([DELAY, garbageDelayOf(4), garbageDelayOf(2)]).toEqual([30, null, null]);
  });

  it('shows in the meter at once, in flight until the delay, the same for everyone', () => {
    const g = battle();
    g.receiveGarbage(2);
    g.tick();
    g.receiveGarbage(3);
    expect([g.snapshot().garbageQueued, g.snapshot().garbageReady]).toEqual([5, 0]);
    idle(g, DELAY - 1);
    expect([g.snapshot().garbageQueued, g.snapshot().garbageReady]).toEqual([5, 2]);
    g.tick();
    expect([g.snapshot().garbageQueued, g.snapshot().garbageReady]).toEqual([5, 5]);
    // Rules 4 has no delay: every queued row is ready.
    const old = createGame({ mode: 'battle', seed: 'delay', handling: HANDLING, rulesVersion: 4 });
    old.receiveGarbage(2);
    expect([old.snapshot().garbageQueued, old.snapshot().garbageReady]).toEqual([2, 2]);
  });

  it('shows in the meter at once, but a lock that clears nothing raises it only from the delay on', () => {
    const g = battle();
    g.receiveGarbage(2);
    g.tick();
    expect(g.snapshot().garbageQueued).toBe(2);
    // Dropped at once: the message is in flight, nothing rises.
    expect(ofType(tap(g, 'hardDrop'), 'garbageRise')).toEqual([]);
    expect(g.snapshot().garbageQueued).toBe(2);
    idle(g, DELAY);
    expect(ofType(tap(g, 'hardDrop'), 'garbageRise')).toEqual([{ type: 'garbageRise', rows: 2, queued: 0 }]);
  });

  it('rises at exactly its tick: the lock on the tick before keeps it in flight', () => {
    for (const wait of [DELAY - 1, DELAY]) {
      const g = battle();
      g.receiveGarbage(1); // joins before tick 0: may rise from tick DELAY
      idle(g, wait);
      const rose = ofType(g.tick([{ key: 'hardDrop', down: true }]), 'garbageRise').length > 0;
      expect({ lockTick: wait, rose }).toEqual({ lockTick: wait, rose: wait >= DELAY });
    }
  });

  it('is cancelled by the receiver’s attack while in flight, oldest first', () => {
    const g = battle({ board: [...well(4), 'XXXX.XXXXX'], queue: ['I'] });
    g.receiveGarbage(3);
    g.receiveGarbage(2);
    const [lock] = ofType(iIntoWell(g), 'lock');
    expect([lock!.attack, lock!.sent, g.snapshot().garbageQueued]).toEqual([4, 0, 1]);
  });
});

describe('rules 6 referee', () => {
  it('routes garbage into the receiver’s queue at once, with its column and its rise tick; acknowledgements change nothing', () => {
    const play = (ackEverything: boolean) => {
      const v = new VersusGame({ mode: 'battle', seed: 'fixed', handling: [HANDLING, HANDLING], rulesVersion: V6 });
      const bots = [new VersusBot({ seed: 'f/a', mistakes: 0.05 }), new VersusBot({ seed: 'f/b', mistakes: 0.1 })] as const;
      const sent: GarbageMessage[] = [];
      for (let t = 0; t < 8000 && !v.outcome; t++) {
        for (const p of [0, 1] as const) {
          // A modified client acknowledging every message routed to it, at once: under rules 6 it is ignored.
          const acks = ackEverything ? sent.filter((m) => m.to === p).map((m) => m.id) : [];
          const r = v.tick(p, bots[p].inputs(v, p), acks);
          expect(r.applied).toEqual([]);
          sent.push(...r.sent);
        }
      }
      return { sent, replays: [encodeReplay(v.replay(0)), encodeReplay(v.replay(1))] };
    };
    const a = play(false);
    expect(a.sent.length).toBeGreaterThanOrEqual(3);
    expect(play(true)).toEqual(a);
    for (const m of a.sent) {
      expect(m.deadline - m.sentAt).toBe(DELAY);
      expect(m.column).toBeGreaterThanOrEqual(0);
    }
  });

  it('makes crossing attacks meet: a lock that sends anything has first cancelled everything routed to its player (zero passthrough)', () => {
    // Under rules 4 a message routed but not yet acknowledged is not in the receiver's queue, so the
    // receiver's own attack passes it by and both players take garbage. Under rules 6 it is queued
    // the moment it is routed, so whichever attack the referee plays second cancels against the first.
    const passthrough = (rulesVersion: number) => {
      let crossed = 0;
      for (const seed of ['x1', 'x2', 'x3']) {
        const v = new VersusGame({ mode: 'battle', seed, handling: [HANDLING, HANDLING], rulesVersion });
        const bots = [new VersusBot({ seed: `${seed}/a`, mistakes: 0.05, ackDelay: 20 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.05, ackDelay: 20 })] as const;
        for (let t = 0; !v.outcome && t < 8000; t++) {
          for (const p of [0, 1] as const) {
            const r = v.tick(p, bots[p].inputs(v, p), bots[p].acks(v, p));
            const waiting = v.game(p).garbageQueued + v.awaiting(p).reduce((n, m) => n + m.size, 0);
            if (r.sent.length > 0 && waiting > 0) crossed++;
          }
        }
      }
      return crossed;
    };
    expect(passthrough(4), 'rules 4 lets attacks pass each other (the test can see it)').toBeGreaterThan(0);
    expect(passthrough(6)).toBe(0);
  });

  it('plays the same match from the same calls, and each seat’s replay alone reproduces its game', () => {
    const run = () => {
      const v = new VersusGame({ mode: 'battle', seed: 'same', handling: [HANDLING, HANDLING], rulesVersion: V6 });
      const bots = [new VersusBot({ seed: 'a', mistakes: 0.1 }), new VersusBot({ seed: 'b', mistakes: 0.2, pace: 3 })] as const;
      for (let t = 0; !v.outcome && t < 8000; t++) for (const p of [0, 1] as const) v.tick(p, bots[p].inputs(v, p));
      return v;
    };
    const [a, b] = [run(), run()];
    expect(a.outcome).not.toBeNull();
    for (const p of [0, 1] as const) {
      expect(encodeReplay(b.replay(p))).toBe(encodeReplay(a.replay(p)));
      const replay = decodeReplay(encodeReplay(a.replay(p)));
      expect(replay.rulesVersion).toBe(6);
      expect(replay.garbage!.length).toBeGreaterThan(0);
      expect(simulateReplay(replay, { maxTicks: a.tickOf(p) }).hash).toBe(a.game(p).hash());
    }
  });
});

describe('rules 6 in a dealt game (the browser)', () => {
  const seed = 'dealt-holes';
  const pieces = (n: number): PieceType[] => {
    const next = pieceSequence(seed, V6);
    return Array.from({ length: n }, next);
  };

  it('takes each hole column from the host, and ends where the seeded game does', () => {
    const seeded = battle({ seed });
    const all = pieces(200);
    const dealt = createDealtGame({ mode: 'battle', handling: HANDLING, nextCount: 5, rulesVersion: V6 }, all.slice(0, 7));
    for (let t = 0; t < 900 && !seeded.over; t++) {
      dealt.deal(dealt.dealt, all.slice(dealt.dealt, dealt.taken + 8));
      if (t % 31 === 5) dealt.receiveGarbage(1 + (t % 3), seeded.receiveGarbage(1 + (t % 3)));
      const inputs = t % 70 < 2 ? hardDrops(t) : [];
      seeded.tick(inputs);
      dealt.tick(inputs);
    }
    expect(seeded.replay().garbage!.length).toBeGreaterThan(5);
    expect(dealt.tickNo).toBe(seeded.tickNo);
    expect(dealt.playHash()).toBe(seededPlayHash(seeded));
    dealt.reveal(seed);
    expect(dealt.hash()).toBe(seeded.hash());
  });

  it('is refused without a column, and a column that is not the seed’s is caught at reveal', () => {
    const dealt = createDealtGame({ mode: 'battle', handling: HANDLING, nextCount: 5, rulesVersion: V6 }, pieces(20));
    expect(() => dealt.receiveGarbage(2)).toThrow(GameConfigError);
    expect(() => dealt.receiveGarbage(2, 10)).toThrow(/hole column/);
    const seeded = battle({ seed });
    const right = seeded.receiveGarbage(2);
    dealt.receiveGarbage(2, (right + 1) % 10);
    expect(() => dealt.reveal(seed)).toThrow(/hole columns/);
  });

});

/** The seeded game's play hash: its full hash without the generators (a dealt game's view). */
function seededPlayHash(g: Game): string {
  return (g as unknown as { core: Parameters<typeof playHashCore>[0] }).core ? playHashCore((g as unknown as { core: Parameters<typeof playHashCore>[0] }).core) : '';
}
