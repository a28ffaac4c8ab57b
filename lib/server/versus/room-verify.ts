import 'server-only';
import {
  decodeReplay, encodeReplay, isVersusMode, MAX_MATCH_SEED_LENGTH, replayRoom, ReplayDecodeError, ROOM_RULES_VERSION, RoomInputError, type AnyMode, type Replay,
  type RoomEndReason, type RoomLeave, type RoomMatch, type RoomRules, type VersusMode,
} from '@/lib/engine';
import { roomRulesSchema, roomSeatsSchema } from '@/lib/validations/rooms';
import { MAX_GAME_TICKS } from '@/lib/server/games/policy';

/** One game of a room's set as the room host reports it. */
export type RoomGameRecord = {
  /** The winning team (a seat's own number in a free-for-all); null: a draw, replayed. */
  winnerTeam: number | null;
  reason: RoomEndReason;
  endTick: number;
  /** Every seat's replay (encodeReplay text), in seat order. */
  replays: string[];
  /** Seats that left, and the tick: the host's word, which no replay can prove. */
  leaves: RoomLeave[];
};

export type RoomMatchRecord = {
  mode: AnyMode;
  seed: string;
  /** The room's rules as the host set them before ready: every replay must carry exactly these. */
  rules: RoomRules;
  seats: number;
  winnerTeam: number;
  games: RoomGameRecord[];
};

export type RoomRefusal =
  | 'invalid_match' | 'replay_undecodable' | 'replay_mismatch' | 'rules_mismatch' | 'seat_mismatch' | 'target_forged'
  | 'inputs_after_end' | 'garbage_mismatch' | 'outcome_mismatch' | 'score_mismatch';
/** `firstPieces`: the pieces each seat played in the set's first game (a ranked set's no-contest rule reads its leavers'). */
export type RoomVerifyResult = { ok: true; score: Map<number, number>; firstPieces: number[] } | { ok: false; code: RoomRefusal; message: string };

const fail = (code: RoomRefusal, message: string) => ({ ok: false, code, message }) as const;

/**
 * Decides whether a finished room set is proven by its replays. Unlike two-seat versus, the
 * referee plays a room in lockstep, so the proof is the referee itself: every game is played again
 * from all seats' inputs and target changes, and each seat's replay must hold exactly the garbage
 * (tick and size) the referee routes to it, and the game must end when, how and for whom the host
 * said. Pure: storing is the caller's.
 */
export function verifyRoomMatch(record: RoomMatchRecord): RoomVerifyResult {
  const { mode, seed, seats, games } = record;
  if (!isVersusMode(mode)) return fail('invalid_match', `${String(mode)} is not a versus mode.`);
  if (!roomSeatsSchema.safeParse(seats).success) return fail('invalid_match', 'A room has 2–16 seats.');
  const rules = roomRulesSchema(seats).safeParse(record.rules);
  if (!rules.success) return fail('invalid_match', `The room's rules: ${rules.error.issues[0]!.message}`);
  if (seed.length < 1 || seed.length > MAX_MATCH_SEED_LENGTH) return fail('invalid_match', 'The match seed has the wrong length.');
  const firstTo = record.rules.firstTo;
  if (games.length < 1 || games.length > firstTo * seats + 8) return fail('invalid_match', `A first-to-${firstTo} set cannot have ${games.length} games.`);
  const score = new Map<number, number>();
  let firstPieces: number[] = [];
  for (let i = 0; i < games.length; i++) {
    const checked = verifyRoomGame(record, mode, `${seed}.${i}`, games[i]!);
    if ('code' in checked) return fail(checked.code, `Game ${i + 1}: ${checked.message}`);
    if (i === 0) firstPieces = checked.pieces;
    const w = games[i]!.winnerTeam;
    if (w !== null) score.set(w, (score.get(w) ?? 0) + 1);
    const decided = [...score.values()].some((n) => n >= firstTo);
    if (decided !== (i === games.length - 1)) return fail('score_mismatch', `The set was ${decided ? '' : 'not '}decided after game ${i + 1} of ${games.length}.`);
  }
  if (score.get(record.winnerTeam) !== firstTo) return fail('score_mismatch', `Team ${record.winnerTeam} did not win the set.`);
  return { ok: true, score, firstPieces };
}

/** A game's refusal, or the pieces each seat played in it. */
function verifyRoomGame(record: RoomMatchRecord, mode: VersusMode, seed: string, game: RoomGameRecord): { code: RoomRefusal; message: string } | { pieces: number[] } {
  if (game.replays.length !== record.seats) return { code: 'invalid_match', message: `a room of ${record.seats} needs ${record.seats} replays.` };
  if (!Number.isInteger(game.endTick) || game.endTick < 0 || game.endTick > MAX_GAME_TICKS) return { code: 'outcome_mismatch', message: 'the deciding tick is out of range.' };
  const badLeave = checkLeaves(game.leaves, record.seats, game.endTick);
  if (badLeave) return { code: 'invalid_match', message: badLeave };
  const replays: Replay[] = [];
  for (const text of game.replays) {
    try {
      replays.push(decodeReplay(text));
    } catch (error) {
      if (error instanceof ReplayDecodeError) return { code: 'replay_undecodable', message: `a replay could not be decoded (${error.code}).` };
      throw error;
    }
  }
  for (const [s, r] of replays.entries()) {
    if (r.mode !== record.mode || r.seed !== seed || r.rulesVersion !== ROOM_RULES_VERSION)
      return { code: 'replay_mismatch', message: `seat ${s}'s replay is not a ${record.mode} room game with seed ${seed}.` };
    if (r.room!.seat !== s) return { code: 'seat_mismatch', message: `the replay in seat ${s} was played from seat ${r.room!.seat}.` };
    if (!sameRules(r.room!.rules, record.rules) || r.nextCount !== record.rules.preview) return { code: 'rules_mismatch', message: `seat ${s}'s replay was played under other rules than the room's.` };
  }
  let rerun;
  try {
    rerun = replayRoom({ mode, seed, rules: record.rules }, replays, game.leaves, game.endTick + 1);
  } catch (error) {
    if (error instanceof RoomInputError) return { code: 'target_forged', message: error.message };
    throw error;
  }
  for (let s = 0; s < record.seats; s++) {
    const again = rerun.game.replay(s);
    if (JSON.stringify(again.garbage) !== JSON.stringify(replays[s]!.garbage)) return { code: 'garbage_mismatch', message: `seat ${s} received other garbage than the referee routes to it.` };
    if (rerun.unused[s]!.events > 0 || rerun.unused[s]!.targets > 0) return { code: 'inputs_after_end', message: `seat ${s}'s replay has inputs after its game ended.` };
  }
  const o = rerun.game.outcome;
  if (!o || o.tick !== game.endTick || o.reason !== game.reason || o.winner !== game.winnerTeam)
    return { code: 'outcome_mismatch', message: `the game does not end at tick ${game.endTick} (${game.reason}) for team ${game.winnerTeam}.` };
  return { pieces: Array.from({ length: record.seats }, (_, s) => rerun.game.game(s).stats().pieces) };
}

/**
 * The host's leaves, each a seat of the room at most once, at a tick of the game: replayRoom looks
 * at every leave on every tick, so an unbounded list would make verification run long.
 */
function checkLeaves(leaves: unknown, seats: number, endTick: number): string | null {
  if (!Array.isArray(leaves) || leaves.length > seats) return `a room of ${seats} records at most ${seats} leaves.`;
  const seen = new Set<number>();
  for (const l of leaves as Partial<RoomLeave>[]) {
    const { seat, tick } = l ?? {};
    if (!Number.isInteger(seat) || seat! < 0 || seat! >= seats || seen.has(seat!)) return 'a leave names no seat of the room, or one twice.';
    if (!Number.isInteger(tick) || tick! < 0 || tick! > endTick) return `a leave is not at a tick of the game (0–${endTick}).`;
    seen.add(seat!);
  }
  return null;
}

/** Field by field, in the rules' own key order (a rules object is plain data). */
function sameRules(a: RoomRules, b: RoomRules): boolean {
  return (Object.keys(b) as (keyof RoomRules)[]).every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k])) && Object.keys(a).length === Object.keys(b).length;
}

/** The record of a finished room set as the referee played it: what a room host stores. */
export function roomRecordOf(match: RoomMatch, seed: string, mode: VersusMode): RoomMatchRecord {
  const winnerTeam = match.winner;
  if (winnerTeam === null) throw new Error('the set is not over');
  const first = match.games[0]!;
  return {
    mode, seed, rules: first.rules, seats: first.seats, winnerTeam,
    games: match.games.map((g) => {
      const o = g.outcome;
      if (!o) throw new Error('a game of the set is not decided');
      return { winnerTeam: o.winner, reason: o.reason, endTick: o.tick, leaves: g.leaves(), replays: Array.from({ length: g.seats }, (_, s) => encodeReplay(g.replay(s))) };
    }),
  };
}
