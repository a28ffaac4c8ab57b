import { describe, expect, it } from 'vitest';
import { TICK_MS } from '@/lib/client/clock';
import { GameRunner } from '@/lib/client/runner';
import { DEFAULT_HANDLING, packEvents } from '@/lib/engine';
import { checkInputRate } from '@/lib/server/games/verify';
import { HUMAN_INPUT } from '@/lib/input-limits';

const config = { mode: 'marathon' as const, seed: 'stall-test', handling: { ...DEFAULT_HANDLING }, nextCount: 5 };
const KEYS = ['left', 'right', 'rotateCW', 'rotateCCW'] as const;

function maxEdgesOnOneTick(events: { tick: number }[]): number {
  const perTick = new Map<number, number>();
  for (const e of events) perTick.set(e.tick, (perTick.get(e.tick) ?? 0) + 1);
  return Math.max(0, ...perTick.values());
}

describe('a stalled frame', () => {
  it('never makes the browser record a replay the server would refuse as inhuman', () => {
    const r = new GameRunner(config);
    r.start(0);
    let now = 0;
    for (; now < 20 * TICK_MS; now += TICK_MS) r.frame(now);
    // The main thread stalls for 500 ms; the player taps late in it, at a time the clock will
    // not catch up to (it runs at most 10 of the 30 ticks due).
    r.key('left', 'ArrowLeft', true, now + 400);
    r.key('left', 'ArrowLeft', false, now + 430);
    now += 500;
    r.frame(now);
    // Then taps at a brisk human pace (a key edge every ~20 ms) for 300 ms, frames at 60 Hz.
    let t = now;
    for (let i = 0; i < 15; i++) {
      const key = KEYS[i % KEYS.length]!;
      r.key(key, key, true, (t += 10));
      r.key(key, key, false, (t += 10));
      if (t >= now + TICK_MS) r.frame((now += TICK_MS));
    }
    for (let i = 0; i < 30; i++) r.frame((now += TICK_MS));

    const replay = r.game.replay();
    expect(replay.events).toHaveLength(32);
    expect(maxEdgesOnOneTick(replay.events)).toBeLessThanOrEqual(HUMAN_INPUT.maxEventsPerTick);
    expect(checkInputRate(packEvents(replay.events))).toBeNull();
  });

  it('moves inputs stamped in the dropped time back with the clock', () => {
    const r = new GameRunner(config, 10);
    r.start(0);
    r.frame(5 * TICK_MS);
    // Pressed 300 ms into a 400 ms stall: stamped for tick 18, but the clock keeps only 10 of
    // the 24 ticks that are due, so tick 18 would otherwise run 14 ticks after the player's
    // next key, delaying everything that follows.
    r.key('left', 'ArrowLeft', true, 5 * TICK_MS + 300);
    r.frame(5 * TICK_MS + 400);
    r.key('left', 'ArrowLeft', false, 5 * TICK_MS + 410);
    r.frame(5 * TICK_MS + 420);
    const events = r.game.replay().events;
    expect(events.map((e) => e.down)).toEqual([true, false]);
    expect(events[0]!.tick).toBeLessThan(r.tick);
  });
});
