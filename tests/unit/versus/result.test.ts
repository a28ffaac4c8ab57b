import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MatchView } from '@/lib/client/live/versus-session';
import type { RatingChange } from '@/lib/live/versus';
import { VersusResult } from '@/components/versus/VersusResult';

function result(you: RatingChange): string {
  const other: RatingChange = { before: 1500, after: 1490, rdAfter: 90 };
  const match: MatchView = {
    matchId: 'm1', seat: 0, players: [{ name: 'ann', guest: false }, { name: 'ben', guest: false }], mode: 'battle', firstTo: 3, ranked: true,
    score: [3, 1], game: 3, state: 'over', decided: null, away: null, opponentMeter: 0,
    over: { winner: 0, score: [3, 1], reason: 'games', ranked: true, stored: true, ratings: [you, other] }, rematch: null,
  };
  return renderToStaticMarkup(createElement(VersusResult, { match, names: ['ann', 'ben'], onRoom: null, onRematch: () => {} }));
}
const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the result of a ranked match', () => {
  it('says the rating change and the band it moved from and to', () => {
    expect(text(result({ before: 1600, after: 1612, rdAfter: 79, bands: ['gold', 'platinum'] }))).toContain('Rating 1600 → 1612 (+12) · Gold → Platinum');
    expect(text(result({ before: 1600, after: 1612, rdAfter: 79, bands: ['gold', 'gold'] }))).toContain('(+12) · Gold');
  });

  it('in placement, how far into it the player is; with no band to say, the change alone', () => {
    expect(text(result({ before: 1500, after: 1540, rdAfter: 280, bands: [null, null], placement: { played: 4, of: 10 } }))).toContain('(+40) · placement 4/10');
    const html = result({ before: 1500, after: 1540, rdAfter: 120, bands: [null, null] });
    expect(text(html)).toContain('Rating 1500 → 1540 (+40)');
    expect(html).not.toContain('band-change');
  });
});

describe('the rematch on a quick match’s result', () => {
  const rendered = (rematch: MatchView['rematch'], onRoom: (() => void) | null = null) => {
    const match: MatchView = {
      matchId: 'm2', seat: 1, players: [{ name: null, guest: true, tag: '4F2A' }, { name: null, guest: true, tag: '09BC' }], mode: 'battle', firstTo: 2, ranked: false,
      score: [2, 0], game: 1, state: 'over', decided: null, away: null, opponentMeter: 0, over: { winner: 0, score: [2, 0], reason: 'games', ranked: false, stored: true }, rematch,
    };
    return text(renderToStaticMarkup(createElement(VersusResult, { match, names: ['Guest 4F2A', 'Guest 09BC'], onRoom, onRematch: () => {} })));
  };
  const open = (wants: [boolean, boolean]) => ({ kind: 'open' as const, wants, until: 0 });

  it('offers it, then says who it waits for or who asked', () => {
    expect(rendered(open([false, false]))).toContain('Rematch');
    expect(rendered(open([false, true]))).toContain('Waiting for Guest 4F2A…');
    expect(rendered(open([true, false]))).toContain('Guest 4F2A wants a rematchAcceptDecline');
  });
  it('says why there is none: the other left, it expired, the ranked rules refused', () => {
    expect(rendered({ kind: 'over', reason: 'left', message: null })).toContain('Guest 4F2A left.');
    expect(rendered({ kind: 'over', reason: 'expired', message: null })).toContain('The rematch offer expired.');
    expect(rendered({ kind: 'over', reason: 'refused', message: 'Kept apart for today.' })).toContain('Kept apart for today.');
  });
  it('after a room’s match, goes back to the room instead', () => {
    const html = rendered(open([false, false]), () => {});
    expect(html).toContain('Back to the room');
    expect(html).not.toContain('Rematch');
  });
});
