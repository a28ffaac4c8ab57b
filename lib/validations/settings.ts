// zod/mini with named imports: the schema also runs in the browser, where classic zod costs ~30 kB gzipped.
import {
  _default, array, boolean, enum as zEnum, gte, int, literal, lte, maxLength, object, refine, regex, string, union,
  type output, type ZodMiniDefault,
} from 'zod/mini';
import {
  ARR_MAX, ARR_MIN, DAS_MAX, DAS_MIN, DEFAULT_NEXT_COUNT, KEYS, NEXT_COUNT_MAX, NEXT_COUNT_MIN, SDF_MAX, SDF_MIN,
} from '@/lib/engine/constants';
import { THEMES } from '@/lib/page-prefs';
import { soundSchema, touchSchema } from '@/lib/validations/touch-sound';

/**
 * Player settings: one schema for localStorage, the settings form and PUT /api/settings.
 * Every field has a default, so an older or partial object parses into a full one; bump
 * SETTINGS_VERSION (and migrate in parseStoredSettings) when a field changes meaning.
 */
export const SETTINGS_VERSION = 1;

/** Engine keys plus the two actions the page handles itself. */
export const ACTIONS = [...KEYS, 'pause', 'restart'] as const;
export type Action = (typeof ACTIONS)[number];
export const KEYS_PER_ACTION = 2;

export const ACTION_LABELS: Record<Action, string> = {
  left: 'Move left',
  right: 'Move right',
  softDrop: 'Soft drop',
  hardDrop: 'Hard drop',
  rotateCW: 'Rotate clockwise',
  rotateCCW: 'Rotate counter-clockwise',
  rotate180: 'Rotate 180°',
  hold: 'Hold',
  rowDown: 'One row down',
  pause: 'Pause',
  restart: 'Restart',
};

export type Bindings = Record<Action, string[]>;

/** KeyboardEvent.code values: layout-independent, e.g. "KeyZ", "ArrowLeft", "Numpad4", "Space". */
const KEY_MESSAGE = 'Key must be a KeyboardEvent.code such as KeyZ or ArrowLeft';
const keyCode = string({ error: KEY_MESSAGE }).check(regex(/^[A-Za-z0-9]{1,32}$/, KEY_MESSAGE));
const keySlots = array(keyCode, { error: 'Keys must be a list' }).check(
  maxLength(KEYS_PER_ACTION, `At most ${KEYS_PER_ACTION} keys per action`),
  refine((codes: string[]) => new Set(codes).size === codes.length, 'The same key twice for one action'),
);

const common = { pause: ['Escape', 'KeyP'], restart: ['KeyR'] } as const;

export const PRESETS = {
  guideline: {
    label: 'Guideline',
    bindings: {
      left: ['ArrowLeft'],
      right: ['ArrowRight'],
      softDrop: ['ArrowDown'],
      hardDrop: ['Space'],
      rotateCW: ['KeyX', 'ArrowUp'],
      rotateCCW: ['KeyZ', 'ControlLeft'],
      rotate180: ['KeyA'],
      hold: ['KeyC', 'ShiftLeft'],
      rowDown: [],
      ...common,
    },
  },
  wasd: {
    label: 'WASD',
    bindings: {
      left: ['KeyA'],
      right: ['KeyD'],
      softDrop: ['KeyS'],
      hardDrop: ['Space'],
      rotateCW: ['KeyW', 'KeyK'],
      rotateCCW: ['KeyQ', 'KeyJ'],
      rotate180: ['KeyE', 'KeyL'],
      hold: ['ShiftLeft', 'KeyC'],
      rowDown: [],
      pause: ['KeyP', 'Escape'],
      restart: ['KeyR'],
    },
  },
  classic: {
    label: 'Classic',
    // D is one row down, as in the original games; soft drop moves beside it to S.
    bindings: {
      left: ['ArrowLeft'],
      right: ['ArrowRight'],
      softDrop: ['KeyS'],
      hardDrop: ['Space'],
      rotateCW: ['ArrowUp'],
      rotateCCW: ['ArrowDown'],
      rotate180: [],
      hold: ['KeyC', 'ShiftLeft'],
      rowDown: ['KeyD'],
      pause: ['KeyP', 'Escape'],
      restart: ['KeyR'],
    },
  },
  numpad: {
    label: 'Numpad',
    bindings: {
      left: ['Numpad4'],
      right: ['Numpad6'],
      softDrop: ['Numpad2'],
      hardDrop: ['Numpad8'],
      rotateCW: ['Numpad5', 'Numpad9'],
      rotateCCW: ['Numpad3', 'Numpad1'],
      rotate180: ['Numpad7'],
      hold: ['Numpad0'],
      rowDown: [],
      ...common,
    },
  },
} as const satisfies Record<string, { label: string; bindings: Record<Action, readonly string[]> }>;
export type PresetId = keyof typeof PRESETS;

export function presetBindings(id: PresetId): Bindings {
  const b = PRESETS[id].bindings as Record<Action, readonly string[]>;
  return Object.fromEntries(ACTIONS.map((a) => [a, [...b[a]]])) as Bindings;
}

const DEFAULT_BINDINGS = presetBindings('guideline');

const bindingsSchema = object(
  Object.fromEntries(ACTIONS.map((a) => [a, _default(keySlots, () => [...DEFAULT_BINDINGS[a]])])) as Record<
    Action,
    ZodMiniDefault<typeof keySlots>
  >,
);

const intIn = (min: number, max: number, what: string) =>
  int({ error: `${what} must be a whole number` }).check(gte(min, `${what} must be at least ${min}`), lte(max, `${what} must be at most ${max}`));

const bool = (what: string) => boolean({ error: `${what} must be true or false` });

export const handlingSchema = object({
  /** Ticks (1/60 s) a direction is held before it auto-repeats. */
  das: _default(intIn(DAS_MIN, DAS_MAX, 'DAS'), 10),
  /** Ticks between auto-repeat moves; 0 moves to the wall at once. */
  arr: _default(intIn(ARR_MIN, ARR_MAX, 'ARR'), 2),
  /** Soft drop speed as a multiple of gravity, or straight down. */
  sdf: _default(
    union([intIn(SDF_MIN, SDF_MAX, 'SDF'), literal('instant')], { error: `SDF must be 'instant' or a whole number ${SDF_MIN}–${SDF_MAX}` }),
    20,
  ),
  /** Forget the DAS charge when a new piece spawns. */
  dasCut: _default(bool('DAS cut'), false),
});

export const PALETTES = ['standard', 'colorblind', 'highContrast'] as const;
export type PaletteId = (typeof PALETTES)[number];

/** When a game counts down 3-2-1 before it starts: the page's first game only (a restart plays at once), or every game. */
export const COUNTDOWNS = ['first', 'every'] as const;
export type Countdown = (typeof COUNTDOWNS)[number];

export const displaySchema = object({
  ghost: _default(bool('Ghost'), true),
  nextCount: _default(intIn(NEXT_COUNT_MIN, NEXT_COUNT_MAX, 'Next count'), DEFAULT_NEXT_COUNT),
  grid: _default(bool('Grid'), true),
  palette: _default(zEnum(PALETTES, { error: `Palette must be one of ${PALETTES.join(', ')}` }), 'standard'),
  /** No line-clear flashes, glints, fades or animated transitions (prefers-reduced-motion does the same). */
  reducedMotion: _default(bool('Reduced motion'), false),
  /** The site's colours; `system` follows the device. Settings saved before themes existed read as `system`. */
  theme: _default(zEnum(THEMES, { error: `Theme must be one of ${THEMES.join(', ')}` }), 'system'),
  /** Draw the field upside down so blocks rise from the bottom. */
  rising: _default(bool('Rising'), false),
  /** Resumes after a pause always count down (0011): this is about starting a game. */
  countdown: _default(zEnum(COUNTDOWNS, { error: `Countdown must be one of ${COUNTDOWNS.join(', ')}` }), 'first'),
});

export const settingsSchema = object(
  {
    version: _default(literal(SETTINGS_VERSION, { error: `Settings version must be ${SETTINGS_VERSION}` }), SETTINGS_VERSION),
    handling: _default(handlingSchema, () => handlingSchema.parse({})),
    bindings: _default(bindingsSchema, () => bindingsSchema.parse({})),
    display: _default(displaySchema, () => displaySchema.parse({})),
    touch: _default(touchSchema, () => touchSchema.parse({})),
    sound: _default(soundSchema, () => soundSchema.parse({})),
  },
  { error: 'Settings must be an object' },
);

export type Settings = output<typeof settingsSchema>;
export type HandlingSettings = output<typeof handlingSchema>;
export type DisplaySettings = output<typeof displaySchema>;

export function defaultSettings(): Settings {
  return settingsSchema.parse({});
}

/** Stored settings of unknown age or origin: whatever does not parse falls back to the defaults. */
export function parseStoredSettings(value: unknown): Settings {
  const parsed = settingsSchema.safeParse(value);
  return parsed.success ? parsed.data : defaultSettings();
}

/** Codes bound to more than one action, with the actions that share each. */
export function bindingConflicts(bindings: Bindings): Map<string, Action[]> {
  const byCode = new Map<string, Action[]>();
  for (const action of ACTIONS) {
    for (const code of bindings[action]) byCode.set(code, [...(byCode.get(code) ?? []), action]);
  }
  for (const [code, actions] of byCode) if (actions.length < 2) byCode.delete(code);
  return byCode;
}
