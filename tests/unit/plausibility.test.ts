import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEYS, packEvents, simulateReplay, type Key, type Mode, type Replay, type ReplayEvent } from '@/lib/engine';
import { nextState, outputOf, seedState } from '@/lib/engine/rng';
import { assessTiming, TIMING_LIMITS } from '@/lib/server/games/plausibility';
import { timingFeatures } from '@/lib/server/games/timing-features';
import { playGame } from '@/tests/support/bot';
import { CASUAL_HUMAN, FAST_HUMAN } from '@/tests/support/human';
import { hardDropGame } from '@/tests/support/replays';

type Stream = { events: ReplayEvent[]; lockTicks: number[]; ticks: number };

function assessReplay(replay: Replay) {
  const lockTicks: number[] = [];
  const result = simulateReplay(replay, { lockTicks });
  return assessTiming({ inputs: packEvents(replay.events), lockTicks, ticks: result.ticks });
}

const judge = (s: Stream) => assessTiming({ inputs: packEvents(s.events), lockTicks: s.lockTicks, ticks: s.ticks }).flag;

/**
 * Key timing of a fast player, without a game behind it (the features read only ticks): per piece
 * 2–4 different keys, each pressed `interval` ticks after the last and held `hold` ticks (presses
 * overlap, as fingers do), the hard drop last; the piece locks on it.
 */
type Range = readonly [number, number];

function humanStream(seed: string, pieces: number, t: { interval: Range; hold: Range; think: Range }): Stream {
  let state = seedState(seed);
  const draw = ([min, max]: Range) => min + (outputOf((state = nextState(state))) % (max - min + 1));
  const presses: Array<{ tick: number; key: Key }> = [];
  const lockTicks: number[] = [];
  let tick = 0;
  for (let p = 0; p < pieces; p++) {
    tick += draw(t.think);
    const moves: Key[] = [['left', 'right'][draw([0, 1])] as Key, ['rotateCW', 'rotateCCW', 'hold'][draw([0, 2])] as Key].slice(0, draw([1, 3]));
    for (const key of [...moves, 'hardDrop' as Key]) {
      tick += draw(t.interval);
      presses.push({ tick, key });
    }
    lockTicks.push(tick);
  }
  const events: ReplayEvent[] = [];
  presses.forEach(({ tick: at, key }, i) => {
    const again = presses.slice(i + 1).find((q) => q.key === key);
    const hold = Math.max(1, Math.min(draw(t.hold), (again?.tick ?? Infinity) - at - 1));
    events.push({ tick: at, key, down: true }, { tick: at + hold, key, down: false });
  });
  events.sort((a, b) => a.tick - b.tick);
  return { events, lockTicks, ticks: events.at(-1)!.tick + 1 };
}

/** One key tapped every `interval` ticks, held `hold`. */
function metronome(presses: number, interval: number, hold: number): ReplayEvent[] {
  return Array.from({ length: presses }, (_, i) => [
    { tick: i * interval, key: KEYS[i % 2 === 0 ? 0 : 4]!, down: true },
    { tick: i * interval + hold, key: KEYS[i % 2 === 0 ? 0 : 4]!, down: false },
  ]).flat();
}

describe('timing plausibility: robots are flagged', () => {
  it.each(['sprint', 'marathon'] as const)('the default test bot (1-tick taps back to back) in %s: robotic_rhythm', (mode: Mode) => {
    const { features, flag } = assessReplay(playGame({ mode, seed: `robot-${mode}` }).replay);
    expect(flag?.reason).toBe('robotic_rhythm');
    expect(flag?.message).toMatch(/consecutive key presses .* held 17 ms/);
    expect(features.sameRhythm.presses).toBeGreaterThan(300);
    expect(features.sameRhythm.pieces).toBeGreaterThan(50);
  });

  it('a run of exactly the limit is flagged, one press fewer is not', () => {
    const at = (n: number): Stream => ({ events: metronome(n, 7, 3), lockTicks: [], ticks: n * 7 });
    expect(judge(at(TIMING_LIMITS.sameRhythmPresses))?.reason).toBe('robotic_rhythm');
    expect(judge(at(TIMING_LIMITS.sameRhythmPresses - 1))).toBeNull();
  });

  it('human intervals but every tap held the same number of ticks: uniform_holds', () => {
    const s = humanStream('uniform', 150, { interval: [3, 6], hold: [2, 2], think: [0, 10] });
    expect(judge(s)).toEqual({ reason: 'uniform_holds', message: expect.stringMatching(/^100% of \d+ taps were held exactly 33 ms/) });
  });

  it('human jitter at 10 pieces a second for 100 pieces: sustained_pps', () => {
    const s = humanStream('too-fast', 120, { interval: [1, 2], hold: [1, 3], think: [0, 1] });
    expect(judge(s)?.reason).toBe('sustained_pps');
  });

  it('jittered presses at ~36 a second for 10 s, few pieces: sustained_presses', () => {
    let state = seedState('presses');
    const draw = (n: number) => outputOf((state = nextState(state))) % n;
    const events: ReplayEvent[] = [];
    // Four keys in turn, so each is released (after 1–3 ticks) before its next press.
    for (let i = 0, tick = 0; i < 400; i++, tick += [1, 2, 2][draw(3)]!) {
      const key = KEYS[i % 4]!;
      events.push({ tick, key, down: true }, { tick: tick + 1 + draw(3), key, down: false });
    }
    events.sort((a, b) => a.tick - b.tick);
    const { features, flag } = assessTiming({ inputs: packEvents(events), lockTicks: [], ticks: events.at(-1)!.tick + 1 });
    expect(features.peakPressRate.perSecond).toBeGreaterThan(30);
    expect(flag?.reason).toBe('sustained_presses');
  });
});

describe('timing plausibility: fast honest play is not flagged', () => {
  it.each([
    ['5 PPS', { interval: [3, 5], hold: [2, 6], think: [0, 3] }, [4.5, 5.5]],
    ['6 PPS', { interval: [2, 5], hold: [2, 5], think: [0, 1] }, [5.5, 6.6]],
    ['7 PPS', { interval: [2, 4], hold: [2, 5], think: [0, 1] }, [6.6, 7.6]],
  ] as const)('jittered human timing at %s over 300 pieces, 20 seeds', (_, timing, [lo, hi]) => {
    for (let seed = 0; seed < 20; seed++) {
      const s = humanStream(`fast-${seed}`, 300, timing);
      const pps = ((s.lockTicks.length - 1) * 60) / (s.lockTicks.at(-1)! - s.lockTicks[0]!);
      expect(pps).toBeGreaterThan(lo);
      expect(pps).toBeLessThan(hi);
      expect(judge(s), `seed ${seed}`).toBeNull();
    }
  }, 60_000);

  it.each([
    ['sprint', FAST_HUMAN],
    ['marathon', FAST_HUMAN],
    ['ultra', CASUAL_HUMAN],
  ] as const)('the bot with seeded human timing in %s', (mode, human) => {
    for (const seed of ['h1', 'h2', 'h3']) {
      const { replay, result } = playGame({ mode, seed: `${mode}-${seed}`, human });
      expect(result.ended).toBe(true);
      expect(assessReplay(replay).flag).toBeNull();
    }
  }, 60_000);
});

describe('timing plausibility: short games are never flagged', () => {
  it('fewer than 40 presses and 100 pieces cannot break any limit, however regular or fast', () => {
    const press = fc.record({ gap: fc.nat({ max: 3 }), hold: fc.nat({ max: 3 }), key: fc.constantFrom(...KEYS) });
    fc.assert(
      fc.property(fc.array(press, { maxLength: TIMING_LIMITS.sameRhythmPresses - 1 }), fc.array(fc.nat({ max: 3 }), { maxLength: 99 }), (ps, lockGaps) => {
        let tick = 0;
        const events = ps
          .flatMap(({ gap, hold, key }) => ((tick += gap), [{ tick, key, down: true }, { tick: tick + hold, key, down: false }]))
          .sort((a, b) => a.tick - b.tick);
        let at = 0;
        const lockTicks = lockGaps.map((g) => (at += g));
        expect(judge({ events, lockTicks, ticks: Math.max(tick, at) + 1 })).toBeNull();
      }),
      { numRuns: 500 },
    );
  }, 60_000);

  it('hard-dropping every piece at spawn (12 pieces, 1-tick taps) is not flagged', () => {
    expect(assessReplay(hardDropGame('marathon', 'short').replay).flag).toBeNull();
  });
});

describe('timing features', () => {
  it('measure holds, rhythm runs, peak pieces and presses per second', () => {
    const events = metronome(60, 4, 2);
    const f = timingFeatures({ inputs: packEvents(events), lockTicks: [0, 4, 8], gameTicks: 240, ppsWindow: 3, pressWindowTicks: 60 });
    expect(f.presses).toBe(60);
    expect(f.sameRhythm).toEqual({ presses: 60, pieces: 3, interval: 4, hold: 2, fromTick: 0 });
    expect(f.taps).toEqual({ count: 60, modalHold: 2, modalShare: 1 });
    expect(f.peakPps.pps).toBe(15);
    expect(f.peakPressRate.perSecond).toBe(15);
  });

  it('a second down of a key already held is not a press, and an unreleased key has no hold', () => {
    const events: ReplayEvent[] = [
      { tick: 0, key: 'left', down: true },
      { tick: 3, key: 'left', down: true },
      { tick: 5, key: 'left', down: false },
      { tick: 9, key: 'hold', down: true },
    ];
    const f = timingFeatures({ inputs: packEvents(events), lockTicks: [], gameTicks: 10, ppsWindow: 100, pressWindowTicks: 600 });
    expect(f.presses).toBe(2);
    expect(f.taps).toEqual({ count: 1, modalHold: 5, modalShare: 1 });
    expect(f.peakPps.pps).toBeNull();
    expect(f.peakPressRate.perSecond).toBeNull();
  });
});
