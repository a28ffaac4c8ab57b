import { describe, expect, it } from 'vitest';
import { MAX_FIRST_TO } from '@/lib/engine';
import { parseServerMessage } from '@/lib/live/protocol';
import { BAND_IDS, BANDS, bandOf, drawnEdges, setLengthOf, type BandEdges } from '@/lib/versus/bands';

const edges: BandEdges = { bronze: -Infinity, silver: 1300, gold: 1450, platinum: 1600, diamond: 1750, master: 1900, grandmaster: Infinity };

describe('the band table', () => {
  it('is a ladder: each band above the lowest holds a smaller top share, and sets never shorten going up', () => {
    const table = BAND_IDS.map((b) => BANDS[b]);
    expect(table[0]!.topPerMille).toBe(1000);
    for (let i = 1; i < table.length; i++) {
      expect(table[i]!.topPerMille).toBeLessThan(table[i - 1]!.topPerMille);
      expect(table[i]!.topPerMille).toBeGreaterThan(0);
      expect(table[i]!.firstTo).toBeGreaterThanOrEqual(table[i - 1]!.firstTo);
    }
    for (const band of table) expect(band.firstTo).toBeLessThanOrEqual(MAX_FIRST_TO);
    expect(new Set(table.map((b) => b.firstTo))).toEqual(new Set([2, 3, 4]));
  });

  it('puts a rating in the highest band whose edge it reaches; an edge nobody can reach is skipped', () => {
    expect(bandOf(1299.99, edges)).toBe('bronze');
    expect(bandOf(1300, edges)).toBe('silver');
    expect(bandOf(1899, edges)).toBe('diamond');
    expect(bandOf(5000, edges)).toBe('master');
    expect(bandOf(-5000, edges)).toBe('bronze');
    expect(drawnEdges(edges).map((e) => e.band)).toEqual(['silver', 'gold', 'platinum', 'diamond', 'master']);
  });

  it('a set is as long as the lower band of the pair plays', () => {
    expect(setLengthOf('bronze', 'silver')).toBe(2);
    expect(setLengthOf('gold', 'grandmaster')).toBe(3);
    expect(setLengthOf('grandmaster', 'gold')).toBe(3);
    expect(setLengthOf('diamond', 'master')).toBe(4);
  });
});

describe('bands on the wire', () => {
  const vover = (bands: unknown) => ({
    t: 'vover', matchId: 'm1', winner: 0, score: [2, 0], reason: 'games', ranked: true, stored: true,
    ratings: [{ before: 1600, after: 1612, rdAfter: 79, bands }, { before: 1500, after: 1490, rdAfter: 90, placement: { played: 4, of: 10 } }],
  });

  it('a page reads each seat’s bands and placement from vover', () => {
    expect(parseServerMessage(vover(['gold', 'platinum']))).toMatchObject({ ok: true, message: { ratings: [{ bands: ['gold', 'platinum'] }, { placement: { played: 4, of: 10 } }] } });
  });

  it('a band a newer server added reads as no bands: the result still shows its rating change', () => {
    const read = parseServerMessage(vover(['gold', 'champion']));
    expect(read).toMatchObject({ ok: true, message: { t: 'vover', ratings: [{ before: 1600, after: 1612 }, { before: 1500 }] } });
    expect(read.ok && read.message.t === 'vover' && read.message.ratings?.[0].bands).toBeUndefined();
  });
});

