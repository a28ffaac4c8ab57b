import { TICKS_PER_SECOND, type GameEvent } from '@/lib/engine';

/**
 * APM, PPS and VS of one field, as TETR.IO defines them: APM is attack per minute, PPS pieces per
 * second, VS (attack + garbage rows cleared) per second × 100. Attack is the lock's attack-table
 * value before cancelling (TETR.IO counts lines that cancel incoming garbage as sent). The live
 * numbers in the browser and the stored ones on the server are both tallied here, from the
 * engine's events, so a figure means the same wherever it is shown.
 *
 * The engine does not say which cleared rows were garbage: the tally keeps the garbage rows'
 * places (0 = bottom row), moved by each rise and clear. A field starts without garbage.
 */
export type StatsTally = { readonly attack: number; readonly garbageCleared: number; readonly garbageRows: readonly number[] };
export type Rates = { apm: number; pps: number; vs: number };
/** What a stored game keeps of a field: the rates follow from these four. */
export type FieldTotals = { attack: number; garbageCleared: number; pieces: number; ticks: number };

export const NO_TALLY: StatsTally = { attack: 0, garbageCleared: 0, garbageRows: [] };

/** The tally after `events`, in the order the engine emitted them. */
export function tallyEvents(t: StatsTally, events: readonly GameEvent[]): StatsTally {
  let { attack, garbageCleared } = t;
  let rows = t.garbageRows;
  for (const e of events) {
    if (e.type === 'lock') {
      attack += e.attack;
      if (e.clearedRows.length === 0) continue;
      garbageCleared += rows.filter((r) => e.clearedRows.includes(r)).length;
      rows = rows.filter((r) => !e.clearedRows.includes(r)).map((r) => r - e.clearedRows.filter((c) => c < r).length);
    } else if (e.type === 'garbageRise') {
      rows = [...Array.from({ length: e.rows }, (_, i) => i), ...rows.map((r) => r + e.rows)];
    }
  }
  return { attack, garbageCleared, garbageRows: rows };
}

/** The rates of a field after `ticks` with `pieces` placed (zero before the first tick). */
export function rates(t: Omit<FieldTotals, 'pieces' | 'ticks'>, pieces: number, ticks: number): Rates {
  if (ticks <= 0) return { apm: 0, pps: 0, vs: 0 };
  const seconds = ticks / TICKS_PER_SECOND;
  return { apm: (t.attack * 60) / seconds, pps: pieces / seconds, vs: ((t.attack + t.garbageCleared) * 100) / seconds };
}

/**
 * The rates over several games taken together: totals summed, then divided (a short game weighs
 * as little as it lasted, as TETR.IO's league averages do), never a mean of per-game rates.
 */
export function ratesOver(games: readonly FieldTotals[]): Rates {
  const sum = games.reduce(
    (s, g) => ({ attack: s.attack + g.attack, garbageCleared: s.garbageCleared + g.garbageCleared, pieces: s.pieces + g.pieces, ticks: s.ticks + g.ticks }),
    { attack: 0, garbageCleared: 0, pieces: 0, ticks: 0 },
  );
  return rates(sum, sum.pieces, sum.ticks);
}
