'use client';

import Link from 'next/link';
import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import type { PlayController, PlayState } from '@/lib/client/play-controller';
import type { LiveView } from '@/lib/client/live/session';
import type { Mode } from '@/lib/engine';
import { useSettings } from '@/components/settings/useSettings';
import { LiveRegion } from '@/components/site/LiveRegion';
import { announcement, type ModeRanking, type PeriodTabs } from '@/components/game/announce';
import { Button } from '@/components/ui/Button';
import { buttonClass } from '@/components/ui/button-class';
import { PageHeading } from '@/components/ui/PageHeading';
import { usePlayView } from '@/components/site/usePlayView';
import { FullscreenButton } from '@/components/game/FullscreenButton';
import { FinesseCounter } from '@/components/game/FinesseCounter';
import { NO_PLAY_VIEW, playViewOf } from '@/lib/client/play-view';

// Loaded on demand, so the page's first load is the shell: the game runtime (engine, loop,
// renderer) is fetched in parallel with the game ticket, the settings form when its dialog opens.
const loadRuntime = () => import('@/components/game/runtime');
// The ghost reads this device's storage as it renders: it mounts once settings have loaded (never on the server).
const GhostBar = lazy(() => import('@/components/ghost/GhostBar').then((m) => ({ default: m.GhostBar })));
// The result panel formats results with the engine's mode rules: it loads with the runtime (a
// game cannot end before that), not with the page.
const loadResultPanel = () => import('@/components/game/ResultPanel');
const ResultPanel = lazy(() => loadResultPanel().then((m) => ({ default: m.ResultPanel })));
// Only a ranked (live) game has one, and only once the game has loaded.
const LiveBadge = lazy(() => import('@/components/live/LiveBadge').then((m) => ({ default: m.LiveBadge })));
const SettingsPanel = lazy(() => import('@/components/settings/SettingsPanel').then((m) => ({ default: m.SettingsPanel })));

/** The game page: a canvas driven by PlayController, with overlays for each phase. */
/** `ranked`: whether the mode has boards at all (MODES' `ranked`); one that never has (Zen) is practice only, with no ranked twin to switch to. */
export function PlayScreen({ mode, title, signedIn, ranking, ghost, periods, practice, ranked }: { mode: Mode; title: string; signedIn: boolean; ranking: ModeRanking; ghost: boolean; periods: PeriodTabs; practice: boolean; ranked: boolean }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { settings, save, status } = useSettings(signedIn);
  // Set once the game code has loaded; the controller then owns the game and its settings.
  const [controller, setController] = useState<PlayController | null>(null);
  const [state, setState] = useState<PlayState>({ phase: 'loading' });
  const [live, setLive] = useState<LiveView | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  // While a game runs the site's header gives way and the screen stays on.
  const [view, setView] = useState(NO_PLAY_VIEW);
  usePlayView(view);
  const ready = settings !== null;

  // Settings and the dialog flow one way, into the controller (also when either changed before
  // the game code arrived).
  useEffect(() => {
    if (controller && settings) controller.setSettings(settings);
  }, [controller, settings]);
  useEffect(() => {
    controller?.setSuspended(panelOpen);
  }, [controller, panelOpen]);
  // The settings a game starts with: read when it mounts, not a reason to mount it again.
  const startingSettings = useEffectEvent(() => settings!);

  useEffect(() => {
    if (!ready || !rootRef.current || !canvasRef.current) return;
    const root = rootRef.current;
    const canvas = canvasRef.current;
    let handle: { controller: PlayController; dispose: () => void } | null = null;
    let live = true;
    void loadResultPanel();
    loadRuntime().then(
      ({ mountGame }) => {
        if (!live) return;
        const onState = (s: PlayState) => {
          setState(s);
          setView((v) => playViewOf(s.phase, v));
        };
        handle = mountGame({ mode, root, canvas, settings: startingSettings(), practice, onState, onLive: setLive });
        setController(handle.controller);
      },
      () => live && setLoadError('The game could not be loaded. Check your connection and reload the page.'),
    );
    return () => {
      live = false;
      handle?.dispose();
      setController(null);
      setView(NO_PLAY_VIEW);
    };
  }, [ready, mode, practice]);

  const openPanel = (open: boolean) => setPanelOpen(open);
  const c = () => controller;
  const returnTo = `/play/${mode}`;
  // Practice is the same game with a local seed: offline, and never ranked.
  const other = practice ? returnTo : `${returnTo}?practice`;

  return (
    <div ref={rootRef} data-testid="game" data-mode={mode} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PageHeading size="compact">{title}{practice && ranked && ' · Practice'}</PageHeading>
        <div className="flex flex-wrap gap-2">
          <FullscreenButton />
          {ranked && <Link href={other} className={buttonClass({ variant: 'quiet' })}>{practice ? 'Ranked' : 'Practice'}</Link>}
          <Button variant="quiet" onClick={() => openPanel(true)}>
            Settings
          </Button>
          <Link href="/play" className={buttonClass({ variant: 'quiet' })}>Modes</Link>
        </div>
      </div>
      {live && (
        <Suspense fallback={null}>
          <LiveBadge view={live} redeal={(state.phase === 'countdown' || state.phase === 'paused') && state.redeal === true} />
        </Suspense>
      )}
      {ghost && ready && (
        <Suspense fallback={null}>
          <GhostBar mode={mode} state={state} root={rootRef} />
        </Suspense>
      )}
      <div className="relative flex h-[min(78dvh,880px)] min-h-80 w-full items-center justify-center overflow-hidden rounded-xl bg-field">
        <canvas ref={canvasRef} data-testid="field" className="block" role="img" aria-label="Game field" />
        {state.phase !== 'ended' && <FinesseCounter root={rootRef} />}
        {/* A result leaves the hold and stats column readable: it sits right of it (canvas-view.ts measures it). */}
        <div className="pointer-events-none absolute inset-y-0 right-0 flex items-center justify-center px-2" style={{ left: state.phase === 'ended' ? 'var(--beside-stats, 0px)' : 0 }}>
          <div className="pointer-events-auto max-w-full">
            {loadError ? <p role="alert" className="rounded-lg bg-field-panel/90 px-4 py-2 text-field-danger">{loadError}</p> : <Overlay state={state} mode={mode} returnTo={returnTo} practiceHref={other} onResume={() => c()?.resume()} onRestart={() => void c()?.newGame()} onRetry={() => void c()?.retry()} onSettings={() => openPanel(true)} />}
          </div>
        </div>
      </div>
      <LiveRegion message={announcement(state, ranking, periods)} testId="announcer" />
      <p className="keys-hint text-center text-xs text-muted">
        P / Esc pause · R restart · keys and handling in <Link className="underline" href="/settings">Settings</Link>
      </p>
      {panelOpen && (
        <div role="dialog" aria-modal="true" aria-label="Settings" onKeyDown={(e) => e.key === 'Escape' && openPanel(false)} className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-scrim/60 p-4">
          <div className="w-full max-w-3xl rounded-xl bg-surface p-6 shadow-xl">
            <div className="mb-4 flex items-center justify-between">
              <h2 className="text-xl font-bold">Settings</h2>
              {/* Focus moves into the dialog when it opens, so keyboard users start inside it. */}
              <Button size="md" autoFocus onClick={() => openPanel(false)}>Close</Button>
            </div>
            <p className="mb-4 text-sm text-muted">Display and keys apply at once; handling from the next game.</p>
            {settings && (
              <Suspense fallback={<p className="text-muted">Loading settings…</p>}>
                <SettingsPanel settings={settings} onChange={save} status={status} />
              </Suspense>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

function Overlay(props: {
  state: PlayState; mode: Mode; returnTo: string; practiceHref: string;
  onResume: () => void; onRestart: () => void; onRetry: () => void; onSettings: () => void;
}) {
  const { state } = props;
  switch (state.phase) {
    case 'loading':
      return <p className="rounded-lg bg-field-panel/90 px-4 py-2 text-field-fg">Getting a game ticket…</p>;
    case 'ticketError':
      return (
        <div className="space-y-3 rounded-xl bg-field-panel/95 p-6 text-center text-field-fg">
          <p>Could not start a game: {state.message}</p>
          <Button variant="primary" size="md" onClick={props.onRestart}>Retry</Button>{' '}
          <Link className={buttonClass({ variant: 'field', size: 'md' })} href={props.practiceHref}>Practice offline</Link>
        </div>
      );
    case 'countdown':
      return <p data-testid="countdown" className="text-8xl font-black text-field-fg drop-shadow-lg tabular-nums">{state.count}</p>;
    case 'playing':
      return null;
    case 'paused':
      return (
        <div data-testid="paused" className="space-y-3 rounded-xl bg-field-panel/95 p-6 text-center text-field-fg">
          <p className="text-2xl font-bold">Paused</p>
          {state.redeal && <p data-testid="redeal-note" className="max-w-xs text-sm text-field-muted">Not begun yet: you get a new game, so this pause costs no rank.</p>}
          <div className="flex flex-wrap justify-center gap-2">
            <Button variant="primary" size="md" onClick={props.onResume}>Resume (P)</Button>
            <Button variant="field" size="md" onClick={props.onRestart}>Restart (R)</Button>
            <Button variant="field" size="md" onClick={props.onSettings}>Settings</Button>
          </div>
        </div>
      );
    case 'ended':
      return (
        <Suspense fallback={null}>
          <ResultPanel state={state} mode={props.mode} onRetry={props.onRetry} onRestart={props.onRestart} />
        </Suspense>
      );
    default:
      return state satisfies never;
  }
}
