import type { Action, Settings } from '@/lib/validations/settings';

type Mounted = { update(settings: Settings): void; dispose(): void };
/** What the pad drives: the play page's controller or the practice sandbox's. */
export type Pressable = { press(action: Action, source: string, down: boolean, t: number): void };

/** Whether this device gets the on-screen pad: asked for, or a finger is its main pointer. */
export function wantsTouch(settings: Settings, coarse: boolean): boolean {
  return settings.touch.show === 'on' || (settings.touch.show === 'auto' && coarse);
}

/**
 * Loads the touch controls only where they are wanted (the pad's code is not part of the game's
 * download on a desktop) and keeps them in step with the settings.
 */
export function touchControls(root: HTMLElement, canvas: HTMLCanvasElement, controller: () => Pressable | null) {
  let mounted: Mounted | null = null;
  let loading = false;
  let latest: Settings | null = null;
  let enabled = true;
  let disposed = false;
  const apply = () => {
    if (!latest || disposed) return;
    const want = enabled && wantsTouch(latest, window.matchMedia('(pointer: coarse)').matches);
    if (want && !mounted && !loading) {
      loading = true;
      void import('@/components/touch/mount').then(({ mountTouch }) => {
        loading = false;
        if (disposed) return;
        mounted = mountTouch(root, canvas, (action, finger, down, t) => controller()?.press(action, finger, down, t));
        apply();
      });
    } else if (!want && mounted) {
      mounted.dispose();
      mounted = null;
    } else mounted?.update(latest);
  };
  return {
    update(settings: Settings) {
      latest = settings;
      apply();
    },
    /** Whether there is a game to play: versus has none in its lobby, and no pad is drawn there. */
    enable(on: boolean) {
      if (on === enabled) return;
      enabled = on;
      apply();
    },
    dispose() {
      disposed = true;
      mounted?.dispose();
    },
  };
}
