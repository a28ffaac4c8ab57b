'use client';

import Link from 'next/link';
import type { MatchView } from '@/lib/client/live/versus-session';
import { RematchOffer } from '@/components/versus/RematchOffer';
import { formatBandChange, formatPlacement, formatRating, formatRatingChange, formatSetScore } from '@/lib/ui/versus';
import { Button } from '@/components/ui/Button';
import { buttonClass } from '@/components/ui/button-class';

/**
 * The end of a match: who won, the set, the rating change (ranked) with the band it moved from and
 * to, or how far into placement the player is, and the way to its replay;
 * back to the room when the match was a room's (the server opens it again for both players), or a
 * rematch after a quick match; the same bot again after a match against it.
 */
export function VersusResult({ match, names, onRoom, onRematch, onSparAgain }: { match: MatchView; names: [string, string]; onRoom: (() => void) | null; onRematch: (want: boolean) => void; onSparAgain?: (() => void) | null }) {
  const over = match.over!;
  const you = match.seat;
  const won = over.winner === you;
  const rating = over.ratings?.[you];
  const standing = rating?.placement ? formatPlacement(rating.placement) : rating?.bands ? formatBandChange(...rating.bands) : null;
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
          {standing && <> · <span className="font-semibold" data-testid="band-change">{standing}</span></>}
        </p>
      )}
      {over.ranked && over.noContest && (
        <p data-testid="no-contest" className="text-sm text-field-muted">
          {won ? 'No contest: your opponent left before the match got going, so your rating and weekly wins stay as they were.' : 'You left before the match got going: it counts as a loss for you only.'}
        </p>
      )}
      {!over.ranked && <p className="text-sm text-field-muted">Unranked: ratings did not change.</p>}
      {!over.stored && over.pending && (
        <p data-testid="store-pending" className="text-sm text-field-muted">
          Not saved yet: the server keeps trying.
        </p>
      )}
      {!onRoom && match.rematch && <RematchOffer rematch={match.rematch} you={you} opponent={names[you === 0 ? 1 : 0]} onRematch={onRematch} />}
      <div className="flex flex-wrap justify-center gap-2">
        {over.stored && (
          <Link className={buttonClass({ variant: 'primary', size: 'md' })} href={`/versus/matches/${match.matchId}`}>
            Watch the replay
          </Link>
        )}
        {onSparAgain && (
          <Button variant="field" size="md" onClick={onSparAgain} data-testid="spar-again">Play the bot again</Button>
        )}
        {onRoom ? (
          <Button variant="field" size="md" onClick={onRoom}>Back to the room</Button>
        ) : (
          <a className={buttonClass({ variant: 'field', size: 'md' })} href="/versus">Play again</a>
        )}
      </div>
    </div>
  );
}
