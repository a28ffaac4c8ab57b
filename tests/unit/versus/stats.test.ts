import { describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, VersusMatch } from '@/lib/engine';
import { NO_TALLY as LIVE_START, tallyFrame } from '@/lib/client/versus-stats';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { replayFeatures } from '@/lib/server/integrity/features';
import { recordOf } from '@/lib/server/versus/verify';
import { versusReplaySpan } from '@/lib/versus/replay-span';
import { NO_TALLY, rates, ratesOver, tallyEvents } from '@/lib/versus/stats';
import { HANDLING, lockEvent as lock, riseEvent as rise } from '@/tests/engine/helpers';
import { playGame } from '@/tests/support/bot';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';


describe('the rates (TETR.IO: APM attack a minute, PPS pieces a second, VS (attack + garbage cleared) a second × 100)', () => {
  it('match a hand computation', () => {
    // 60 s: 30 attack → 30 APM; 120 pieces → 2 PPS; (30 + 12) / 60 s × 100 = 70 VS.
    expect(rates({ attack: 30, garbageCleared: 12 }, 120, 3600)).toEqual({ apm: 30, pps: 2, vs: 70 });
    // 45 s: 9 attack → 12 APM; 36 pieces → 0.8 PPS; (9 + 0) / 45 × 100 = 20 VS.
    expect(rates({ attack: 9, garbageCleared: 0 }, 36, 2700)).toEqual({ apm: 12, pps: 0.8, vs: 20 });
    expect(rates({ attack: 5, garbageCleared: 5 }, 3, 0)).toEqual({ apm: 0, pps: 0, vs: 0 });
  });

  it('over several games are the totals divided, not a mean of each game’s rates', () => {
    // 10 s with 10 attack (60 APM) and 50 s with 20 attack (24 APM): 30 attack in 60 s is 30 APM (a mean would say 42).
    const over = ratesOver([
      { attack: 10, garbageCleared: 4, pieces: 20, ticks: 600 },
      { attack: 20, garbageCleared: 2, pieces: 100, ticks: 3000 },
    ]);
    expect(over).toEqual({ apm: 30, pps: 2, vs: 60 });
    expect(ratesOver([])).toEqual({ apm: 0, pps: 0, vs: 0 });
  });
});

describe('tallyEvents', () => {
  it('counts attack before cancelling and the garbage rows among each clear, following rises and clears', () => {
    let t = tallyEvents(NO_TALLY, [rise(2)]); // garbage in rows 0 and 1
    t = tallyEvents(t, [lock([0], 0)]); // clears one garbage row; the other drops to row 0
    expect(t).toEqual({ attack: 0, garbageCleared: 1, garbageRows: [0] });
    t = tallyEvents(t, [rise(3)]); // rows 0–2 new, the old one pushed to 3
    t = tallyEvents(t, [lock([1, 2], 1), lock([5], 0)]); // two garbage rows, then a row of the stack only
    expect(t).toEqual({ attack: 1, garbageCleared: 3, garbageRows: [0, 1] });
    t = tallyEvents(t, [lock([4, 5, 6, 7], 4)]); // a Tetris above the garbage
    expect(t).toEqual({ attack: 5, garbageCleared: 3, garbageRows: [0, 1] });
  });
});

describe('a stored replay’s attack (the feature row) against the live tally of the same game', () => {
  const seed = 'stats-0'; // a set in which a seat clears garbage (rare for these bots)
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
  const record = recordOf(match, seed, 'battle');

  it('equals what the browser counts from its frames and fields, seat by seat, game by game', () => {
    let garbageSeen = 0;
    for (const game of record.games) {
      for (const encoded of game.replays) {
        const replay = decodeReplay(encoded);
        // The browser's way: events and the drawn field, tick by tick, up to the game's end.
        const player = new ReplayPlayer(replay, 300, versusReplaySpan(replay, game.endTick));
        let live = LIVE_START;
        let sent = 0;
        while (!player.over && player.tick < game.endTick) {
          const events = player.step();
          for (const e of events) if (e.type === 'lock') sent += e.sent;
          live = tallyFrame(live, events, player.snapshot().board);
        }
        const row = replayFeatures(encoded, game.endTick)!;
        expect({ attack: row.attack, garbageCleared: row.garbageCleared, sent: row.sent }).toEqual({ attack: live.attack, garbageCleared: live.garbageCleared, sent });
        garbageSeen += live.garbageCleared;
      }
    }
    // The set must exercise garbage, or the comparison above proves little.
    expect(garbageSeen).toBeGreaterThan(0);
    expect(record.games.some((g) => g.replays.some((r) => replayFeatures(r, g.endTick)!.attack > 0))).toBe(true);
  });

  it('the replay viewer reads the same figures at any tick without playing to it', () => {
    for (const game of record.games) {
      for (const encoded of game.replays) {
        const replay = decodeReplay(encoded);
        const player = new ReplayPlayer(replay, 300, versusReplaySpan(replay, game.endTick));
        const stepped = new ReplayPlayer(replay, 300, versusReplaySpan(replay, game.endTick));
        let tally = NO_TALLY;
        expect(player.tallyAt(0)).toEqual({ attack: 0, garbageCleared: 0 });
        while (!stepped.over && stepped.tick < game.endTick) {
          tally = tallyEvents(tally, stepped.step());
          expect(player.tallyAt(stepped.tick)).toEqual({ attack: tally.attack, garbageCleared: tally.garbageCleared });
        }
        const row = replayFeatures(encoded, game.endTick)!;
        expect(player.tallyAt(game.endTick)).toEqual({ attack: row.attack, garbageCleared: row.garbageCleared });
      }
    }
  });

  it('counts only what was played before the game’s end', () => {
    const game = record.games[0]!;
    const whole = replayFeatures(game.replays[0], game.endTick)!;
    const early = replayFeatures(game.replays[0], Math.floor(game.endTick / 2))!;
    expect(early.attack).toBeLessThan(whole.attack);
  });

  it('keeps a solo game’s attack and leaves garbage cleared and sent out (no opponent)', () => {
    const { replay } = playGame({ mode: 'sprint', seed: 'stats-solo' });
    const row = replayFeatures(encodeReplay(replay), null)!;
    const player = new ReplayPlayer(replay);
    let attack = 0;
    while (!player.over) for (const e of player.step()) if (e.type === 'lock') attack += e.attack;
    expect(attack).toBeGreaterThan(0);
    expect(row).toMatchObject({ attack, garbageCleared: null, sent: null });
  });
});
