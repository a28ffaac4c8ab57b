import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, encodeReplay, RULES_VERSION, type Replay } from '@/lib/engine';
import { fromBase64Url, toBase64Url } from '@/lib/engine/base64url';
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

  it('a rules-1 ticket: a replay pressing rowDown cannot pass as a rules-1 game', () => {
    const old = { ...ticket, rulesVersion: 1 };
    const replay: Replay = {
      rulesVersion: RULES_VERSION, mode: 'marathon', seed: SEED, handling: { ...DEFAULT_HANDLING },
      events: [{ tick: 0, key: 'rowDown', down: true }, { tick: 1, key: 'rowDown', down: false }],
    };
    const claimed = { score: 1, lines: 0, ticks: 2 };
    // As it is: the rules versions differ.
    expect(verifySubmission(old, { replay: encodeReplay(replay), claimed }, after(60))).toMatchObject({ ok: false, code: 'rules_version_mismatch' });
    // Its rules byte rewritten to 1: format 3 does not carry rules 1 (format 1 has no id for the key).
    const bytes = fromBase64Url(encodeReplay(replay))!;
    bytes[3] = 1;
    expect(verifySubmission(old, { replay: toBase64Url(bytes), claimed }, after(60))).toMatchObject({ ok: false, code: 'replay_undecodable' });
  });
});
