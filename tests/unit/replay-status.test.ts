import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ReplayStatusNote } from '@/components/replay/ReplayStatusNote';

const render = (status: 'verified' | 'awaiting_review' | 'rejected') => renderToStaticMarkup(createElement(ReplayStatusNote, { status }));

describe('the status line of a replay page', () => {
  it('calls only a settled game verified', () => {
    expect(render('verified')).toContain('✔ verified');
  });
  it('says a held game awaits review, and a rejected one was rejected, never “verified”', () => {
    expect(render('awaiting_review')).toContain('awaiting review');
    expect(render('rejected')).toContain('rejected by a reviewer');
    for (const status of ['awaiting_review', 'rejected'] as const) expect(render(status)).not.toMatch(/verified/);
  });
});
