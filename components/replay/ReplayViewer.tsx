'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { CanvasView } from '@/components/game/canvas-view';
import { formatTime } from '@/lib/ui/format';
import { Effects } from '@/components/game/effects';
import { PALETTES } from '@/components/game/palette';
import { decodeReplay, TICKS_PER_SECOND, type Replay, type Snapshot } from '@/lib/engine';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { nextSpeed, replayActionFor, SPEEDS, type ReplayAction, type Speed } from '@/lib/client/replay-keys';
import { loadLocalSettings } from '@/lib/client/settings-store';
import { InputDisplay } from './InputDisplay';
import { ReplayControls } from './ReplayControls';
import { ReplayStats } from './ReplayStats';
import { SeekBar } from './SeekBar';
import { ShareButton } from './ShareButton';
import { Shortcuts } from './Shortcuts';

const MAX_TICKS_PER_FRAME = 40;
const JUMP_TICKS = 5 * TICKS_PER_SECOND;

function decode(encoded: string): { replay: Replay } | { error: string } {
  try {
    return { replay: decodeReplay(encoded) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'unreadable replay' };
  }
}

/** Plays a stored replay through the same engine that verified it. `startAt` (ticks) opens paused there. */
export function ReplayViewer({ encoded, path, startAt }: { encoded: string; path: string; startAt: number | null }) {
  const decoded = useMemo(() => decode(encoded), [encoded]);
  if ('error' in decoded) {
    return <p role="alert" className="text-red-600">This replay cannot be played: {decoded.error}</p>;
  }
  return <Viewer replay={decoded.replay} path={path} startAt={startAt} />;
}

/** What was drawn last: the snapshot and the engine hash at that tick (exposed for the e2e check). */
type Shown = { snap: Snapshot; hash: string };

function Viewer({ replay, path, startAt }: { replay: Replay; path: string; startAt: number | null }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const player = useMemo(() => {
    const p = new ReplayPlayer(replay);
    if (startAt !== null) p.seek(startAt);
    return p;
  }, [replay, startAt]);
  const [shown, setShown] = useState<Shown>(() => ({ snap: player.snapshot(), hash: player.hash() }));
  const [playing, setPlayingState] = useState(startAt === null);
  const [speed, setSpeed] = useState<Speed>(1);
  // Read by the animation loop every frame; React state only mirrors it for rendering.
  const control = useRef({ playing: startAt === null, speed: 1 as number, dirty: true, effects: new Effects() });

  const setPlaying = (value: boolean) => {
    control.current.playing = value;
    setPlayingState(value);
  };

  useEffect(() => {
    control.current.speed = speed;
  }, [speed]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // The viewer's own display settings (palette, ghost, grid, rising), as on the play page.
    const display = loadLocalSettings(window.localStorage).display;
    const view = new CanvasView(canvas);
    const c = control.current;
    let frame = 0;
    let last = performance.now();
    let carry = 0;
    let snap = player.snapshot();
    const draw = (now: number) => {
      const startTick = player.tick;
      if (c.playing && !player.over) {
        carry += ((now - last) * TICKS_PER_SECOND * c.speed) / 1000;
        let steps = Math.min(Math.floor(carry), MAX_TICKS_PER_FRAME);
        carry -= Math.floor(carry);
        while (steps-- > 0 && !player.over) c.effects.push(player.step(), now);
        if (player.over) {
          c.playing = false;
          setPlayingState(false);
        }
      } else carry = 0;
      last = now;
      if (c.dirty || player.tick !== startTick) {
        snap = player.snapshot();
        c.dirty = false;
        setShown({ snap, hash: player.hash() });
      }
      view.draw(snap, {
        palette: PALETTES[display.palette],
        mode: replay.mode,
        ghost: display.ghost,
        grid: display.grid,
        rising: display.rising,
        reducedMotion: display.reducedMotion,
        hidden: false,
        effects: c.effects,
        now,
      });
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => {
      cancelAnimationFrame(frame);
      view.dispose();
    };
  }, [player, replay.mode]);

  const done = shown.snap.tick >= player.endTick;
  const seek = (tick: number, pause = true) => {
    const c = control.current;
    if (pause) setPlaying(false);
    player.seek(tick);
    c.effects.reset();
    c.dirty = true;
  };
  const run = (action: ReplayAction) => {
    const c = control.current;
    switch (action) {
      case 'toggle':
        if (done) {
          seek(0, false);
          setPlaying(true);
        } else setPlaying(!c.playing);
        return;
      case 'tickBack': return seek(player.tick - 1);
      case 'tickForward': return seek(player.tick + 1);
      case 'pieceBack': return seek(player.pieceBoundary(-1));
      case 'pieceForward': return seek(player.pieceBoundary(1));
      case 'back5': return seek(player.tick - JUMP_TICKS, false);
      case 'forward5': return seek(player.tick + JUMP_TICKS, false);
      case 'start': return seek(0, false);
      case 'end': return seek(player.endTick);
      case 'slower': return setSpeed((s) => nextSpeed(s, -1));
      case 'faster': return setSpeed((s) => nextSpeed(s, 1));
    }
  };
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      // Typing in a field, or Space/Enter on a focused control, keeps its usual meaning.
      if (target?.closest('select, textarea, input:not([type=range])')) return;
      if ((e.key === ' ' || e.key === 'Enter') && target?.closest('button, a, summary')) return;
      const action = replayActionFor(e);
      if (!action) return;
      e.preventDefault();
      runRef.current(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div
      className="space-y-3"
      data-testid="replay-viewer"
      data-tick={shown.snap.tick}
      data-hash={shown.hash}
      data-end={player.endTick}
      data-playing={playing ? 'true' : 'false'}
      data-speed={speed}
    >
      <div className="flex flex-col gap-4 lg:flex-row">
        <div className="h-[min(70vh,640px)] w-full lg:flex-1">
          <canvas ref={canvasRef} aria-label="Replay" role="img" className="mx-auto block" data-testid="field" />
        </div>
        <aside className="space-y-4 lg:w-64">
          <ReplayStats snap={shown.snap} />
          <InputDisplay held={shown.snap.held} />
          <Shortcuts />
        </aside>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <ReplayControls playing={playing} done={done} onAction={run} />
        <SeekBar tick={shown.snap.tick} end={player.endTick} pieceTicks={player.pieceTicks} onSeek={(t) => seek(t, false)} />
        <span className="font-mono text-sm tabular-nums" data-testid="replay-clock">
          {formatTime(shown.snap.tick)} / {formatTime(player.endTick)}
        </span>
        <label className="flex items-center gap-1 text-sm">
          Speed
          <select
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value) as Speed)}
            className="rounded border border-slate-300 bg-transparent px-1 py-0.5 dark:border-slate-700"
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
      </div>
      <ShareButton path={path} tick={shown.snap.tick} />
    </div>
  );
}
