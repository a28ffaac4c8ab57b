'use client';

import Link from 'next/link';
import type { MatchView } from '@/lib/client/live/versus-session';
import { formatRating, formatRatingChange, formatSetScore } from '@/lib/ui/versus';

const button = 'rounded-lg px-4 py-2 text-sm font-semibold';

/**
 * The end of a match: who won, the set, the rating change (ranked) and the way to its replay;
 * back to the room when the match was a room's (the server opens it again for both players).
 */
export function VersusResult({ match, names, onRoom }: { match: MatchView; names: [string, string]; onRoom: (() => void) | null }) {
  const over = match.over!;
  const you = match.seat;
  const won = over.winner === you;
  const rating = over.ratings?.[you];
  return (
    <div data-testid="versus-result" data-won={String(won)} className="space-y-3 rounded-xl bg-field-panel/95 p-6 text-center text-field-fg">
      <p className="text-3xl font-black">{won ? 'You won' : 'You lost'}</p>
      <p className="font-mono text-lg tabular-nums">
        {formatSetScore([over.score[you], over.score[you === 0 ? 1 : 0]])}
        {over.reason === 'forfeit' && <span className="block font-sans text-sm text-field-muted">{won ? `${names[you === 0 ? 1 : 0]} left the match` : 'You left the match'}</span>}
      </p>
      {rating && (
        <p data-testid="rating-change">
          Rating {formatRating(rating.before)} → <span className="font-bold">{formatRating(rating.after)}</span> ({formatRatingChange(rating.before, rating.after)})
        </p>
      )}
      {over.ranked && over.noContest && (
        <p data-testid="no-contest" className="text-sm text-field-muted">
          {won ? 'No contest: your opponent left before the match got going, so your rating and weekly wins stay as they were.' : 'You left before the match got going: it counts as a loss for you only.'}
        </p>
      )}
      {!over.ranked && <p className="text-sm text-field-muted">Unranked: ratings did not change.</p>}
      <div className="flex flex-wrap justify-center gap-2">
        {over.stored && (
          <Link className={`${button} bg-primary text-on-primary hover:bg-primary-hover`} href={`/versus/matches/${match.matchId}`}>
            Watch the replay
          </Link>
        )}
        {onRoom ? (
          <button type="button" className={`${button} border border-field-line hover:bg-field`} onClick={onRoom}>Back to the room</button>
        ) : (
          <a className={`${button} border border-field-line hover:bg-field`} href="/versus">Play again</a>
        )}
      </div>
    </div>
  );
}
