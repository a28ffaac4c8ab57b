'use client';

import { useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { FumenDrill } from '@/lib/client/fumen-drill';
import type { SandboxView } from '@/lib/client/sandbox-controller';
import { practiceUrl, type SandboxSource } from '@/lib/client/sandbox-source';
import type { Settings } from '@/lib/validations/settings';
import type { MountedSandbox } from '@/components/sandbox/runtime';

// The engine, fumen codec, loop and renderer arrive with the first sandbox, not with the page.
const loadRuntime = () => import('@/components/sandbox/runtime');

/**
 * The sandbox for the current source, mounted on the canvas once settings are known and rebuilt
 * whenever the source changes (a fumen page step is a new source). A source that cannot be opened
 * sets the error and opens its fallback; page keys set the next page as the source.
 */
export function useSandbox(opts: {
  source: SandboxSource;
  setSource: Dispatch<SetStateAction<SandboxSource>>;
  setError: Dispatch<SetStateAction<string | null>>;
  settings: Settings | null;
  rootRef: RefObject<HTMLDivElement | null>;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  /** The touch pad goes right under the field (on a phone the panels beside it come below). */
  fieldRef: RefObject<HTMLDivElement | null>;
}) {
  const { source, setSource, setError, settings, rootRef, canvasRef, fieldRef } = opts;
  const mounted = useRef<MountedSandbox | null>(null);
  const settingsRef = useRef(settings);
  const [view, setView] = useState<SandboxView | null>(null);
  const [drill, setDrill] = useState<FumenDrill | null>(null);
  const ready = settings !== null;

  useEffect(() => {
    settingsRef.current = settings;
    if (settings) mounted.current?.setSettings(settings);
  }, [settings]);

  useEffect(() => {
    if (!ready || !rootRef.current || !canvasRef.current) return;
    const root = rootRef.current;
    const canvas = canvasRef.current;
    let live = true;
    loadRuntime().then(
      ({ mountSandbox, SandboxSourceError }) => {
        if (!live) return;
        try {
          mounted.current = mountSandbox({
            source,
            canvas,
            root,
            touchRoot: fieldRef.current ?? root,
            settings: () => settingsRef.current!,
            onView: setView,
            // Page keys reach here only while the sandbox has the keys (never with the editor open).
            onPage: (page) => {
              if (page === null || source.kind !== 'fumen') return;
              setError(null);
              setSource({ ...source, page });
            },
          });
          setDrill(mounted.current.drill);
          root.dataset.ready = 'true';
        } catch (e) {
          if (!(e instanceof SandboxSourceError)) throw e;
          setError(e.message);
          setDrill(null);
          // The message says what was wrong; the player still gets a board (or the fumen's first page).
          if (source.kind !== 'empty') setSource(e.fallback);
        }
      },
      () => live && setError('The sandbox could not be loaded. Check your connection and reload the page.'),
    );
    return () => {
      live = false;
      delete root.dataset.ready;
      mounted.current?.dispose();
      mounted.current = null;
    };
  }, [ready, source, setSource, setError, rootRef, canvasRef, fieldRef]);

  return { mounted, view, drill };
}

/** The address follows the sandbox (a fumen's page as it steps), so a reload or a copied link opens the same. */
export function usePracticeUrl(source: SandboxSource, opened: SandboxSource): void {
  useEffect(() => {
    const url = practiceUrl(source, opened);
    if (url && url !== window.location.pathname + window.location.search) window.history.replaceState(null, '', url);
  }, [source, opened]);
}
