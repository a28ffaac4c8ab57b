import { describe, expect, it } from 'vitest';
import { announcement } from '@/components/game/announce';
import { MODES } from '@/lib/engine';
import { transportMessage } from '@/components/replay/TransportAnnouncer';
import type { VerifiedGame } from '@/lib/client/api';
import type { PlayState } from '@/lib/client/play-controller';
import { PERIOD_IDS, PERIODS } from '@/lib/periods';
import { hardDropGame, straightRun } from '@/tests/support/replays';

const TABS = PERIOD_IDS.map((id) => ({ id, tab: PERIODS[id].tab }));

const ticket = { gameId: 'g1', seed: 's', mode: 'marathon' as const, rulesVersion: 1, issuedAt: '2026-11-22T00:00:00Z', expiresAt: '2026-11-22T03:00:00Z' };

/** The snapshot at the end of a real (topped-out) game. */
function endedSnapshot() {
  const { replay, result } = hardDropGame('marathon', 'announce');
  return straightRun(replay, result.ticks + 1).snapshot();
}

const verified = (over: Partial<VerifiedGame>): VerifiedGame => ({
  game: { id: 'g1', mode: 'marathon', score: 0, lines: 0, level: 1, ticks: 0, pieces: 0, pps: 0, kpp: 0, clears: 0, finished: false, toppedOut: true, week: '2026-W47', createdAt: '', reviewStatus: null },
  personalBest: false,
  rank: { all: 3, week: 1, day: 1 },
  guest: false,
  review: null,
  ...over,
});

describe('play page announcements', () => {
  it('say the countdown, pause and errors, and stay the same for the whole of play', () => {
    expect(announcement({ phase: 'loading' }, MODES.marathon, TABS)).toBe('');
    expect(announcement({ phase: 'countdown', count: 3, ticket }, MODES.marathon, TABS)).toBe('3');
    expect(announcement({ phase: 'playing', ticket }, MODES.marathon, TABS)).toBe('Go');
    expect(announcement({ phase: 'paused', ticket }, MODES.marathon, TABS)).toMatch(/^Paused/);
    expect(announcement({ phase: 'paused', ticket, redeal: true }, MODES.sprint, TABS)).toMatch(/new game; this pause costs no rank/);
    expect(announcement({ phase: 'ticketError', message: 'Too many games.' }, MODES.marathon, TABS)).toBe('Could not start a game: Too many games.');
  });

  it('say the result, then the verified rank or why it was not accepted', () => {
    const result = endedSnapshot();
    const ended = (submit: Extract<PlayState, { phase: 'ended' }>['submit']): PlayState => ({ phase: 'ended', ticket, result, submit });
    const head = `Game over: ${result.score.toLocaleString('en-US')} points, ${result.lines} lines.`;
    expect(announcement(ended({ status: 'verifying' }), MODES.marathon, TABS)).toBe(`${head} Verifying…`);
    expect(announcement(ended({ status: 'verified', verified: verified({ personalBest: true }) }), MODES.marathon, TABS)).toBe(
      `${head} Verified. New personal best! Rank all time #3, this week #1, today #1.`,
    );
    expect(announcement(ended({ status: 'verified', verified: verified({ guest: true }) }), MODES.marathon, TABS)).toContain('Sign in to save this score.');
    expect(announcement(ended({ status: 'failed', message: 'Replay does not match.' }), MODES.marathon, TABS)).toContain('did not accept this game: Replay does not match.');
    // Saved on the device only when it was: with storage full the page must not promise it.
    expect(announcement(ended({ status: 'queued', message: 'Offline.', saved: true }), MODES.marathon, TABS)).toBe(`${head} Not submitted yet: Offline. It is saved on this device.`);
    expect(announcement(ended({ status: 'queued', message: 'Offline.', saved: false }), MODES.marathon, TABS)).toBe(
      `${head} Not submitted yet: Offline. It could not be saved on this device: press Retry before leaving.`,
    );
    // A time the mode ranks is said as the time: Survival's however it ended, Sprint's only when finished.
    const over = { ...result, finished: false, tick: 6000 };
    const survival = announcement({ phase: 'ended', ticket, result: over, submit: { status: 'verifying' } }, MODES.survival, TABS);
    expect(survival).toBe(`Game over: 1:40.00, ${result.lines} lines. Verifying…`);
    expect(announcement({ phase: 'ended', ticket, result: over, submit: { status: 'verifying' } }, MODES.sprint, TABS)).toBe(`${head} Verifying…`);
  });
});

describe('replay transport announcements', () => {
  it('say playing and the speed, or where it is paused', () => {
    expect(transportMessage({ playing: true, tick: 500, end: 3600, speed: 2 })).toBe('Playing at 2× speed');
    expect(transportMessage({ playing: false, tick: 300, end: 3600, speed: 1 })).toBe('Paused at 0:05.00 of 1:00.00');
    expect(transportMessage({ playing: false, tick: 3600, end: 3600, speed: 1 })).toBe('End of replay, 1:00.00 of 1:00.00');
  });
});
