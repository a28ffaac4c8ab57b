import { PlayController, type PlayState } from '@/lib/client/play-controller';
import type { Ticket } from '@/lib/client/api';
import type { Mode } from '@/lib/engine';
import type { Settings } from '@/lib/validations/settings';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { pendingFlusher } from '@/components/game/usePendingGames';

/**
 * Everything the game needs once it runs: engine, loop, renderer. The play page imports this
 * module dynamically, in parallel with its ticket request, so it is not part of the page's first load.
 * Settings flow one way: the page hands them to the controller (here at mount, later through
 * `controller.setSettings`), and the controller hands the renderer its display options per frame.
 */
export function mountGame(opts: {
  mode: Mode;
  root: HTMLElement;
  canvas: HTMLCanvasElement;
  settings: Settings;
  onState: (s: PlayState) => void;
  firstTicket: Promise<{ ok: true; ticket: Ticket } | { ok: false; message: string }>;
}): { controller: PlayController; dispose: () => void } {
  const view = new CanvasView(opts.canvas);
  const effects = new Effects();
  const controller = new PlayController(opts.mode, opts.settings, {
    root: opts.root,
    storage: window.localStorage,
    flusher: pendingFlusher(),
    onState: opts.onState,
    draw(snapshot, events, hidden, now, display) {
      if (events.length > 0) effects.push(events, now);
      view.draw(snapshot, drawOptions(display, opts.mode, { hidden, effects, now }));
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
