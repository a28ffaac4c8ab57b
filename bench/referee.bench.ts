/**
 * Versus engine benchmark (not a test): `npm run bench:referee`. Prints medians over repeated runs.
 * 1. Referee cost: both players' recorded streams of a ~3-minute Race 30 fed back through
 *    VersusGame (routing, acknowledgements, outcome), per match and per tick; and how many matches
 *    one core could referee live at 60 ticks per second per player.
 * 2. Verification of that finished match (verifyMatch: both replays decoded, re-simulated and
 *    cross-checked), what the server does when a match ends.
 * 3. The same, A/B in one run, under versus rules 4 (mulberry32, acknowledged garbage) and 6
 *    (ChaCha20 keyed by the seed, garbage that rises a fixed delay after it is sent): decision 0020
 *    allows the new rules at most 10% more.
 * 4. A 16-seat room (rules 7, lib/engine/referee.ts): sixteen bots' streams of a free-for-all with a
 *    3-minute time limit played again through the N-seat referee, and its verification; CPU per
 *    seat-second beside the 2-seat referee's per player-second, measured in the same run.
 * The bots that made the streams are not timed.
 */
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, replayRoom, RoomMatch, VERSUS_RULES_VERSION, VersusGame, VersusMatch, type InputEvent, type Replay } from '@/lib/engine';
import { roomRecordOf, verifyRoomMatch } from '@/lib/server/versus/room-verify';
import { recordOf, verifyMatch } from '@/lib/server/versus/verify';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const H = [DEFAULT_HANDLING, DEFAULT_HANDLING] as const;

/** A Race 30 paced to about three minutes (~75 pieces at ~140 ticks each) under a versus rules version, and how to referee and verify it again. */
function workload(rulesVersion: number) {
  const match = new VersusMatch({ mode: 'race30', seed: 'bench-referee', handling: H, firstTo: 1, rulesVersion });
  playMatch(match, [new VersusBot({ seed: 'br/a', pace: 130 }), new VersusBot({ seed: 'br/b', pace: 150, mistakes: 0.05 })]);
  const game = match.games[0]!;
  const record = recordOf(match, 'bench-referee', 'race30');
  const replays = [game.replay(0), game.replay(1)] as [Replay, Replay];

  /** Per player, the inputs and (rules 4) how many messages were acknowledged at each tick, as the host would pass them. */
  const streams = replays.map((r) => {
    const inputs = new Map<number, InputEvent[]>();
    for (const e of r.events) (inputs.get(e.tick) ?? inputs.set(e.tick, []).get(e.tick)!).push({ key: e.key, down: e.down });
    const acks = new Map<number, number>();
    for (const g of r.garbage ?? []) acks.set(g.tick, (acks.get(g.tick) ?? 0) + 1);
    return { inputs, acks };
  });

  function referee(): number {
    const g = new VersusGame({ mode: 'race30', seed: replays[0].seed, handling: H, rulesVersion });
    const NONE: InputEvent[] = [];
    let n = 0;
    for (let t = 0; !g.outcome && t < 20_000; t++) {
      for (const p of [0, 1] as const) {
        const now = g.tickOf(p);
        const acks = g.awaiting(p).slice(0, streams[p]!.acks.get(now) ?? 0).map((m) => m.id);
        g.tick(p, streams[p]!.inputs.get(now) ?? NONE, acks);
        n++;
      }
    }
    if (g.game(0).hash() !== game.game(0).hash() || g.game(1).hash() !== game.game(1).hash()) throw new Error('referee replay diverged');
    return n;
  }
  const verify = () => {
    if (!verifyMatch(record).ok) throw new Error('match does not verify');
  };
  return { game, referee, verify, ticks: [game.tickOf(0), game.tickOf(1)] };
}

function time(fn: () => void, runs: number): number[] {
  for (let i = 0; i < 3; i++) fn();
  const out: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

const now = workload(VERSUS_RULES_VERSION);
let playerTicks = 0;
const refMs = median(time(() => (playerTicks = now.referee()), 15));
const verifyMs = median(time(now.verify, 15));
const seconds = Math.max(...now.ticks) / 60;
console.log(`match: Race 30 under rules ${VERSUS_RULES_VERSION}, ${seconds.toFixed(0)} s of play (${now.ticks.join(' + ')} ticks), outcome ${JSON.stringify(now.game.outcome)}`);
console.log(`referee: ${refMs.toFixed(1)} ms per match, ${((refMs * 1000) / playerTicks).toFixed(2)} µs per player tick; one core keeps up with ~${Math.floor(((playerTicks / refMs) * 1000) / 120)} live matches`);
console.log(`verification at the end of the match: ${verifyMs.toFixed(1)} ms (both replays decoded, re-simulated, cross-checked)`);

// A/B: alternating pairs, the ratio the median of the pairs' ratios.
const old = workload(4);
const ratios = { referee: [] as number[], verify: [] as number[] };
for (let pair = 0; pair < 9; pair++) {
  const [a, b] = [median(time(old.referee, 3)), median(time(now.referee, 3))];
  const [c, d] = [median(time(old.verify, 3)), median(time(now.verify, 3))];
  ratios.referee.push(b / a);
  ratios.verify.push(d / c);
}
console.log(`rules 6 ÷ rules 4 (same bots, ${old.ticks.join(' + ')} and ${now.ticks.join(' + ')} ticks): referee ${median(ratios.referee).toFixed(3)}, verification ${median(ratios.verify).toFixed(3)} (median of 9 alternating pairs; target ≤ 1.10)`);

// 4. A 16-seat room: bots at ~2–3 pieces a second (1-tick taps, then 15–30 idle ticks a piece),
// a free-for-all cut at 3 minutes by the room's time limit, so the run always ends.
const SEATS = 16;
const roomRules = { ...DEFAULT_ROOM_RULES, firstTo: 1, messiness: 20, timeLimitTicks: 3 * 60 * 60 };
const roomMatch = new RoomMatch({ mode: 'battle', seed: 'bench-room', rules: roomRules, handling: Array.from({ length: SEATS }, () => DEFAULT_HANDLING) });
const room = roomMatch.current;
const roomBots = Array.from({ length: SEATS }, (_, s) => new VersusBot({ seed: `rm/${s}`, pace: 15 + s, mistakes: 0.02 * (s % 4) }));
for (let t = 0; !room.outcome && t < 20_000; t++) for (let s = 0; s < SEATS && !room.outcome; s++) if (!room.isOut(s)) room.play(s, roomBots[s]!.inputs(room, s));
roomMatch.advance();
const roomRecord = roomRecordOf(roomMatch, 'bench-room', 'battle');
const roomReplays = Array.from({ length: SEATS }, (_, s) => room.replay(s));
const seatTicks = roomReplays.reduce((n, _, s) => n + room.game(s).tickNo, 0);
const rerun = () => {
  const { game } = replayRoom({ mode: 'battle', seed: 'bench-room.0', rules: roomRules }, roomReplays, room.leaves());
  if (game.game(0).hash() !== room.game(0).hash()) throw new Error('room replay diverged');
};
const roomVerify = () => {
  if (!verifyRoomMatch(roomRecord).ok) throw new Error('room does not verify');
};
const roomMs = median(time(rerun, 7));
const roomVerifyMs = median(time(roomVerify, 7));
// The 2-seat referee again, beside it in the same run, for the ratio.
const twoMs = median(time(() => (playerTicks = now.referee()), 7));
const perSeatSecond = (roomMs * 1000) / (seatTicks / 60);
const perPlayerSecond = (twoMs * 1000) / (playerTicks / 60);
const pieces = Array.from({ length: SEATS }, (_, s) => room.game(s).stats().pieces).reduce((a, b) => a + b, 0);
console.log(`room: ${SEATS} seats under rules 7, ${(room.tick / 60).toFixed(0)} s (${seatTicks} seat-ticks, ${(pieces / (seatTicks / 60)).toFixed(2)} pieces per seat-second), outcome ${JSON.stringify(room.outcome)}`);
console.log(`room referee: ${roomMs.toFixed(1)} ms per match, ${perSeatSecond.toFixed(1)} µs CPU per seat-second; 2-seat referee ${perPlayerSecond.toFixed(1)} µs per player-second; ratio ${(perSeatSecond / perPlayerSecond).toFixed(2)}`);
console.log(`room verification at the end: ${roomVerifyMs.toFixed(1)} ms (16 replays decoded, played again through the referee, cross-checked)`);
