import { PlayController, type PlayState } from '@/lib/client/play-controller';
import type { LiveView } from '@/lib/client/live/session';
import type { Mode } from '@/lib/engine';
import type { Settings } from '@/lib/validations/settings';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { keepRetrying, pendingFlusher } from '@/components/game/usePendingGames';
import { touchControls } from '@/components/touch/attach';
import { fitField } from '@/components/game/fit';
import { GameSound } from '@/components/game/sound';

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
  practice: boolean;
  onState: (s: PlayState) => void;
  onLive: (view: LiveView) => void;
}): { controller: PlayController; dispose: () => void } {
  // Before the canvas view measures its box, so its first drawing is at the fitted size.
  const unfit = opts.canvas.parentElement ? fitField(opts.root, opts.canvas.parentElement) : () => {};
  const view = new CanvasView(opts.canvas);
  const effects = new Effects();
  // Told the settings by the controller from its constructor on, so they must exist before it.
  let controller: PlayController | null = null;
  const touch = touchControls(opts.root, opts.canvas, () => controller);
  const sound = new GameSound();
  let lastCount = -1;
  controller = new PlayController(opts.mode, opts.settings, {
    root: opts.root,
    storage: window.localStorage,
    flusher: pendingFlusher(),
    onState(state) {
      // Sound follows the countdown's steps and its "go", the one moment that is no engine event.
      const count = state.phase === 'countdown' ? state.count : state.phase === 'playing' ? 0 : -1;
      if (count !== lastCount && count >= 0 && !(count === 0 && lastCount < 0)) sound.countdown(count);
      lastCount = count;
      opts.onState(state);
    },
    onSettings(settings) {
      touch.update(settings);
      sound.update(settings.sound);
    },
    onLive: opts.onLive,
    draw(snapshot, events, hidden, now, display) {
      if (events.length > 0) {
        effects.push(events, now);
        sound.events(events);
      }
      view.draw(snapshot, drawOptions(display, opts.mode, { hidden, effects, now }));
    },
  }, opts.practice);
  void controller.newGame();
  const stopRetrying = keepRetrying();
  return {
    controller,
    dispose() {
      stopRetrying();
      controller.dispose();
      touch.dispose();
      sound.dispose();
      view.dispose();
      unfit();
    },
  };
}
