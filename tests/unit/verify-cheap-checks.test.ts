import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, encodeReplay, RULES_VERSION, type Replay } from '@/lib/engine';
import { verifySubmission } from '@/lib/server/games/verify';
import { idleGame } from '@/tests/support/replays';

const ISSUED = new Date('2026-11-18T12:00:00Z');
const SEED = 'cheap-checks-seed';
const ticket = { seed: SEED, mode: 'marathon', rulesVersion: RULES_VERSION, issuedAt: ISSUED };
const after = (seconds: number) => new Date(ISSUED.getTime() + seconds * 1000);

describe('cheap checks come before the simulation', () => {
  it('refuses inputs past the time elapsed since the seed was issued, without simulating them', () => {
    // A key held until tick 200,000 (55 minutes), sent 10 s after the seed was issued: before this
    // check, the server simulated the game until it ended before looking at the clock.
    const replay: Replay = {
      rulesVersion: RULES_VERSION,
      mode: 'marathon',
      seed: SEED,
      handling: { ...DEFAULT_HANDLING },
      events: [
        { tick: 0, key: 'left', down: true },
        { tick: 200_000, key: 'left', down: false },
      ],
    };
    const verdict = verifySubmission(ticket, { replay: encodeReplay(replay), claimed: { score: 0, lines: 0, ticks: 0 } }, after(10));
    expect(verdict).toMatchObject({ ok: false, code: 'longer_than_elapsed', burn: true });
  });

  it('simulates no further than the elapsed time allows', () => {
    const { replay, result } = idleGame('marathon', SEED);
    const seconds = result.ticks / 60;
    const claimed = { score: result.score, lines: result.lines, ticks: result.ticks };
    // Sent too soon for the game to have been played: refused, and the simulation stopped early.
    const early = verifySubmission(ticket, { replay: encodeReplay(replay), claimed }, after(seconds / 2));
    expect(early).toMatchObject({ ok: false, code: 'longer_than_elapsed', message: expect.stringMatching(/at least/) });
    // Sent once it could have been played: accepted.
    expect(verifySubmission(ticket, { replay: encodeReplay(replay), claimed }, after(seconds + 1))).toMatchObject({ ok: true });
  });
});
