import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MyStanding } from '@/components/versus/VersusLobby';

const text = (html: string) => html.replace(/<[^>]+>/g, '');

describe('the versus lobby’s standing', () => {
  it('an established player’s rating and band; a player in placement the count, and no band', () => {
    const settled = renderToStaticMarkup(createElement(MyStanding, { standing: { rating: 1684.4, rd: 70, matches: 40, wins: 22, provisional: false, placement: null, band: 'gold' } }));
    expect(text(settled)).toBe('Your rating: 1684 · Gold');
    const placing = renderToStaticMarkup(createElement(MyStanding, { standing: { rating: 1523, rd: 240, matches: 3, wins: 1, provisional: true, placement: { played: 3, of: 10 }, band: null } }));
    expect(text(placing)).toBe('Your rating: 1523? · placement 3/10');
  });
});
