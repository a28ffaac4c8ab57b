import { describe, expect, it } from 'vitest';
import { NO_PLAY_VIEW, playViewOf, type PlayView } from '@/lib/client/play-view';
import { keepScreenAwake, type WakeLockLike } from '@/lib/client/wake-lock';

describe('the play view of a game', () => {
  it('hides the chrome and keeps the screen on while a game runs, and lets go of both on a pause and at the end', () => {
    let v: PlayView = NO_PLAY_VIEW;
    const seen: PlayView[] = [];
    for (const phase of ['loading', 'countdown', 'playing', 'paused', 'countdown', 'playing', 'ended', 'loading', 'playing', 'loading', 'playing', 'ticketError'] as const) {
      v = playViewOf(phase, v);
      seen.push(v);
    }
    const on = { focused: true, awake: true };
    expect(seen).toEqual([NO_PLAY_VIEW, on, on, NO_PLAY_VIEW, on, on, NO_PLAY_VIEW, NO_PLAY_VIEW, on, on, on, NO_PLAY_VIEW]);
  });
});

function fakes() {
  const calls: string[] = [];
  const listeners = new Set<() => void>();
  const doc = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (_: string, fn: () => void) => void listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => void listeners.delete(fn),
  };
  const sentinels: Array<{ released: boolean; release(): Promise<void> }> = [];
  const lock: WakeLockLike = {
    async request() {
      calls.push('request');
      const s = { released: false, async release() { if (!s.released) calls.push('release'); s.released = true; } };
      sentinels.push(s);
      return s;
    },
  };
  const setVisible = (visible: boolean) => {
    doc.visibilityState = visible ? 'visible' : 'hidden';
    // The browser lets go of a hidden page's lock by itself.
    if (!visible) for (const s of sentinels) s.released = true;
    for (const fn of listeners) fn();
  };
  return { calls, doc, lock, setVisible, listeners };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('keeping the screen awake', () => {
  it('asks once, asks again when the page is seen after being hidden, and lets go at the end', async () => {
    const f = fakes();
    const stop = keepScreenAwake(f.lock, f.doc);
    await settle();
    expect(f.calls).toEqual(['request']);
    f.setVisible(false);
    f.setVisible(true);
    await settle();
    expect(f.calls).toEqual(['request', 'request']);
    stop();
    await settle();
    expect(f.calls).toEqual(['request', 'request', 'release']);
    expect(f.listeners.size).toBe(0);
  });

  it('lets go of a lock granted after it was no longer wanted, and does nothing without the API', async () => {
    const f = fakes();
    const stop = keepScreenAwake(f.lock, f.doc);
    stop();
    await settle();
    expect(f.calls).toEqual(['request', 'release']);
    expect(() => keepScreenAwake(undefined, f.doc)()).not.toThrow();
  });
});
