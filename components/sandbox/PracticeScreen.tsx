'use client';

import Link from 'next/link';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { SandboxSource } from '@/lib/client/sandbox-source';
import type { Position } from '@/lib/fumen';
import { useSettings } from '@/components/settings/useSettings';
import { usePracticeUrl, useSandbox } from '@/components/sandbox/useSandbox';
import { ExportPanel } from '@/components/sandbox/ExportPanel';
import { FumenPager } from '@/components/sandbox/FumenPager';
import { ImportPanel } from '@/components/sandbox/ImportPanel';
import { FinesseTrainer } from '@/components/sandbox/FinesseTrainer';
import { Button } from '@/components/ui/Button';
import { PageHeading } from '@/components/ui/PageHeading';

const BoardEditor = lazy(() => import('@/components/sandbox/BoardEditor').then((m) => ({ default: m.BoardEditor })));

/** The practice page: a sandbox on a canvas, with undo, reset, fumen import/export and the editor. */
export function PracticeScreen(props: {
  initial: SandboxSource;
  from: { href: string; label: string } | null;
  problem: string | null;
  signedIn: boolean;
}) {
  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const fieldRef = useRef<HTMLDivElement>(null);
  const { settings } = useSettings(props.signedIn);
  const [source, setSource] = useState<SandboxSource>(props.initial);
  const [error, setError] = useState<string | null>(props.problem);
  const [editing, setEditing] = useState<Position | null>(null);
  const { mounted, view, drill } = useSandbox({ source, setSource, setError, settings, rootRef, canvasRef, fieldRef });
  usePracticeUrl(source, props.initial);
  const [trainer, setTrainer] = useState(false);
  // A sandbox mounted for a new source starts with the trainer off: it follows the switch.
  useEffect(() => {
    if (view && view.trainer !== trainer) mounted.current?.controller.setTrainer(trainer);
  }, [view, trainer, mounted]);

  const c = () => mounted.current?.controller;
  const open = (next: SandboxSource) => {
    setError(null);
    setEditing(null);
    setSource(next);
  };
  const edit = (on: boolean) => {
    const m = mounted.current;
    m?.controller.setSuspended(on);
    setEditing(on && m ? m.editable() : null);
  };

  return (
    <div ref={rootRef} data-testid="sandbox" className="space-y-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <PageHeading size="compact">Practice</PageHeading>
        <p className="text-sm text-muted">
          Unranked.{' '}
          {props.from && source === props.initial ? (
            <>
              From <Link className="link" href={props.from.href}>{props.from.label}</Link>.
            </>
          ) : null}
        </p>
      </div>
      {error && (
        <p role="alert" data-testid="sandbox-error" className="rounded-lg bg-danger-bg px-3 py-2 text-sm text-on-danger-bg">
          {error}
        </p>
      )}
      <div className="flex flex-col gap-4 lg:flex-row">
        <div ref={fieldRef} className="w-full lg:flex-1">
          <div className="relative h-[min(70dvh,720px)] min-h-80 w-full overflow-hidden rounded-xl bg-field">
            <canvas ref={canvasRef} data-testid="field" className="mx-auto block" role="img" aria-label="Practice field" />
            {editing && (
              <div className="absolute inset-0 overflow-auto bg-surface p-3">
                <Suspense fallback={<p className="text-muted">Loading the editor…</p>}>
                  <BoardEditor initial={editing} onPlay={(position) => open({ kind: 'position', position })} onCancel={() => edit(false)} />
                </Suspense>
              </div>
            )}
            {view?.paused && !editing && (
              <div className="absolute inset-0 flex items-center justify-center">
                <button type="button" className="rounded-xl bg-field-panel/95 px-6 py-4 text-xl font-bold text-field-fg" onClick={() => c()?.setPaused(false)}>
                  Paused · resume
                </button>
              </div>
            )}
          </div>
        </div>
        <aside className="space-y-4 lg:w-80">
          <div className="flex flex-wrap gap-2">
            <Button data-testid="undo" disabled={!view?.canUndo} onClick={() => c()?.undo()}>
              Undo piece (Backspace)
            </Button>
            <Button data-testid="reset" onClick={() => c()?.reset()}>
              Reset to start (R)
            </Button>
            <Button onClick={() => c()?.setPaused(!view?.paused)}>
              {view?.paused ? 'Resume' : 'Pause'} (Esc)
            </Button>
            <Button data-testid="edit" disabled={!view || editing !== null} onClick={() => edit(true)}>
              Edit board
            </Button>
          </div>
          <FinesseTrainer view={view} on={trainer} onChange={setTrainer} />
          {drill && source.kind === 'fumen' && (
            <FumenPager drill={drill} taken={view?.taken ?? null} onPage={(page) => open({ ...source, page })} />
          )}
          <p className="text-xs text-muted">
            {view ? `${view.pieces} piece${view.pieces === 1 ? '' : 's'} placed` : 'Loading…'}
            {view?.over ? ' · game over: undo or reset to go on' : ''}
            {view?.waiting ? ' · nothing falls until your first key' : ''} · your keys from <Link className="underline" href="/settings">Settings</Link>
          </p>
          <ExportPanel exportFumen={(all) => mounted.current?.exportFumen(all) ?? null} />
          <ImportPanel onOpen={open} onFocus={(on) => c()?.setSuspended(on)} />
        </aside>
      </div>
    </div>
  );
}
