'use client';

import { useEffect, useRef, useState, type RefObject } from 'react';
import type { PlayState } from '@/lib/client/play-controller';
import { finalSplit, GhostRace, raceCount, raceUnit, standing, standingText } from '@/lib/client/ghost';
import { goalOf, MODES, TICKS_PER_SECOND, type Mode } from '@/lib/engine';
import { Check } from '@/components/ui/Check';

const STORE_KEY = 'linefall:ghost';

type Best = { gameId: string; replay: string; ticks: number; score: number; lines: number; clears: number };
type Load = { status: 'off' } | { status: 'loading' } | { status: 'none'; message: string } | { status: 'ready'; best: Best };
type Race = { diff: number; you: number; ghost: number };

/**
 * "Race your best": the player's best game re-simulated in step with the play clock (ticks =
 * time spent playing × 60, paused with the game), compared at the same moment in what the mode
 * ranks by (raceUnit: lines to the goal for Sprint, points for Ultra), and the split at the end.
 * Reads the player's progress from the play page's data attributes, so the game loop knows
 * nothing of it.
 */
export function GhostBar({ mode, state, root }: { mode: Mode; state: PlayState; root: RefObject<HTMLElement | null> }) {
  // Rendered in the browser only (the play page loads it without SSR), so storage is readable here.
  const [load, setLoad] = useState<Load>(() => (window.localStorage.getItem(STORE_KEY) === 'on' ? { status: 'loading' } : { status: 'off' }));
  const [race, setRace] = useState<Race | null>(null);
  const clock = useRef({ playedMs: 0, since: 0, ghost: null as GhostRace | null });

  useEffect(() => {
    if (load.status !== 'loading') return;
    let live = true;
    fetch(`/api/bests/${mode}/replay`, { cache: 'no-store' })
      .then(async (res) => {
        const body = (await res.json()) as Best | { error: { message: string } };
        if (!live) return;
        if (res.ok && 'replay' in body) setLoad({ status: 'ready', best: body });
        else setLoad({ status: 'none', message: 'error' in body ? body.error.message : 'Your best could not be loaded.' });
      })
      .catch(() => live && setLoad({ status: 'none', message: 'Your best could not be loaded. Check your connection.' }));
    return () => {
      live = false;
    };
  }, [load.status, mode]);

  const phase = state.phase;
  const best = load.status === 'ready' ? load.best : null;
  useEffect(() => {
    const c = clock.current;
    if (!best) return;
    // A new game (loading, or its countdown before the first tick) races a fresh ghost.
    if (phase === 'loading' || (phase === 'countdown' && c.playedMs === 0)) {
      c.playedMs = 0;
      c.ghost = new GhostRace(best.replay);
    }
    if (phase !== 'playing') return;
    c.ghost ??= new GhostRace(best.replay);
    c.since = performance.now();
    let raf = 0;
    const frame = (now: number) => {
      const ms = c.playedMs + now - c.since;
      const ghost = c.ghost!.at(Math.floor((ms * TICKS_PER_SECOND) / 1000));
      const d = root.current?.dataset;
      const player = { lines: Number(d?.progress ?? 0), score: Number(d?.score ?? 0), clears: Number(d?.clears ?? 0) };
      const diff = standing(mode, player, ghost);
      const [you, them] = [raceCount(mode, player), raceCount(mode, ghost)];
      setRace((r) => (r && r.diff === diff && r.you === you && r.ghost === them ? r : { diff, you, ghost: them }));
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => {
      cancelAnimationFrame(raf);
      c.playedMs += performance.now() - c.since;
    };
  }, [phase, best, mode, root]);

  const toggle = (on: boolean) => {
    window.localStorage.setItem(STORE_KEY, on ? 'on' : 'off');
    setLoad(on ? { status: 'loading' } : { status: 'off' });
    setRace(null);
  };

  // The bar's end: the mode's goal in a race in lines (Dig: its rows), else the best's count (or the player's, once past it).
  const full = raceUnit(mode) === 'lines' ? goalOf(MODES[mode]) || Math.max(race?.ghost ?? 1, race?.you ?? 0, 1) : Math.max(best ? raceCount(mode, best) : 1, race?.you ?? 0, 1);
  const split = best && state.phase === 'ended' ? finalSplit(mode, state.result, best) : null;
  // Before the first tick of a game the last game's standing is stale.
  const racing = phase === 'playing' || phase === 'paused' || phase === 'ended' ? race : null;
  return (
    <div data-testid="ghost" data-ahead={racing?.diff ?? ''} className="flex flex-wrap items-center gap-3 text-sm">
      <Check label="Race my best" checked={load.status !== 'off'} onChange={toggle} />
      {load.status === 'loading' && <span className="text-muted">Loading your best…</span>}
      {load.status === 'none' && <span className="text-muted">{load.message}</span>}
      {best && (
        <div className="flex min-w-48 flex-1 items-center gap-3">
          <div className="flex-1 space-y-1" aria-hidden="true">
            <div className="h-1.5 rounded bg-surface-2">
              <div className="h-1.5 rounded bg-primary" style={{ width: `${Math.min(100, ((racing?.you ?? 0) / full) * 100)}%` }} />
            </div>
            <div className="h-1.5 rounded bg-surface-2">
              <div className="h-1.5 rounded bg-line-strong" style={{ width: `${Math.min(100, ((racing?.ghost ?? 0) / full) * 100)}%` }} />
            </div>
          </div>
          <span data-testid="ghost-standing" className={`tabular-nums ${racing && racing.diff < 0 ? 'text-danger' : 'text-fg'}`}>
            {split ?? (racing ? standingText(mode, racing.diff) : 'Your best is ready')}
          </span>
        </div>
      )}
    </div>
  );
}
