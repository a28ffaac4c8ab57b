import { RoomController, type RoomHost } from '@/lib/client/room-controller';
import type { Meter } from '@/lib/client/versus-controller';
import type { RoomSessionView } from '@/lib/client/live/room-session';
import type { Settings } from '@/lib/validations/settings';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { GameSound } from '@/components/game/sound';
import { touchControls } from '@/components/touch/attach';

/**
 * What a room page needs once it plays: engine, session, loop, a renderer per field. Loaded on
 * demand, as versus's runtime is, so the room form's first load is the shell. The small fields are
 * found by their `data-room-field` seat each frame: the page renders as many as the room has seats.
 */
export function mountRooms(opts: {
  root: HTMLElement;
  own: HTMLCanvasElement;
  settings: Settings;
  onView: (v: RoomSessionView) => void;
  onCountdown: (n: number | null) => void;
  onMeter: (meter: Meter) => void;
}): { controller: RoomController; dispose: () => void } {
  const own = new CanvasView(opts.own);
  const effects = new Effects();
  const views = new Map<HTMLCanvasElement, CanvasView>();
  let controller: RoomController | null = null;
  const touch = touchControls(opts.root, opts.own, () => controller);
  touch.enable(false);
  const sound = new GameSound();
  const small = (seat: number): { canvas: HTMLCanvasElement; view: CanvasView } | null => {
    const canvas = opts.root.querySelector<HTMLCanvasElement>(`canvas[data-room-field="${seat}"]`);
    if (!canvas) return null;
    let view = views.get(canvas);
    if (!view) views.set(canvas, (view = new CanvasView(canvas)));
    return { canvas, view };
  };
  const host: RoomHost = {
    root: opts.root,
    onView(view) {
      // Fields React took away (a new set, another room) let go of their renderers.
      for (const [canvas, v] of views) {
        if (canvas.isConnected) continue;
        v.dispose();
        views.delete(canvas);
      }
      touch.enable(view.play !== null && view.play.seat !== null && view.play.state !== 'over');
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
    draw(snap, ownEvents, others, _otherEvents, now, display) {
      const mode = controller?.session.current.play?.mode ?? 'battle';
      if (snap) {
        if (ownEvents.length > 0) {
          effects.push(ownEvents, now);
          sound.events(ownEvents);
        }
        own.draw(snap, drawOptions(display, mode, { effects, now }));
      }
      others.forEach((s, seat) => {
        const at = s ? small(seat) : null;
        if (!s || !at) return;
        at.view.draw(s, drawOptions(display, mode, { now }));
        // Tests (and tools) read how far each field has been played.
        const canvas = at.canvas;
        if (canvas.dataset.pieces !== String(s.pieces)) canvas.dataset.pieces = String(s.pieces);
      });
    },
  };
  controller = new RoomController(opts.settings, host);
  return {
    controller,
    dispose() {
      controller.dispose();
      touch.dispose();
      sound.dispose();
      own.dispose();
      views.forEach((v) => v.dispose());
    },
  };
}
