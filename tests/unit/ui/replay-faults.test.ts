import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { finesseOfReplay, type Replay } from '@/lib/engine';
import { FinesseFaults } from '@/components/replay/FinesseFaults';
import { SeekBar } from '@/components/replay/SeekBar';

const { replay } = JSON.parse(readFileSync(new URL('../../fixtures/replays/rules5-sprint-3min.json', import.meta.url), 'utf8')) as { replay: Replay };
const tally = finesseOfReplay(replay);

describe('finesse in the replay viewer', () => {
  it('marks each piece placed with faults on the timeline, at its lock', () => {
    const faultTicks = tally.pieces.filter((p) => p.faults > 0).map((p) => p.tick);
    const html = renderToStaticMarkup(createElement(SeekBar, { tick: 0, end: 10_000, pieceTicks: [], faultTicks, onSeek: () => {} }));
    expect(html).toContain(`data-testid="fault-markers" data-count="${faultTicks.length}"`);
    expect(html).toContain(`M${((faultTicks[0]! / 10_000) * 1000).toFixed(1)} 0V10`);
    expect(renderToStaticMarkup(createElement(SeekBar, { tick: 0, end: 10, pieceTicks: [1], onSeek: () => {} }))).not.toContain('fault-markers');
  });

  it('counts the faults up to the moment shown, of the whole game', () => {
    const first = tally.pieces.find((p) => p.faults > 0)!;
    const at = (tick: number) => renderToStaticMarkup(createElement(FinesseFaults, { tally, tick }));
    expect(at(first.tick)).toContain(`>0</span><span class="text-muted"> of ${tally.faults}</span>`);
    expect(at(first.tick + 1)).toContain(`>${first.faults}</span><span class="text-muted"> of ${tally.faults}</span>`);
  });
});
