'use client';

import Link from 'next/link';
import { isRankable, type Mode } from '@/lib/engine';
import type { PlayState } from '@/lib/client/play-controller';
import { formatPoints, formatPps, formatTime } from '@/lib/ui/format';
import { formatResult } from '@/lib/ui/modes';
import { PERIOD_IDS, PERIODS } from '@/lib/periods';
import { boardHref } from '@/lib/ui/links';

type Ended = Extract<PlayState, { phase: 'ended' }>;

const button = 'rounded-lg px-4 py-2 text-sm font-semibold';
const primary = `${button} bg-cyan-500 text-slate-950 hover:bg-cyan-400`;
const secondary = `${button} border border-slate-600 text-slate-100 hover:bg-slate-800`;

export function ResultPanel({ state, mode, onRetry, onRestart, returnTo }: { state: Ended; mode: Mode; onRetry: () => void; onRestart: () => void; returnTo: string }) {
  const r = state.result;
  const headline = r.finished ? (r.reason === 'timeUp' ? 'Time!' : 'Finished!') : 'Game over';
  // A result its mode ranks reads as on the boards; an unranked one (a topped-out Sprint) by its score.
  const main = isRankable(mode, r) ? formatResult(mode, { ticks: r.tick, score: r.score }) : formatPoints(r.score);
  const s = state.submit;
  const cb = encodeURIComponent(returnTo);
  return (
    <div data-testid="result" className="w-full max-w-sm space-y-4 rounded-xl bg-slate-900/95 p-6 text-slate-100 shadow-xl ring-1 ring-slate-700">
      <div>
        <p className="text-sm uppercase tracking-wide text-slate-400">{headline}</p>
        <p data-testid="result-main" className="text-4xl font-bold tabular-nums">{main}</p>
        <p className="mt-1 text-sm text-slate-300 tabular-nums">
          {r.lines} lines · {r.pieces} pieces · {formatPps(r.pieces, r.tick)} PPS · {formatTime(r.tick)}
        </p>
      </div>
      <div data-testid="submit-status" data-status={s.status} role="status" className="space-y-2 text-sm">
        {s.status === 'verifying' && <p className="text-slate-300">Verifying…</p>}
        {s.status === 'verified' && (
          <>
            <p className="font-semibold text-emerald-400">Verified{s.verified.personalBest ? ' — new personal best!' : ''}</p>
            {s.verified.review && s.verified.review.status !== 'approved' ? (
              <p className="text-amber-300" data-testid="held-for-review">
                Held for review before it joins the boards: {s.verified.review.message}
              </p>
            ) : s.verified.guest ? (
              <p>
                <Link className="font-semibold text-cyan-400 underline" href={`/signin?callbackUrl=${cb}`}>Sign in to save this score</Link>
                {' or '}
                <Link className="text-cyan-400 underline" href={`/signup?callbackUrl=${cb}`}>create an account</Link>.
              </p>
            ) : (
              <p className="text-slate-300" data-testid="ranks">
                {PERIOD_IDS.map((p) => `${PERIODS[p].tab} ${s.verified.rank[p] ? `#${s.verified.rank[p]}` : '—'}`).join(' · ')}
              </p>
            )}
          </>
        )}
        {s.status === 'queued' && (
          <>
            <p className="text-amber-300">Not submitted yet: {s.message}</p>
            <p className="text-slate-400">Saved on this device — it will be submitted automatically when the server is reachable.</p>
            <button type="button" className={secondary} onClick={onRetry}>Retry</button>
          </>
        )}
        {s.status === 'failed' && <p className="text-red-400" role="alert">The server did not accept this game: {s.message}</p>}
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="button" className={primary} onClick={onRestart}>Play again (R)</button>
        <Link className={secondary} href={boardHref({ mode })}>Leaderboard</Link>
      </div>
    </div>
  );
}
