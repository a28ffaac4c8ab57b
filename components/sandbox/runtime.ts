import { CanvasView } from '@/components/game/canvas-view';
import { fitField } from '@/components/game/fit';
import { Effects } from '@/components/game/effects';
import { PALETTES } from '@/components/game/palette';
import { touchControls } from '@/components/touch/attach';
import { editablePosition } from '@/lib/client/board-editor';
import { pageStep, type FumenDrill } from '@/lib/client/fumen-drill';
import { SandboxController, type SandboxView } from '@/lib/client/sandbox-controller';
import { exportFumen, openSandbox, type SandboxSource } from '@/lib/client/sandbox-source';
import type { Sandbox } from '@/lib/client/sandbox';
import type { AnyMode } from '@/lib/engine';
import type { Position } from '@/lib/fumen';
import type { Settings } from '@/lib/validations/settings';

export { SandboxSourceError } from '@/lib/client/sandbox-source';

export interface MountedSandbox {
  controller: SandboxController;
  sandbox: Sandbox;
  mode: AnyMode;
  /** The fumen page being drilled; null for any other source. */
  drill: FumenDrill | null;
  exportFumen(allPages: boolean): string;
  /** The position now, for the board editor (the piece in play goes first in the queue). */
  editable(): Position;
  /** New settings: keys for the controller, and the touch pad shown, hidden or re-laid out. */
  setSettings(settings: Settings): void;
  dispose(): void;
}

/**
 * Everything the practice page runs once a source is chosen: engine, fumen codec, loop and
 * renderer. Imported on demand, so none of it is in any page's first load.
 */
export function mountSandbox(opts: {
  source: SandboxSource;
  canvas: HTMLCanvasElement;
  root: HTMLElement;
  /** Where the touch pad goes (after the field). */
  touchRoot: HTMLElement;
  settings: () => Settings;
  onView: (view: SandboxView) => void;
  /** A page key pressed while a fumen is drilled, with the page it asks for (null past either end). */
  onPage: (page: number | null) => void;
}): MountedSandbox {
  const { sandbox, mode, drill } = openSandbox(opts.source, { ...opts.settings().handling });
  // The field's box sized to the screen as on the play page, before the canvas view measures it:
  // on a phone on its side a fixed share of the height put the field's bottom rows off the screen.
  const unfit = opts.canvas.parentElement ? fitField(opts.touchRoot, opts.canvas.parentElement) : () => {};
  const view = new CanvasView(opts.canvas);
  const effects = new Effects();
  const controller = new SandboxController(sandbox, opts.settings(), {
    root: opts.root,
    onView: opts.onView,
    ...(drill ? { onPage: (step: -1 | 1) => opts.onPage(pageStep(drill, step)) } : {}),
    draw(snapshot, events, now) {
      if (events.length > 0) effects.push(events, now);
      const d = opts.settings().display;
      view.draw(snapshot, {
        palette: PALETTES[d.palette],
        mode,
        ghost: d.ghost,
        grid: d.grid,
        rising: d.rising,
        reducedMotion: d.reducedMotion,
        hidden: false,
        effects,
        now,
      });
    },
  });
  // The same pad and gestures as the play page, driving the sandbox (loaded only where wanted).
  const touch = touchControls(opts.touchRoot, opts.canvas, () => controller);
  touch.update(opts.settings());
  return {
    controller,
    sandbox,
    mode,
    drill,
    setSettings(settings) {
      controller.setSettings(settings);
      touch.update(settings);
    },
    exportFumen: (allPages) => exportFumen(sandbox, allPages),
    editable: () => editablePosition(sandbox.snapshot()),
    dispose() {
      touch.dispose();
      controller.dispose();
      view.dispose();
      unfit();
    },
  };
}
