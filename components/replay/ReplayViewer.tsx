'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { decodeSoloReplay, finesseOfReplay, type SoloReplay } from '@/lib/engine';
import { ReplayPlayback, type PlaybackView } from '@/lib/client/replay-playback';
import { ReplayPlayer } from '@/lib/client/replay-player';
import type { ReplayAction } from '@/lib/client/replay-keys';
import { formatTime } from '@/lib/ui/format';
import { loadLocalSettings } from '@/lib/client/settings-store';
import { PlayFromHere } from '@/components/sandbox/PlayFromHere';
import { PracticeMoments } from '@/components/replay/PracticeMoments';
import { momentsOf } from '@/lib/client/moments';
import { InputDisplay } from '@/components/replay/InputDisplay';
import { ReplayControls } from '@/components/replay/ReplayControls';
import { ReplayStats } from '@/components/replay/ReplayStats';
import { SeekBar } from '@/components/replay/SeekBar';
import { FinesseFaults } from '@/components/replay/FinesseFaults';
import { SpeedPicker } from '@/components/replay/SpeedPicker';
import { listenForReplayShortcuts } from '@/components/replay/replay-shortcuts';
import { ShareButton } from '@/components/replay/ShareButton';
import { Shortcuts } from '@/components/replay/Shortcuts';
import { TransportAnnouncer } from '@/components/replay/TransportAnnouncer';

function decode(encoded: string): { replay: SoloReplay } | { error: string } {
  try {
    return { replay: decodeSoloReplay(encoded) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'unreadable replay' };
  }
}

/** Plays a stored replay through the same engine that verified it. `startAt` (ticks) opens paused there. */
export function ReplayViewer({ encoded, path, startAt, gameId }: { encoded: string; path: string; startAt: number | null; gameId?: string }) {
  const decoded = useMemo(() => decode(encoded), [encoded]);
  if ('error' in decoded) {
    return <p role="alert" className="text-danger">This replay cannot be played: {decoded.error}</p>;
  }
  return <Viewer replay={decoded.replay} path={path} startAt={startAt} gameId={gameId} />;
}

function Viewer({ replay, path, startAt, gameId }: { replay: SoloReplay; path: string; startAt: number | null; gameId?: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const player = useMemo(() => {
    const p = new ReplayPlayer(replay);
    if (startAt !== null) p.seek(startAt);
    return p;
  }, [replay, startAt]);
  // Counted once for the whole game, by the same engine code the server stores the count with.
  const finesse = useMemo(() => finesseOfReplay(replay), [replay]);
  const faultTicks = useMemo(() => finesse.pieces.filter((p) => p.faults > 0).map((p) => p.tick), [finesse]);
  const [playback, setPlayback] = useState<ReplayPlayback | null>(null);
  const [view, setView] = useState<PlaybackView>(() => ({ tick: player.tick, snap: player.snapshot(), hash: player.hash(), playing: startAt === null, speed: 1 }));

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // The viewer's own display settings (palette, ghost, grid, rising), as on the play page.
    const display = loadLocalSettings(window.localStorage).display;
    const canvasView = new CanvasView(canvas);
    const effects = new Effects();
    const p = new ReplayPlayback(player, {
      draw(snap, events, now, jumped) {
        if (jumped) effects.reset();
        effects.push(events, now);
        canvasView.draw(snap, drawOptions(display, replay.mode, { effects, now }));
      },
      onChange: setView,
    }, { playing: startAt === null });
    setPlayback(p);
    p.start();
    const unlisten = listenForReplayShortcuts(p);
    return () => {
      unlisten();
      p.stop();
      canvasView.dispose();
    };
  }, [player, replay.mode, startAt]);

  const moments = useMemo(() => (gameId ? momentsOf(player, []).map((moment) => ({ moment, from: { replay: gameId }, who: null, seat: null })) : []), [player, gameId]);
  const { snap, playing, speed } = view;
  const done = snap.tick >= player.endTick;
  const run = (action: ReplayAction) => playback?.run(action);

  return (
    <div
      className="space-y-3"
      data-testid="replay-viewer"
      data-tick={snap.tick}
      data-hash={view.hash}
      data-end={player.endTick}
      data-playing={playing ? 'true' : 'false'}
      data-speed={speed}
      // True once the playback runs and its shortcuts listen: the server-rendered viewer shows its
      // first frame before that, and a key pressed then would do nothing.
      data-ready={playback ? 'true' : 'false'}
    >
      <div className="flex flex-col gap-4 lg:flex-row">
        <div className="h-[min(70vh,640px)] w-full lg:flex-1">
          <canvas ref={canvasRef} aria-label="Replay" role="img" className="mx-auto block" data-testid="field" />
        </div>
        <aside className="space-y-4 lg:w-64">
          <ReplayStats snap={snap} />
          <FinesseFaults tally={finesse} tick={snap.tick} />
          <InputDisplay held={snap.held} />
          <Shortcuts />
        </aside>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <ReplayControls playing={playing} done={done} onAction={run} />
        <SeekBar tick={snap.tick} end={player.endTick} pieceTicks={player.pieceTicks} faultTicks={faultTicks} onSeek={(t) => playback?.seek(t, false)} />
        <span className="font-mono text-sm tabular-nums" data-testid="replay-clock">
          {formatTime(snap.tick)} / {formatTime(player.endTick)}
        </span>
        <SpeedPicker speed={speed} onChange={(s) => playback?.setSpeed(s)} />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <ShareButton path={path} tick={snap.tick} />
        {gameId && <PlayFromHere from={{ replay: gameId }} tick={snap.tick} />}
      </div>
      <PracticeMoments moments={moments} onSeek={(t) => playback?.seek(t)} />
      <TransportAnnouncer playing={playing} tick={snap.tick} end={player.endTick} speed={speed} />
    </div>
  );
}
