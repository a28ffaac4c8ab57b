'use client';

import Link from 'next/link';
import { lazy, Suspense, useEffect, useEffectEvent, useRef, useState } from 'react';
import { requestTicket } from '@/lib/client/api';
import type { PlayController, PlayState } from '@/lib/client/play-controller';
import type { Mode } from '@/lib/engine';
import { useSettings } from '@/components/settings/useSettings';
import { usePendingGames } from '@/components/game/usePendingGames';

// Loaded on demand, so the page's first load is the shell: the game runtime (engine, loop,
// renderer) is fetched in parallel with the game ticket, the settings form when its dialog opens.
const loadRuntime = () => import('@/components/game/runtime');
// The result panel formats results with the engine's mode rules: it loads with the runtime (a
// game cannot end before that), not with the page.
const loadResultPanel = () => import('@/components/game/ResultPanel');
const ResultPanel = lazy(() => loadResultPanel().then((m) => ({ default: m.ResultPanel })));
const SettingsPanel = lazy(() => import('@/components/settings/SettingsPanel').then((m) => ({ default: m.SettingsPanel })));

const button = 'rounded-lg px-4 py-2 text-sm font-semibold';
const primary = `${button} bg-cyan-500 text-slate-950 hover:bg-cyan-400`;
const secondary = `${button} border border-slate-600 text-slate-100 hover:bg-slate-800`;

/** The game page: a canvas driven by PlayController, with overlays for each phase. */
export function PlayScreen({ mode, title, signedIn }: { mode: Mode; title: string; signedIn: boolean }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { settings, save, status } = useSettings(signedIn);
  // Set once the game code has loaded; the controller then owns the game and its settings.
  const [controller, setController] = useState<PlayController | null>(null);
  const [state, setState] = useState<PlayState>({ phase: 'loading' });
  const [panelOpen, setPanelOpen] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const ready = settings !== null;
  usePendingGames();

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
    const firstTicket = requestTicket(mode);
    let handle: { controller: PlayController; dispose: () => void } | null = null;
    let live = true;
    void loadResultPanel();
    loadRuntime().then(
      ({ mountGame }) => {
        if (!live) return;
        handle = mountGame({ mode, root, canvas, settings: startingSettings(), onState: setState, firstTicket });
        setController(handle.controller);
      },
      () => live && setLoadError('The game could not be loaded. Check your connection and reload the page.'),
    );
    return () => {
      live = false;
      handle?.dispose();
      setController(null);
    };
  }, [ready, mode]);

  const openPanel = (open: boolean) => setPanelOpen(open);
  const c = () => controller;
  const returnTo = `/play/${mode}`;

  return (
    <div ref={rootRef} data-testid="game" data-mode={mode} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">{title}</h1>
        <div className="flex gap-2 text-sm">
          <button type="button" className="rounded-md px-3 py-1.5 hover:bg-slate-200 dark:hover:bg-slate-800" onClick={() => openPanel(true)}>
            Settings
          </button>
          <Link href="/play" className="rounded-md px-3 py-1.5 hover:bg-slate-200 dark:hover:bg-slate-800">Modes</Link>
        </div>
      </div>
      <div className="relative flex h-[min(78dvh,880px)] min-h-80 w-full items-center justify-center overflow-hidden rounded-xl bg-[#0b1120]">
        <canvas ref={canvasRef} data-testid="field" className="block" role="img" aria-label="Game field" />
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <div className="pointer-events-auto">
            {loadError ? <p role="alert" className="rounded-lg bg-slate-900/90 px-4 py-2 text-red-300">{loadError}</p> : <Overlay state={state} mode={mode} returnTo={returnTo} onResume={() => c()?.resume()} onRestart={() => void c()?.newGame()} onRetry={() => void c()?.retry()} onSettings={() => openPanel(true)} />}
          </div>
        </div>
      </div>
      <p className="text-center text-xs text-slate-500">
        P / Esc pause · R restart · keys and handling in <Link className="underline" href="/settings">Settings</Link>
      </p>
      {panelOpen && (
        <div role="dialog" aria-modal="true" aria-label="Settings" className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-black/60 p-4">
          <div className="w-full max-w-3xl rounded-xl bg-white p-6 shadow-xl dark:bg-slate-900">
            <div className="mb-4 flex items-center justify-between">
              <h2 className="text-xl font-bold">Settings</h2>
              <button type="button" className={secondary.replace('text-slate-100', '')} onClick={() => openPanel(false)}>Close</button>
            </div>
            <p className="mb-4 text-sm text-slate-500">Display and keys apply at once; handling from the next game.</p>
            {settings && (
              <Suspense fallback={<p className="text-slate-500">Loading settings…</p>}>
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
  state: PlayState; mode: Mode; returnTo: string;
  onResume: () => void; onRestart: () => void; onRetry: () => void; onSettings: () => void;
}) {
  const { state } = props;
  switch (state.phase) {
    case 'loading':
      return <p className="rounded-lg bg-slate-900/90 px-4 py-2 text-slate-200">Getting a game ticket…</p>;
    case 'ticketError':
      return (
        <div role="alert" className="space-y-3 rounded-xl bg-slate-900/95 p-6 text-center text-slate-100">
          <p>Could not start a game: {state.message}</p>
          <button type="button" className={primary} onClick={props.onRestart}>Retry</button>
        </div>
      );
    case 'countdown':
      return <p data-testid="countdown" className="text-8xl font-black text-white drop-shadow-lg tabular-nums">{state.count}</p>;
    case 'playing':
      return null;
    case 'paused':
      return (
        <div data-testid="paused" className="space-y-3 rounded-xl bg-slate-900/95 p-6 text-center text-slate-100">
          <p className="text-2xl font-bold">Paused</p>
          <div className="flex gap-2">
            <button type="button" className={primary} onClick={props.onResume}>Resume (P)</button>
            <button type="button" className={secondary} onClick={props.onRestart}>Restart (R)</button>
            <button type="button" className={secondary} onClick={props.onSettings}>Settings</button>
          </div>
        </div>
      );
    case 'ended':
      return (
        <Suspense fallback={null}>
          <ResultPanel state={state} mode={props.mode} onRetry={props.onRetry} onRestart={props.onRestart} returnTo={props.returnTo} />
        </Suspense>
      );
  }
}
