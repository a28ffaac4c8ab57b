'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { linkTrouble } from '@/lib/client/live/socket';
import { WatchController, type WatchView } from '@/lib/client/live/watch';
import { loadLocalSettings } from '@/lib/client/settings-store';
import { MODE_INFO } from '@/lib/ui/modes';
import { formatPoints, formatTime } from '@/lib/ui/format';
import { PageHeading } from '@/components/ui/PageHeading';
import { playerName } from '@/lib/ui/players';

/** While a finished game is being stored, its replay is looked for this often. */
const REPLAY_POLL_MS = 1_000;

/**
 * A live game, drawn from the stream by the same renderer as the play page and the replay
 * viewer, a few hundred ms behind the player. When the game ends its final board and result
 * stay, with a link to the replay once it is stored.
 */
export function SpectatorScreen({ gameId }: { gameId: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<WatchView>({ phase: 'connecting', link: 'down' });

  useEffect(() => {
    const canvas = canvasRef.current;
    const root = rootRef.current;
    if (!canvas || !root) return;
    // The spectator's own display settings (palette, ghost, grid), as in the replay viewer.
    const display = loadLocalSettings(window.localStorage).display;
    const canvasView = new CanvasView(canvas);
    const effects = new Effects();
    const controller = new WatchController(gameId, {
      draw(snap, events, hidden, mode, now) {
        if (events.length > 0) effects.push(events, now);
        // The field as data, once per piece (tests compare it with the player's).
        if (root.dataset.pieces !== String(snap.pieces)) {
          root.dataset.pieces = String(snap.pieces);
          root.dataset.stack = snap.board.join('/');
        }
        canvasView.draw(snap, drawOptions(display, mode, { hidden, effects, now }));
      },
      onView: setView,
    });
    return () => {
      controller.dispose();
      canvasView.dispose();
    };
  }, [gameId]);

  // The game ended: its final board stays, with the result; once it is stored (the player's POST,
  // or the server from the stream) the result links to its replay. The page used to turn into the
  // replay by itself, which opened at 0:00 and took the final board away from the spectator.
  const ended = view.phase === 'ended';
  const replayId = (view.phase === 'ended' && view.replayId) || gameId;
  const [stored, setStored] = useState(false);
  useEffect(() => {
    if (!ended) return;
    let live = true;
    let timer = 0;
    const look = () =>
      void fetch(`/api/replays/${replayId}`, { cache: 'no-store' }).then(
        (res) => {
          if (!live) return;
          if (res.ok) setStored(true);
          else timer = window.setTimeout(look, REPLAY_POLL_MS);
        },
        () => live && (timer = window.setTimeout(look, REPLAY_POLL_MS)),
      );
    look();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [ended, replayId]);

  const head = view.phase === 'watching' || view.phase === 'ended' ? view : null;
  return (
    <div ref={rootRef} data-testid="spectator" data-phase={view.phase} data-link={view.link} data-tick={head?.stats.tick ?? ''} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <PageHeading size="compact">
          {head?.player ? (playerName(head.player)) : 'Live game'}
          {head?.mode && <span className="font-normal text-muted"> · {MODE_INFO[head.mode].label}</span>}
          {view.phase === 'watching' && <span className="ml-2 align-middle text-sm font-semibold text-link">● Live</span>}
        </PageHeading>
        <Link href="/live" className="link text-sm">All live games</Link>
      </div>
      {head && (
        <p className="text-sm tabular-nums text-muted" data-testid="spectator-stats">
          {formatPoints(head.stats.score)} · {head.stats.lines} lines · {head.stats.pieces} pieces · {formatTime(head.stats.tick)}
          {view.phase === 'watching' && ` · ${view.spectators} watching`}
        </p>
      )}
      <div className="relative flex h-[min(78dvh,880px)] min-h-80 w-full items-center justify-center overflow-hidden rounded-xl bg-field">
        <canvas ref={canvasRef} data-testid="field" className="block" role="img" aria-label="The live game's field" />
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <Notice view={view} gameId={gameId} replay={stored ? replayId : null} />
        </div>
      </div>
    </div>
  );
}

function Notice({ view, gameId, replay }: { view: WatchView; gameId: string; replay: string | null }) {
  const box = 'pointer-events-auto rounded-lg bg-field-panel/95 px-4 py-3 text-center text-field-fg';
  if (view.phase === 'connecting') return <p role="status" className={box}>Connecting to the live game…</p>;
  if (view.phase === 'missing') {
    return (
      <div role="status" className={box}>
        <p>This game is not being played live: {view.message}</p>
        <p className="mt-2 text-sm">
          <Link className="text-field-accent underline" href={`/replays/${gameId}`}>Its replay</Link> (if it was stored) ·{' '}
          <Link className="text-field-accent underline" href="/live">Live now</Link>
        </p>
      </div>
    );
  }
  if (view.phase === 'ended') {
    return (
      <div role="status" data-testid="spectator-ended" className={box}>
        <p className="text-lg font-semibold">Game over</p>
        <p className="tabular-nums">
          {formatPoints(view.stats.score)} · {view.stats.lines} lines · {view.stats.pieces} pieces · {formatTime(view.stats.tick)}
        </p>
        <p className="mt-2 text-sm">
          {replay ? (
            <Link className="text-field-accent underline" href={`/replays/${replay}`}>Watch the replay</Link>
          ) : (
            <span data-testid="replay-pending">Storing the replay…</span>
          )}{' '}
          · <Link className="text-field-accent underline" href="/live">Live now</Link>
        </p>
      </div>
    );
  }
  const trouble = linkTrouble(view.link);
  if (trouble) return <p role="status" className={box}>{trouble}</p>;
  if (view.paused) return <p role="status" className={box}>The player paused.</p>;
  return null;
}
