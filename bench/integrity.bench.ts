/**
 * Integrity across games, its cost per stored game (not a test): `npm run bench:integrity`.
 * Prints medians in µs of what afterStore adds to each store, all off the request's path:
 * 1. The feature row of a stored replay as the pool's `features` job computes it (decode,
 *    re-simulate for the lock ticks, measure): a Sprint, a Marathon, and one seat of a versus game.
 * 2. The measuring alone, given the lock ticks (what it would cost if verification handed them over).
 * 3. The judge over a full profile (PROFILE.window rows), run once per player per stored game.
 * The database's part (one insert, one read of ≤ 30 rows, an insert of any new flag) is not timed here.
 */
import { encodeReplay, packEvents, simulateReplay, VersusMatch, type Replay } from '@/lib/engine';
import { replayFeatures } from '@/lib/server/integrity/features';
import { judgeProfile } from '@/lib/server/integrity/judge';
import { PROFILE } from '@/lib/server/integrity/rules';
import { TIMING_LIMITS } from '@/lib/server/games/plausibility';
import { timingFeatures } from '@/lib/server/games/timing-features';
import { recordOf } from '@/lib/server/versus/verify';
import { HANDLING } from '@/tests/engine/helpers';
import { playGame } from '@/tests/support/bot';
import { FAST_HUMAN } from '@/tests/support/human';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function us(fn: () => void, runs: number): number {
  for (let i = 0; i < 3; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e3);
  }
  return median(out);
}

const sprint = playGame({ mode: 'sprint', seed: 'bench-int-s', human: FAST_HUMAN });
const marathon = playGame({ mode: 'marathon', seed: 'bench-int-m', human: FAST_HUMAN });
const match = new VersusMatch({ mode: 'battle', seed: 'bench-int-v', handling: [HANDLING, HANDLING] });
playMatch(match, [new VersusBot({ seed: 'bi/a', mistakes: 0.1, human: FAST_HUMAN }), new VersusBot({ seed: 'bi/b', mistakes: 0.2, human: FAST_HUMAN })]);
const versusGame = recordOf(match, 'bench-int-v', 'battle').games[0]!;

const line = (name: string, value: number, extra = '') => console.log(`${name.padEnd(44)} ${value.toFixed(0).padStart(8)} µs${extra}`);

console.log('feature row of a stored replay (the pool job):');
for (const [name, replay] of [['sprint', sprint.replay], ['marathon', marathon.replay]] as Array<[string, Replay]>) {
  const encoded = encodeReplay(replay);
  line(`  ${name} (${replayFeatures(encoded, null)!.pieces} pieces)`, us(() => replayFeatures(encoded, null), 30));
}
line(`  versus seat, one game (${replayFeatures(versusGame.replays[0], versusGame.endTick)!.pieces} pieces)`, us(() => replayFeatures(versusGame.replays[0], versusGame.endTick), 30));

console.log('measuring alone, lock ticks given:');
const lockTicks: number[] = [];
const result = simulateReplay(marathon.replay, { lockTicks });
const inputs = packEvents(marathon.replay.events);
line('  marathon', us(() => timingFeatures({ inputs, lockTicks, gameTicks: result.ticks, ppsWindow: TIMING_LIMITS.ppsWindowPieces, pressWindowTicks: TIMING_LIMITS.pressWindowTicks }), 100));

console.log('judge over a full profile:');
const row = replayFeatures(encodeReplay(sprint.replay), null)!;
const profile = Array.from({ length: PROFILE.window }, (_, i) => ({ ref: { kind: 'solo' as const, gameId: `g${i}` }, row: { ...row, pps: row.pps + (i % 5) / 10 } }));
line(`  ${PROFILE.window} games`, us(() => judgeProfile(profile, 'solo'), 1000));
