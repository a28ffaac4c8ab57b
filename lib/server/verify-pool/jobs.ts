import 'server-only';
import { decodeReplay, GameConfigError, ReplayDecodeError, ReplayError, simulateReplay, type Mode, type ReplayResult } from '@/lib/engine';
import type { Submission } from '@/lib/validations/games';
import { verifySubmission, type TicketFacts, type VerifyFailure } from '@/lib/server/games/verify';
import type { TimingFlag } from '@/lib/server/games/plausibility';
import { inspectTiming } from '@/lib/server/moderation/inspect';
import { replayFeatures } from '@/lib/server/integrity/features';
import { verifyMatch, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { verifyRoomMatch, type RoomMatchRecord } from '@/lib/server/versus/room-verify';
import { finesseFaultsOf } from '@/lib/server/games/finesse';
import type { JobTable } from '@/lib/server/verify-pool/pool';

/**
 * What a verified solo submission proves, without the decoded replay (only its mode and rules cross
 * back), and its finesse faults (null if they could not be counted: the game is stored without).
 */
export type SoloVerdict = VerifyFailure | { ok: true; mode: Mode; rulesVersion: number; result: ReplayResult; flag: TimingFlag | null; finesseFaults: number | null };

/** A recorded live stream re-simulated, or why it cannot be (the replay's own fault). */
export type StreamVerdict = { ok: true; result: ReplayResult } | { ok: false; message: string };

/**
 * Every simulation longer than a live batch, as a job the verification workers run: the same pure
 * decisions as before, off the event loop that serves requests and live games. The database work
 * stays with the caller, around the job.
 */
export const JOBS = {
  solo: (input: { ticket: TicketFacts; submission: Submission; now: Date }): SoloVerdict => {
    const verdict = verifySubmission(input.ticket, input.submission, input.now);
    if (!verdict.ok) return verdict;
    // Counted here, in the job that verified the replay, so the game's one store statement carries it.
    const finesseFaults = finesseFaultsOf(input.submission.replay);
    return { ok: true, mode: verdict.replay.mode, rulesVersion: verdict.replay.rulesVersion, result: verdict.result, flag: verdict.flag, finesseFaults };
  },
  match: (record: VersusMatchRecord) => verifyMatch(record),
  /** A room's set, every seat through the referee again (room-verify.ts); the score crosses back as pairs. */
  room: (record: RoomMatchRecord) => {
    const v = verifyRoomMatch(record);
    return v.ok ? { ok: true as const, score: [...v.score], firstPieces: v.firstPieces } : v;
  },
  timing: (encoded: string) => inspectTiming(encoded),
  /** A stored game's feature rows, one per replay (integrity/record.ts); null for one that cannot be read. */
  features: (replays: Array<{ encoded: string; endTick: number | null }>) => replays.map((r) => replayFeatures(r.encoded, r.endTick)),
  stream: (encoded: string): StreamVerdict => {
    try {
      return { ok: true, result: simulateReplay(decodeReplay(encoded)) };
    } catch (error) {
      if (error instanceof ReplayError || error instanceof ReplayDecodeError || error instanceof GameConfigError) return { ok: false, message: `${error.name}: ${error.message}` };
      throw error;
    }
  },
} satisfies JobTable;

export type Jobs = typeof JOBS;
export type JobName = keyof Jobs;
