import 'server-only';
import {
  decodeReplay, encodeReplay, isRoomRules, isVersusMode, MAX_FIRST_TO, MAX_MATCH_SEED_LENGTH, ReplayDecodeError, ReplayError, simulateReplay,
  VERSUS_RULES_VERSIONS, type AnyMode, type Replay, type ReplayResult, type VersusMatch, type VersusMode,
} from '@/lib/engine';
import { MAX_GAME_TICKS } from '@/lib/server/games/policy';
import { versusReplaySpan } from '@/lib/versus/replay-span';

/** One game of a finished set as the match host reports it. */
export type VersusGameRecord = {
  /** The seat that won; null for a draw (replayed, not counted). */
  winnerSeat: 0 | 1 | null;
  reason: 'topOut' | 'goal' | 'forfeit';
  /** The deciding tick. */
  endTick: number;
  /** Both seats' versus replays (encodeReplay text). */
  replays: [string, string];
};

export type VersusMatchRecord = {
  mode: AnyMode;
  seed: string;
  firstTo: number;
  winnerSeat: 0 | 1;
  endReason: 'games' | 'forfeit';
  games: VersusGameRecord[];
};

export type VerifiedGame = { results: [ReplayResult, ReplayResult]; rulesVersion: number };
export type VersusVerifySuccess = { ok: true; mode: VersusMode; score: [number, number]; games: VerifiedGame[] };
export type VersusVerifyFailure = { ok: false; code: VersusRefusal; message: string };
export type VersusRefusal =
  | 'invalid_match' | 'replay_undecodable' | 'replay_mismatch' | 'replay_invalid' | 'inputs_after_end'
  | 'garbage_mismatch' | 'outcome_mismatch' | 'score_mismatch';

const fail = (code: VersusRefusal, message: string): VersusVerifyFailure => ({ ok: false, code, message });

/**
 * Decides whether a finished match is proven by its replays: every game's two replays are
 * re-simulated alone, the garbage each seat received is exactly what the other's replay sent (in
 * order; messages still in flight at the end may be missing), each game's outcome follows from
 * the two simulations, and the set's score and winner from the games. Pure: the database work is
 * in store.ts.
 *
 * Not checked: when each message was acknowledged against when it was sent (the two replays have
 * separate clocks; the referee enforced the deadline live), and which seat left in a forfeit.
 */
export function verifyMatch(record: VersusMatchRecord): VersusVerifySuccess | VersusVerifyFailure {
  const { mode, seed, firstTo, games } = record;
  if (!isVersusMode(mode)) return fail('invalid_match', `${String(mode)} is not a versus mode.`);
  if (!Number.isInteger(firstTo) || firstTo < 1 || firstTo > MAX_FIRST_TO) return fail('invalid_match', `firstTo must be 1–${MAX_FIRST_TO}.`);
  if (seed.length < 1 || seed.length > MAX_MATCH_SEED_LENGTH) return fail('invalid_match', 'The match seed has the wrong length.');
  if (games.length < 1 || games.length > firstTo * 2 + 8) return fail('invalid_match', `A first-to-${firstTo} set cannot have ${games.length} games.`);
  const verified: VerifiedGame[] = [];
  const score: [number, number] = [0, 0];
  for (let i = 0; i < games.length; i++) {
    const game = verifyGame(mode, `${seed}.${i}`, games[i]!);
    if (!game.ok) return fail(game.code, `Game ${i + 1}: ${game.message}`);
    verified.push(game.game);
    const w = games[i]!.winnerSeat;
    if (w !== null) score[w]++;
    const decided = score[0] >= firstTo || score[1] >= firstTo;
    const last = i === games.length - 1;
    if (decided && !last) return fail('score_mismatch', `The set was decided after game ${i + 1}, but ${games.length} were played.`);
  }
  const last = games.at(-1)!;
  if (record.endReason === 'forfeit') {
    if (last.reason !== 'forfeit' || last.winnerSeat !== record.winnerSeat) return fail('score_mismatch', 'A forfeited set ends on a game forfeited to its winner.');
  } else if (score[record.winnerSeat] !== firstTo) {
    return fail('score_mismatch', `Seat ${record.winnerSeat} won ${score[record.winnerSeat]} games, not ${firstTo}.`);
  }
  return { ok: true, mode, score, games: verified };
}

type GameCheck = { ok: true; game: VerifiedGame } | { ok: false; code: VersusRefusal; message: string };

function verifyGame(mode: VersusMode, seed: string, record: VersusGameRecord): GameCheck {
  const replays: Replay[] = [];
  for (const text of record.replays) {
    try {
      replays.push(decodeReplay(text));
    } catch (error) {
      if (error instanceof ReplayDecodeError) return { ok: false, code: 'replay_undecodable', message: `a replay could not be decoded (${error.code}).` };
      throw error;
    }
  }
  const [r0, r1] = replays as [Replay, Replay];
  for (const r of [r0, r1]) {
    // A room's replay (rules 7) is proven by the room's lockstep referee only (room-verify.ts).
    if (r.mode !== mode || r.seed !== seed || !VERSUS_RULES_VERSIONS.includes(r.rulesVersion) || isRoomRules(r.rulesVersion) || r.rulesVersion !== r0.rulesVersion)
      return { ok: false, code: 'replay_mismatch', message: `each replay must be a ${mode} game with seed ${seed} under the same versus rules.` };
  }
  // Under keyed rules each seat's holes are its own stream: a replay stands only in its own seat.
  if ((r0.seat !== undefined || r1.seat !== undefined) && (r0.seat !== 0 || r1.seat !== 1))
    return { ok: false, code: 'replay_mismatch', message: 'each replay must be played from its own seat.' };
  if (!Number.isInteger(record.endTick) || record.endTick < 0 || record.endTick > MAX_GAME_TICKS)
    return { ok: false, code: 'outcome_mismatch', message: 'the deciding tick is out of range.' };
  const sends: [Array<{ tick: number; size: number }>, Array<{ tick: number; size: number }>] = [[], []];
  const results: ReplayResult[] = [];
  for (const s of [0, 1] as const) {
    const r = replays[s]!;
    // Far enough to see the deciding tick and every recorded event, never past an hour.
    try {
      results.push(simulateReplay(r, { maxTicks: Math.min(MAX_GAME_TICKS, versusReplaySpan(r, record.endTick)), sends: sends[s] }));
    } catch (error) {
      if (error instanceof ReplayError) return { ok: false, code: 'replay_invalid', message: error.message };
      throw error;
    }
  }
  const [a, b] = results as [ReplayResult, ReplayResult];
  // Garbage first: a forged message usually also changes how the game ends.
  for (const s of [0, 1] as const) {
    const got = replays[s]!.garbage ?? [];
    const sent = sends[s === 0 ? 1 : 0];
    if (got.length > sent.length || got.some((g, i) => g.size !== sent[i]!.size))
      return { ok: false, code: 'garbage_mismatch', message: `seat ${s} received garbage the other replay never sent.` };
  }
  for (const r of [a, b]) {
    if (r.unusedEvents > 0 || (r.versus?.unusedGarbage ?? 0) > 0) return { ok: false, code: 'inputs_after_end', message: 'a replay has inputs or garbage after its game ended.' };
  }
  const why = outcomeProblem(record, [a, b]);
  if (why) return { ok: false, code: 'outcome_mismatch', message: why };
  return { ok: true, game: { results: [a, b], rulesVersion: r0.rulesVersion } };
}

/** Why the claimed outcome does not follow from the two simulations, or null when it does. */
function outcomeProblem(record: VersusGameRecord, results: [ReplayResult, ReplayResult]): string | null {
  const t = record.endTick;
  const endedBefore = (r: ReplayResult) => r.ended && r.ticks < t;
  const endsAt = (r: ReplayResult, goal: boolean) => r.ended && r.ticks === t && r.finished === goal;
  if (results.some(endedBefore)) return `a game ended before the deciding tick ${t}.`;
  const w = record.winnerSeat;
  if (w === null) {
    const goal = record.reason === 'goal';
    return record.reason !== 'forfeit' && results.every((r) => endsAt(r, goal)) ? null : 'a draw needs both games to end the same way on the same tick.';
  }
  const [winner, loser] = [results[w], results[w === 0 ? 1 : 0]];
  switch (record.reason) {
    case 'topOut':
      return endsAt(loser, false) && !endsAt(winner, false) ? null : `the loser did not top out at tick ${t} ahead of the winner.`;
    case 'goal':
      return endsAt(winner, true) && !endsAt(loser, true) ? null : `the winner did not reach the line goal at tick ${t} ahead of the loser.`;
    case 'forfeit':
      return null;
  }
}

/** How a set ended: by its games, or by a forfeit. */
export const endReasonOf = (match: VersusMatch): VersusMatchRecord['endReason'] => (match.forfeitedBy === null ? 'games' : 'forfeit');

/** The record of a finished set as the referee played it: what the match host stores. */
export function recordOf(match: VersusMatch, seed: string, mode: VersusMode): VersusMatchRecord {
  const winnerSeat = match.winner;
  if (winnerSeat === null) throw new Error('the set is not over');
  return {
    mode,
    seed,
    firstTo: match.firstTo,
    winnerSeat,
    endReason: endReasonOf(match),
    games: match.games.map((g) => {
      const o = g.outcome;
      if (!o) throw new Error('a game of the set is not decided');
      return { winnerSeat: o.winner, reason: o.reason, endTick: o.tick, replays: [encodedOrEmpty(g.replay(0)), encodedOrEmpty(g.replay(1))] };
    }),
  };
}

/**
 * A seat's replay that cannot be encoded (over the replay limits) is left empty rather than
 * throwing, which would lose the whole match: the store then holds that seat to it (store.ts).
 */
function encodedOrEmpty(replay: Replay): string {
  try {
    return encodeReplay(replay);
  } catch (error) {
    if (error instanceof ReplayError) return '';
    throw error;
  }
}
