import type { SoundEffect } from '@/lib/validations/touch-sound';

/**
 * The game's sound effects as data: each is a few short notes synthesised with Web Audio
 * (docs/decisions/0015-sound.md), so there are no audio files to fetch or cache offline.
 * A note: oscillator type, start and end frequency (Hz), start offset and length (s), peak gain.
 */
export type Note = { wave: OscillatorType; from: number; to: number; at: number; len: number; gain: number };

const n = (wave: OscillatorType, from: number, to: number, at: number, len: number, gain: number): Note => ({ wave, from, to, at, len, gain });

/** A major-ish arpeggio from `base`, one note per step, for clears and celebrations. */
const arpeggio = (base: number, steps: number, wave: OscillatorType = 'triangle', gain = 0.35): Note[] =>
  Array.from({ length: steps }, (_, i) => n(wave, base * [1, 1.26, 1.5, 2, 2.52, 3][i]!, base * [1, 1.26, 1.5, 2, 2.52, 3][i]!, i * 0.06, 0.14, gain));

export const SOUNDS = {
  move: [n('square', 320, 300, 0, 0.025, 0.08)],
  rotate: [n('triangle', 520, 700, 0, 0.04, 0.12)],
  softDrop: [n('sine', 180, 150, 0, 0.03, 0.08)],
  hardDrop: [n('square', 160, 60, 0, 0.09, 0.25)],
  lock: [n('triangle', 240, 200, 0, 0.05, 0.18)],
  tspin: [n('sawtooth', 420, 840, 0, 0.12, 0.18), n('triangle', 840, 840, 0.1, 0.12, 0.2)],
  b2b: [n('sine', 110, 110, 0, 0.25, 0.3), n('triangle', 880, 1320, 0.05, 0.18, 0.15)],
  perfectClear: arpeggio(523, 6, 'triangle', 0.4),
  levelUp: arpeggio(392, 4, 'square', 0.15),
  countdown: [n('square', 660, 660, 0, 0.08, 0.15)],
  gameOver: [n('sawtooth', 300, 80, 0, 0.7, 0.22)],
} as const satisfies Partial<Record<SoundEffect, Note[]>>;

/** A line clear: one rising note per line, a Tetris in four. */
export const clearNotes = (lines: number): Note[] => arpeggio(330, Math.min(4, Math.max(1, lines)));

/** A combo: a blip that climbs a semitone per link of the chain. */
export const comboNotes = (combo: number): Note[] => [n('sine', 440 * 2 ** (Math.min(combo, 24) / 12), 440 * 2 ** (Math.min(combo, 24) / 12), 0.02, 0.08, 0.18)];

/** The last step of the countdown ("go"): an octave up. */
export const goNotes: Note[] = [n('square', 1320, 1320, 0, 0.14, 0.15)];

/** A finished game (goal reached, time up): up, not down. */
export const finishNotes: Note[] = arpeggio(440, 4, 'triangle', 0.3);
