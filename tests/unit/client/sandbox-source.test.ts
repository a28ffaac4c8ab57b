import { describe, expect, it } from 'vitest';
import { openSandbox, practiceLink, practiceUrl, SandboxSourceError, type SandboxSource } from '@/lib/client/sandbox-source';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { COMMUNITY_FUMENS } from '@/tests/unit/fumen/setups';

const TSD = COMMUNITY_FUMENS['TSD opener (tetris-fumen README)']!;
const handling = { ...DEFAULT_HANDLING };

function refusal(fn: () => unknown): SandboxSourceError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SandboxSourceError) return e;
    throw e;
  }
  throw new Error('expected a SandboxSourceError');
}

describe('openSandbox with a fumen page', () => {
  it("puts the page's piece at the top with the later pages' pieces next, and never locks it by itself", () => {
    const { sandbox, drill } = openSandbox({ kind: 'fumen', text: TSD, page: 2 }, handling);
    expect(drill?.page).toBe(2);
    const start = sandbox.snapshot();
    expect(start.active).toEqual({ type: 'L', rotation: '0', x: 4, y: 19 });
    expect(start.next.slice(0, 4)).toEqual(['S', 'O', 'J', 'T']);
    expect(start.board.slice(-3)).toEqual(['...ZZ.....', '....ZZ....', '...IIII...']);
    expect(sandbox.taken).toBe(1);
    for (let t = 0; t < 60 * 30; t++) sandbox.tick();
    expect(sandbox.placed).toEqual([]);
    expect(sandbox.snapshot().active?.type).toBe('L');
    sandbox.tick([{ key: 'hardDrop', down: true }]);
    expect(sandbox.placed.map((p) => p.type)).toEqual(['L']);
    expect(sandbox.snapshot().active?.type).toBe('S');
  });

  it('says a page past the end is not there and falls back to page 1 of the same fumen', () => {
    const e = refusal(() => openSandbox({ kind: 'fumen', text: TSD, page: 8 }, handling));
    expect(e.message).toBe('This fumen has 7 pages, so there is no page 9: here is page 1.');
    expect(e.fallback).toEqual({ kind: 'fumen', text: TSD, page: 0 });
  });

  it('says what is wrong with a bad fumen and falls back to an empty board', () => {
    const e = refusal(() => openSandbox({ kind: 'fumen', text: 'v115@vhGRQYHAvItJEJmhC', page: 0 }, handling));
    expect(e.message).toBe('This fumen cannot be played: The fumen could not be read: it is cut short or mistyped.');
    expect(e.fallback).toEqual({ kind: 'empty' });
  });

  it('leaves other positions to lock on their own, as in a game', () => {
    const { sandbox, drill } = openSandbox({ kind: 'position', position: { board: [], active: { type: 'O', rotation: '0', x: 0, y: 0 }, hold: null, queue: [] } }, handling);
    expect(drill).toBeNull();
    for (let t = 0; t < 40; t++) sandbox.tick();
    expect(sandbox.placed).toHaveLength(1);
  });
});

describe('practiceLink', () => {
  it('encodes the fumen and keeps the page, 1-based', () => {
    expect(practiceLink('v115@a+b/c')).toBe('/practice?fumen=v115%40a%2Bb%2Fc');
    expect(practiceLink('v115@a+b/c', 2)).toBe('/practice?fumen=v115%40a%2Bb%2Fc&page=3');
  });
});

describe('practiceUrl', () => {
  const opened: SandboxSource = { kind: 'replay', encoded: 'x', tick: 7 };
  it('keeps a fumen and its page in the address as the player steps', () => {
    expect(practiceUrl({ kind: 'fumen', text: TSD, page: 4 }, opened)).toBe(`${practiceLink(TSD)}&page=5`);
  });

  it('leaves the address the page was opened with, and drops it once the player opens something else', () => {
    expect(practiceUrl(opened, opened)).toBeNull();
    expect(practiceUrl({ kind: 'empty' }, opened)).toBe('/practice');
  });
});
