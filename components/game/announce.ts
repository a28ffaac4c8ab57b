import type { RankBy } from '@/lib/engine';
import type { PlayState } from '@/lib/client/play-controller';
import type { PeriodId } from '@/lib/periods';
import { formatTime } from '@/lib/ui/format';

/**
 * What a screen reader should hear in each state of the play page. It changes only when the phase,
 * the countdown or the submission changes, never during play, so the live region is not flooded.
 */
/** The boards a verified game is ranked on, by their tabs (the server page passes them, so the periods' date arithmetic stays out of the first load). */
export type PeriodTabs = readonly { id: PeriodId; tab: string }[];
/**
 * How the mode's results rank (MODES' `rankBy` and `needsFinish`), passed by the server page: the
 * engine's mode table would bring the whole engine into the page's first load.
 */
export type ModeRanking = { rankBy: RankBy; needsFinish: boolean };

export function announcement(state: PlayState, ranking: ModeRanking, periods: PeriodTabs): string {
  switch (state.phase) {
    case 'loading':
      return '';
    case 'ticketError':
      return `Could not start a game: ${state.message}`;
    case 'countdown':
      return String(state.count);
    case 'playing':
      return 'Go';
    case 'paused':
      return state.redeal ? 'Paused before the game began. Press P or Escape for a new game; this pause costs no rank.' : 'Paused. Press P or Escape to resume.';
    case 'ended': {
      const r = state.result;
      const headline = r.finished ? (r.reason === 'timeUp' ? 'Time' : 'Finished') : 'Game over';
      // A time the mode ranks reads as the time: a finished Sprint's, and a Survival's however it ended.
      const main = ranking.rankBy === 'time' && (r.finished || !ranking.needsFinish) ? formatTime(r.tick) : `${r.score.toLocaleString('en-US')} points`;
      return `${headline}: ${main}, ${r.lines} lines. ${submitted(state.submit, periods)}`;
    }
  }
}

function submitted(s: Extract<PlayState, { phase: 'ended' }>['submit'], periods: PeriodTabs): string {
  switch (s.status) {
    case 'practice':
      return 'Practice game, not ranked.';
    case 'verifying':
      return 'Verifying…';
    case 'queued':
      return `Not submitted yet: ${s.message} ${s.saved ? 'It is saved on this device.' : 'It could not be saved on this device: press Retry before leaving.'}`;
    case 'failed':
      return `The server did not accept this game: ${s.message}`;
    case 'verified': {
      const v = s.verified;
      const best = v.personalBest ? ' New personal best!' : '';
      if (v.review && v.review.status !== 'approved') return `Verified, held for review.${best}`;
      if (v.guest) return `Verified.${best} Sign in to save this score.`;
      const rank = (n: number | null) => (n ? `#${n}` : 'none');
      return `Verified.${best} Rank ${periods.map((p) => `${p.tab.toLowerCase()} ${rank(v.rank[p.id])}`).join(', ')}.`;
    }
  }
}
