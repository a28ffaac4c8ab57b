import { PlayController, type PlayState } from '@/lib/client/play-controller';
import type { Ticket } from '@/lib/client/api';
import type { Mode } from '@/lib/engine';
import type { Settings } from '@/lib/validations/settings';
import { CanvasView } from './canvas-view';
import { Effects } from './effects';
import { PALETTES } from './palette';
import { pendingFlusher } from './usePendingGames';

/**
 * Everything the game needs once it runs: engine, loop, renderer. The play page imports this
 * module dynamically, in parallel with its ticket request, so it is not part of the page's first load.
 */
export function mountGame(opts: {
  mode: Mode;
  root: HTMLElement;
  canvas: HTMLCanvasElement;
  settings: () => Settings;
  onState: (s: PlayState) => void;
  firstTicket: Promise<{ ok: true; ticket: Ticket } | { ok: false; message: string }>;
}): { controller: PlayController; dispose: () => void } {
  const view = new CanvasView(opts.canvas);
  const effects = new Effects();
  const controller = new PlayController(opts.mode, opts.settings(), {
    root: opts.root,
    storage: window.localStorage,
    flusher: pendingFlusher(),
    onState: opts.onState,
    draw(snapshot, events, hidden, now) {
      if (events.length > 0) effects.push(events, now);
      const d = opts.settings().display;
      view.draw(snapshot, {
        palette: PALETTES[d.palette],
        mode: opts.mode,
        ghost: d.ghost,
        grid: d.grid,
        rising: d.rising,
        reducedMotion: d.reducedMotion,
        hidden,
        effects,
        now,
      });
    },
  });
  void controller.newGame(opts.firstTicket);
  return {
    controller,
    dispose() {
      controller.dispose();
      view.dispose();
    },
  };
}
