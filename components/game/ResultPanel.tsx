'use client';

import Link from 'next/link';
import { isRankable, type Mode } from '@/lib/engine';
import type { PlayState } from '@/lib/client/play-controller';
import { formatPoints, formatPps, formatTime } from '@/lib/ui/format';
import { formatResult } from '@/lib/ui/modes';
import { PERIOD_IDS, PERIODS } from '@/lib/periods';
import { boardHref } from '@/lib/ui/links';
import { Button } from '@/components/ui/Button';
import { buttonClass } from '@/components/ui/button-class';
import { FinesseResult } from '@/components/game/FinesseResult';

type Ended = Extract<PlayState, { phase: 'ended' }>;

export function ResultPanel({ state, mode, onRetry, onRestart }: { state: Ended; mode: Mode; onRetry: () => void; onRestart: () => void }) {
  const r = state.result;
  const headline = r.finished ? (r.reason === 'timeUp' ? 'Time!' : 'Finished!') : r.reason === 'wrongClear' ? 'Game over: a clear that does not count' : r.reason === 'tooHigh' ? 'Game over: too high to clear' : 'Game over';
  // A result its mode ranks reads as on the boards; an unranked one (a topped-out Sprint) by its score.
  const main = isRankable(mode, r) ? formatResult(mode, { ticks: r.tick, score: r.score, clears: r.clears }) : formatPoints(r.score);
  const s = state.submit;
  return (
    <div data-testid="result" className="w-full max-w-sm space-y-4 rounded-xl bg-field-panel/95 p-6 text-field-fg shadow-xl ring-1 ring-field-line">
      <div>
        <p className="text-sm uppercase tracking-wide text-field-muted">{headline}</p>
        <p data-testid="result-main" className="text-4xl font-bold tabular-nums">{main}</p>
        <p className="mt-1 text-sm text-field-muted tabular-nums">
          {r.lines} lines · {r.pieces} pieces · {formatPps(r.pieces, r.tick)} PPS · {formatTime(r.tick)}
        </p>
        <FinesseResult finesse={state.finesse} />
      </div>
      {/* Announced by the page's live region (announce.ts), so not a live region itself. */}
      <div data-testid="submit-status" data-status={s.status} className="space-y-2 text-sm">
        {s.status === 'practice' && (
          <p className="text-field-muted">
            Practice game: not sent, not ranked. <Link className="text-field-accent underline" href={`/play/${mode}`}>Play ranked</Link>
          </p>
        )}
        {s.status === 'verifying' && <p className="text-field-muted">Verifying…</p>}
        {s.status === 'verified' && (
          <>
            <p className="font-semibold text-field-success">Verified{s.verified.personalBest ? ' — new personal best!' : ''}</p>
            {s.verified.review && s.verified.review.status !== 'approved' ? (
              <p className="text-field-warn" data-testid="held-for-review">
                Held for review before it joins the boards: {s.verified.review.message}
              </p>
            ) : s.verified.guest ? (
              <p>
                <Link className="font-semibold text-field-accent underline" href={`/signin?callbackUrl=${SAVED_SCORE_HOME}`}>Sign in to save this score</Link>
                {' or '}
                <Link className="text-field-accent underline" href={`/signup?callbackUrl=${SAVED_SCORE_HOME}`}>create an account</Link>.
              </p>
            ) : (
              <p className="text-field-muted" data-testid="ranks">
                {PERIOD_IDS.map((p) => `${PERIODS[p].tab} ${s.verified.rank[p] ? `#${s.verified.rank[p]}` : '—'}`).join(' · ')}
              </p>
            )}
          </>
        )}
        {s.status === 'queued' && (
          <>
            <p className="text-field-warn">Not submitted yet: {s.message}</p>
            <p className="text-field-muted">
              {s.saved
                ? 'Saved on this device — it will be submitted automatically when the server is reachable.'
                : 'Not saved on this device: its storage is full or turned off. Press Retry before you leave this page.'}
            </p>
            <Button variant="field" size="md" onClick={onRetry}>Retry</Button>
          </>
        )}
        {s.status === 'failed' && <p className="text-field-danger">The server did not accept this game: {s.message}</p>}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" size="md" onClick={onRestart}>Play again (R)</Button>
        <Link className={buttonClass({ variant: 'field', size: 'md' })} href={boardHref({ mode })}>Leaderboard</Link>
      </div>
    </div>
  );
}/**
 * Where a guest who signs in or up to keep a score lands: their profile, where the game now is.
 * Back on the play page a ranked countdown started at once, before they had seen it saved.
 */
const SAVED_SCORE_HOME = encodeURIComponent('/profile');


