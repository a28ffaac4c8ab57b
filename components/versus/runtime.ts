import { VersusController, type Meter } from '@/lib/client/versus-controller';
import { VersusStatsFeed, type LiveStats } from '@/lib/client/versus-stats';
import type { VersusView } from '@/lib/client/live/versus-session';
import type { Settings } from '@/lib/validations/settings';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { GameSound } from '@/components/game/sound';
import { touchControls } from '@/components/touch/attach';

/**
 * What a versus page needs once it plays: engine, session, loop, renderer for both fields. Loaded
 * on demand, like the play page's runtime, so the lobby's first load is the shell.
 */
export function mountVersus(opts: {
  root: HTMLElement;
  own: HTMLCanvasElement;
  opponent: HTMLCanvasElement;
  settings: Settings;
  onView: (v: VersusView) => void;
  onCountdown: (n: number | null) => void;
  onMeter: (meter: Meter) => void;
  /** Live APM / PPS / VS: this seat's, then the opponent's. */
  onStats: (stats: [LiveStats, LiveStats]) => void;
}): { controller: VersusController; dispose: () => void } {
  const views = [new CanvasView(opts.own), new CanvasView(opts.opponent)] as const;
  const effects = [new Effects(), new Effects()] as const;
  let controller: VersusController | null = null;
  const touch = touchControls(opts.root, opts.own, () => controller);
  // The pad comes with a match and goes with it: the lobby is buttons and links, not a game.
  touch.enable(false);
  const sound = new GameSound();
  const stats = new VersusStatsFeed(opts.onStats);
  controller = new VersusController(opts.settings, {
    root: opts.root,
    onView(view) {
      touch.enable(view.match !== null);
      opts.onView(view);
    },
    onMeter: opts.onMeter,
    onCountdown(n) {
      if (n !== null) sound.countdown(n);
      opts.onCountdown(n);
    },
    onSettings(settings) {
      touch.update(settings);
      sound.update(settings.sound);
    },
    draw(own, ownEvents, opponent, opponentEvents, now, display) {
      if (ownEvents.length > 0) {
        effects[0].push(ownEvents, now);
        sound.events(ownEvents);
      }
      if (opponentEvents.length > 0) effects[1].push(opponentEvents, now);
      const session = controller?.session;
      if (session) stats.frame(session.seat.gameIndex, own, ownEvents, opponent, opponentEvents, now);
      const mode = session?.current.match?.mode ?? 'battle';
      views[0].draw(own, drawOptions(display, mode, { effects: effects[0], now }));
      if (opponent) views[1].draw(opponent, drawOptions(display, mode, { effects: effects[1], now }));
    },
  });
  return {
    controller,
    dispose() {
      controller.dispose();
      touch.dispose();
      sound.dispose();
      views.forEach((v) => v.dispose());
    },
  };
}
