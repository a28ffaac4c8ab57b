import 'server-only';
import {
  decodeSoloPacked,
  ReplayDecodeError,
  ReplayError,
  simulatePacked,
  TICKS_PER_SECOND,
  type Mode,
  type PackedInputs,
  type PackedReplay,
  type ReplayResult,
} from '@/lib/engine';
import type { Submission } from '@/lib/validations/games';
import { assessTiming, type TimingFlag } from '@/lib/server/games/plausibility';
import { MAX_GAME_TICKS, ELAPSED_SLACK_MS } from '@/lib/server/games/policy';
import { HumanInputGate } from '@/lib/input-limits';

export type VerifyFailure = {
  ok: false;
  code: string;
  message: string;
  /** The ticket is spent: its replay was read and found wrong, so no retry may succeed. */
  burn: boolean;
};
/** `flag`: the result is proven, but its timing looks inhuman, so it waits for review (plausibility.ts). */
export type VerifySuccess = { ok: true; replay: PackedReplay & { mode: Mode }; result: ReplayResult; flag: TimingFlag | null };

export type TicketFacts = { seed: string; mode: string; rulesVersion: number; issuedAt: Date };

const fail = (code: string, message: string, burn: boolean): VerifyFailure => ({ ok: false, code, message, burn });

/**
 * Decides whether a replay proves the result claimed for a ticket. Pure apart from the clock
 * value passed in: the database work happens around it (submit.ts).
 */
export function verifySubmission(ticket: TicketFacts, submission: Submission, now: Date): VerifySuccess | VerifyFailure {
  let replay: PackedReplay & { mode: Mode };
  try {
    // Tickets are solo games: a versus replay is refused here as undecodable for this route.
    // Packed: no object per input from here to the simulation's end.
    replay = decodeSoloPacked(submission.replay);
  } catch (error) {
    if (error instanceof ReplayDecodeError) {
      return fail('replay_undecodable', `The replay could not be decoded (${error.code}): ${error.message}`, false);
    }
    throw error;
  }
  if (replay.seed !== ticket.seed) return fail('seed_mismatch', 'The replay was not played with the seed issued for this game.', true);
  if (replay.mode !== ticket.mode) {
    return fail('mode_mismatch', `The replay is a ${replay.mode} game but this ticket is for ${ticket.mode}.`, true);
  }
  if (replay.rulesVersion !== ticket.rulesVersion) {
    return fail('rules_version_mismatch', `The replay uses rules version ${replay.rulesVersion}, the ticket ${ticket.rulesVersion}.`, true);
  }
  const rate = checkInputRate(replay);
  if (rate) return fail('input_rate_impossible', rate, true);

  // The cheap check against the clock comes before the simulation: a fresh ticket must not buy
  // a simulation of an hour of ticks (holding a key defeats the engine's fast-forward). A game
  // can have lasted at most `allowed` ticks since its seed was issued, so no input may come
  // later and the simulation stops one tick past it.
  const elapsedMs = now.getTime() - ticket.issuedAt.getTime();
  const allowed = Math.floor(((elapsedMs + ELAPSED_SLACK_MS) * TICKS_PER_SECOND) / 1000);
  const lastTick = replay.ticks.at(-1) ?? 0;
  if (allowed < MAX_GAME_TICKS && lastTick > allowed) return tooLong(lastTick, elapsedMs, 'has inputs until');

  let result: ReplayResult;
  const lockTicks: number[] = [];
  try {
    result = simulatePacked(replay, { maxTicks: Math.min(MAX_GAME_TICKS, allowed + 1), lockTicks });
  } catch (error) {
    if (error instanceof ReplayError) return fail('replay_invalid', `The replay is invalid: ${error.message}`, true);
    throw error;
  }
  if (!result.ended && allowed < MAX_GAME_TICKS) return tooLong(result.ticks, elapsedMs, 'lasts at least');
  if (!result.ended) {
    return fail('game_not_over', 'Re-simulating the replay does not reach the end of the game (finished or topped out).', true);
  }
  if (result.unusedEvents > 0) {
    return fail('inputs_after_end', `The replay has ${result.unusedEvents} input(s) after the game ended.`, true);
  }
  const { claimed } = submission;
  if (claimed.score !== result.score || claimed.lines !== result.lines || claimed.ticks !== result.ticks) {
    return fail(
      'result_mismatch',
      `The claimed result (score ${claimed.score}, lines ${claimed.lines}, ticks ${claimed.ticks}) differs from the ` +
        `re-simulated one (score ${result.score}, lines ${result.lines}, ticks ${result.ticks}).`,
      true,
    );
  }
  if (result.ticks > allowed) return tooLong(result.ticks, elapsedMs, 'lasts');
  const { flag } = assessTiming({ inputs: replay, lockTicks, ticks: result.ticks });
  return { ok: true, replay, result, flag };
}

function tooLong(ticks: number, elapsedMs: number, what: string): VerifyFailure {
  const gameMs = Math.ceil((ticks * 1000) / TICKS_PER_SECOND);
  return fail(
    'longer_than_elapsed',
    `The game ${what} ${(gameMs / 1000).toFixed(1)} s but only ${(elapsedMs / 1000).toFixed(1)} s passed since its seed was issued.`,
    true,
  );
}

/** Null when a person could have made these inputs; otherwise why not. */
export function checkInputRate({ ticks, codes }: PackedInputs): string | null {
  const gate = new HumanInputGate();
  for (let i = 0; i < ticks.length; i++) {
    const why = gate.add(ticks[i]!, (codes[i]! & 1) === 1);
    if (why) return why;
  }
  return null;
}
