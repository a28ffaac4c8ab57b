'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { CanvasView } from '@/components/game/canvas-view';
import { formatTime } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { PALETTES } from '@/components/game/palette';
import { decodeReplay, TICKS_PER_SECOND, type Replay } from '@/lib/engine';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { loadLocalSettings } from '@/lib/client/settings-store';

const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;
const MAX_TICKS_PER_FRAME = 40;

type Expected = { score: number; lines: number; ticks: number };

function decode(encoded: string): { replay: Replay } | { error: string } {
  try {
    return { replay: decodeReplay(encoded) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'unreadable replay' };
  }
}

/** Plays a stored replay through the same engine that verified it. */
export function ReplayViewer({ encoded, expected }: { encoded: string; expected: Expected }) {
  const decoded = useMemo(() => decode(encoded), [encoded]);
  if ('error' in decoded) {
    return <p role="alert" className="text-red-600">This replay cannot be played: {decoded.error}</p>;
  }
  return <Viewer replay={decoded.replay} expected={expected} />;
}

function Viewer({ replay, expected }: { replay: Replay; expected: Expected }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const player = useMemo(() => new ReplayPlayer(replay), [replay]);
  const [playing, setPlaying] = useState(true);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const [tick, setTick] = useState(0);
  const control = useRef({ playing: true, speed: 1, seekTo: null as number | null });

  useEffect(() => {
    control.current.playing = playing;
    control.current.speed = speed;
  }, [playing, speed]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // The viewer's own display settings (palette, ghost, grid, rising), as on the play page.
    const display = loadLocalSettings(window.localStorage).display;
    const view = new CanvasView(canvas);
    const effects = new Effects();
    let frame = 0;
    let last = performance.now();
    let carry = 0;
    const draw = (now: number) => {
      const c = control.current;
      if (c.seekTo !== null) {
        player.seek(c.seekTo);
        effects.reset();
        c.seekTo = null;
      } else if (c.playing && !player.over) {
        carry += ((now - last) * TICKS_PER_SECOND * c.speed) / 1000;
        let steps = Math.min(Math.floor(carry), MAX_TICKS_PER_FRAME);
        carry -= Math.floor(carry);
        while (steps-- > 0 && !player.over) effects.push(player.step(), now);
      }
      last = now;
      const snap = player.snapshot();
      view.draw(snap, {
        palette: PALETTES[display.palette],
        mode: replay.mode,
        ghost: display.ghost,
        grid: display.grid,
        rising: display.rising,
        reducedMotion: display.reducedMotion,
        hidden: false,
        effects,
        now,
      });
      setTick(snap.tick);
      frame = requestAnimationFrame(draw);
    };
    frame = requestAnimationFrame(draw);
    return () => {
      cancelAnimationFrame(frame);
      view.dispose();
    };
  }, [player, replay.mode]);

  const done = tick >= expected.ticks;
  const seek = (to: number) => {
    control.current.seekTo = to;
  };

  return (
    <div className="space-y-3" data-testid="replay-viewer">
      <div className="h-[min(70vh,640px)] w-full">
        <canvas ref={canvasRef} aria-label="Replay" role="img" className="mx-auto block" />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={() => {
            if (done) seek(0);
            setPlaying(done ? true : !playing);
          }}
          className="w-24 rounded-lg bg-cyan-500 px-3 py-1.5 font-semibold text-slate-950 hover:bg-cyan-400"
        >
          {done ? 'Replay' : playing ? 'Pause' : 'Play'}
        </button>
        <input
          type="range"
          min={0}
          max={expected.ticks}
          value={Math.min(tick, expected.ticks)}
          onChange={(e) => seek(Number(e.target.value))}
          aria-label="Position"
          className="flex-1 accent-cyan-500"
        />
        <span className="font-mono text-sm tabular-nums" data-testid="replay-clock">
          {formatTime(tick)} / {formatTime(expected.ticks)}
        </span>
        <label className="flex items-center gap-1 text-sm">
          Speed
          <select
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value) as (typeof SPEEDS)[number])}
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
    </div>
  );
}
