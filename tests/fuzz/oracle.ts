/**
 * Runs one fuzz case through the real decode + verify and judges the verdict independently:
 * the replay is re-played with stepReplay (the public Game API, one tick at a time, with events)
 * instead of simulateReplay's fast path, and every decodable string must be the one encodeReplay
 * writes for what it decodes to (one replay, one string, one digest).
 */
import { decodeReplay, encodeReplay, ReplayDecodeError, TICKS_PER_SECOND, type Replay } from '@/lib/engine';
import { ELAPSED_SLACK_MS, MAX_GAME_TICKS } from '@/lib/server/games/policy';
import { HUMAN_INPUT } from '@/lib/input-limits';
import { verifySubmission, type VerifyFailure, type VerifySuccess } from '@/lib/server/games/verify';
import { stepReplay } from '@/tests/support/step-replay';
import { BASES, type FuzzCase } from '@/tests/fuzz/corpus';

const ISSUED = new Date('2026-11-18T12:00:00Z');
/** Three hours later: any game up to the one-hour cap fits in the elapsed time. */
const NOW = new Date(ISSUED.getTime() + 3 * 60 * 60 * 1000);

export type CaseReport = {
  /** 'ok' or the verdict's code. */
  verdict: string;
  /** Null when the independent check agrees; otherwise what went wrong. */
  problem: string | null;
  /** Events decoded and ticks simulated (by the independent re-play) — the work this case cost. */
  events: number;
  ticks: number;
};

/** The production path for one case, as the server runs it for this case's ticket (also timed by bench:fuzz). */
export function verifyCase(c: FuzzCase): VerifySuccess | VerifyFailure {
  return verifySubmission(ticketOf(c), { replay: c.text, claimed: c.claimed }, NOW);
}

function ticketOf(c: FuzzCase) {
  const base = BASES[c.base]!.replay;
  return { seed: base.seed, mode: base.mode, rulesVersion: base.rulesVersion, issuedAt: ISSUED };
}

/**
 * The humanly-possible-input rule, counted afresh from HUMAN_INPUT rather than through verify's
 * checkInputRate (the code under test): events per tick, and presses in any window of ticks.
 */
function inputRateImpossible(replay: Replay): boolean {
  const perTick = new Map<number, number>();
  const presses: number[] = [];
  for (const e of replay.events) {
    perTick.set(e.tick, (perTick.get(e.tick) ?? 0) + 1);
    if (e.down) presses.push(e.tick);
  }
  if ([...perTick.values()].some((n) => n > HUMAN_INPUT.maxEventsPerTick)) return true;
  for (let last = 0, first = 0; last < presses.length; last++) {
    while (presses[first]! <= presses[last]! - HUMAN_INPUT.windowTicks) first++;
    if (last - first + 1 > HUMAN_INPUT.maxKeyDownsPerWindow) return true;
  }
  return false;
}

export function runCase(c: FuzzCase): CaseReport {
  const ticket = ticketOf(c);
  let verdict: string;
  let hash: string | null = null;
  try {
    const v = verifyCase(c);
    verdict = v.ok ? 'ok' : v.code;
    if (v.ok) hash = v.result.hash;
  } catch (e) {
    return { verdict: 'threw', problem: `verifySubmission threw: ${e instanceof Error ? e.stack : String(e)}`, events: 0, ticks: 0 };
  }
  let replay: Replay;
  try {
    replay = decodeReplay(c.text);
  } catch (e) {
    const problem = e instanceof ReplayDecodeError ? (verdict === 'replay_undecodable' ? null : `undecodable but ${verdict}`) : `decode threw ${String(e)}`;
    return { verdict, problem, events: 0, ticks: 0 };
  }
  const report = (problem: string | null, ticks = 0): CaseReport => ({ verdict, problem, events: replay.events.length, ticks });
  if (encodeReplay(replay) !== c.text) return report('decodes, but re-encodes to a different string (not canonical)');
  const expected = (() => {
    if (replay.seed !== ticket.seed) return 'seed_mismatch';
    if (replay.mode !== ticket.mode) return 'mode_mismatch';
    if (replay.rulesVersion !== ticket.rulesVersion) return 'rules_version_mismatch';
    if (inputRateImpossible(replay)) return 'input_rate_impossible';
    return null;
  })();
  if (expected) return report(verdict === expected ? null : `expected ${expected}, verify said ${verdict}`);
  // Verify re-simulated this one: re-play it the slow way and expect the same verdict.
  const s = stepReplay(replay, MAX_GAME_TICKS);
  const { claimed } = c;
  const independent = !s.ended
    ? 'game_not_over'
    : s.unusedEvents > 0
      ? 'inputs_after_end'
      : claimed.score !== s.score || claimed.lines !== s.lines || claimed.ticks !== s.ticks
        ? 'result_mismatch'
        : Math.ceil((s.ticks * 1000) / TICKS_PER_SECOND) > NOW.getTime() - ISSUED.getTime() + ELAPSED_SLACK_MS
          ? 'longer_than_elapsed'
          : 'ok';
  if (verdict !== independent) return report(`tick-by-tick re-play says ${independent}, verify said ${verdict}`, s.ticks);
  if (verdict === 'ok' && hash !== s.hash) return report(`accepted with final hash ${hash}, tick-by-tick re-play ends at ${s.hash}`, s.ticks);
  return report(null, s.ticks);
}
