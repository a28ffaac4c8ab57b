import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FinesseResult } from '@/components/game/FinesseResult';

const render = (finesse?: { faults: number; judged: number }) => renderToStaticMarkup(createElement(FinesseResult, { finesse }));

describe('the result panel’s finesse line', () => {
  it('counts the faults over the pieces judged', () => {
    expect(render({ faults: 3, judged: 98 })).toContain('3 finesse faults in 98 pieces judged');
    expect(render({ faults: 1, judged: 1 })).toContain('1 finesse fault in 1 piece judged');
    expect(render({ faults: 0, judged: 100 })).toContain('No finesse faults in 100 pieces judged');
  });

  it('is absent when the game kept no count', () => {
    expect(render()).toBe('');
  });
});
