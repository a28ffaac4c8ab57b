import type { Rates } from '@/lib/versus/stats';

// How the three rates read wherever they are shown: live, on the match page, on the profile.

export type RateKey = keyof Rates;

/** In the order they are shown (TETR.IO's): the short name, what it measures, and its decimals. */
export const RATE_TEXT = {
  apm: { label: 'APM', title: 'attack lines per minute', digits: 1 },
  pps: { label: 'PPS', title: 'pieces per second', digits: 2 },
  vs: { label: 'VS', title: 'attack and garbage cleared per second, × 100', digits: 1 },
} as const satisfies Record<RateKey, { label: string; title: string; digits: number }>;

export const RATE_KEYS = Object.keys(RATE_TEXT) as RateKey[];

export const formatRateOf = (key: RateKey, value: number): string => value.toFixed(RATE_TEXT[key].digits);
