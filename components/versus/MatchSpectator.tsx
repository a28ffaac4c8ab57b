'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { MatchWatchController, type MatchWatchView } from '@/lib/client/live/match-watch';
import { loadLocalSettings } from '@/lib/client/settings-store';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { formatSetScore } from '@/lib/ui/versus';
import { GarbageMeter } from '@/components/versus/GarbageMeter';
import { PageHeading } from '@/components/ui/PageHeading';
import { playerName } from '@/lib/ui/players';

/** A versus match being played, both fields side by side from the streams; its replay once stored. */
export function MatchSpectator({ matchId }: { matchId: string }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const canvases = [useRef<HTMLCanvasElement>(null), useRef<HTMLCanvasElement>(null)] as const;
  const [view, setView] = useState<MatchWatchView | null>(null);

  useEffect(() => {
    const elements = [canvases[0].current, canvases[1].current];
    const root = rootRef.current;
    if (!elements[0] || !elements[1] || !root) return;
    const display = loadLocalSettings(window.localStorage).display;
    const views = elements.map((c) => new CanvasView(c!));
    const effects = [new Effects(), new Effects()];
    const controller = new MatchWatchController(matchId, {
      draw(snaps, events, mode, now) {
        snaps.forEach((snap, i) => {
          if (events[i]!.length > 0) effects[i]!.push(events[i]!, now);
          views[i]!.draw(snap, drawOptions(display, mode, { effects: effects[i], now }));
          // Each field as data, once per piece (tests compare it with the players').
          if (root.dataset[`pieces${i}`] !== String(snap.pieces)) {
            root.dataset[`pieces${i}`] = String(snap.pieces);
            root.dataset[`stack${i}`] = snap.board.join('/');
          }
        });
      },
      onView: setView,
    });
    return () => {
      controller.dispose();
      views.forEach((v) => v.dispose());
    };
    // The refs are stable; one controller per match.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [matchId]);

  const names = view?.players?.map((p) => playerName(p)) ?? ['…', '…'];
  return (
    <div ref={rootRef} data-testid="match-spectator" data-phase={view?.phase ?? 'connecting'} data-score={view ? view.score.join('-') : ''} className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <PageHeading size="compact">
          {names[0]} vs {names[1]}
          {view?.mode && <span className="font-normal text-muted"> · {VERSUS_MODE_INFO[view.mode].label} · live</span>}
        </PageHeading>
        {view && view.phase !== 'missing' && (
          <span className="font-mono text-lg tabular-nums">{formatSetScore(view.score)} <span className="text-sm text-muted">first to {view.firstTo}</span></span>
        )}
      </div>
      {view?.phase === 'missing' && (
        <p role="alert">
          {view.message} <Link className="link" href="/live">Live now</Link>
        </p>
      )}
      {view?.phase === 'over' && (
        <p role="status" className="rounded-lg bg-surface-2 px-3 py-2" data-testid="match-over">
          {view.winner !== null ? `${names[view.winner]} won the match ${formatSetScore(view.score)}.` : 'The match is over.'}{' '}
          {view.stored && <Link className="link" href={`/versus/matches/${matchId}`}>Watch the replay</Link>}
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        {([0, 1] as const).map((i) => (
          <section key={i} aria-label={`${names[i]}'s field`} className="flex h-[min(65vh,620px)] min-h-72 gap-2 rounded-xl bg-field p-2">
            <GarbageMeter rows={view?.meters[i] ?? 0} testId={`garbage-meter-${i}`} />
            <div className="min-w-0 flex-1">
              <canvas ref={canvases[i]} data-testid={`field-${i}`} className="mx-auto block" role="img" aria-label={`${names[i]}'s field`} />
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
