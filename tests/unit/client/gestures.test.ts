import { describe, expect, it } from 'vitest';
import { cellPxFor, GestureRecognizer, type KeyEdge, type PointerSample } from '@/lib/client/gestures';

const CONFIG = { width: 300, cellPx: 30 };

/** A finger's trace as written down from a phone: [kind, x, y, ms], one finger unless `id` is given. */
type Step = [PointerSample['kind'], number, number, number, number?];

function run(trace: Step[], flushAt: number[] = []): string[] {
  const g = new GestureRecognizer(CONFIG);
  const edges: KeyEdge[] = [];
  const samples = trace.map(([kind, x, y, t, id]) => ({ kind, x, y, t, id: id ?? 1 }));
  const times = [...new Set([...samples.map((s) => s.t), ...flushAt])].sort((a, b) => a - b);
  for (const t of times) {
    for (const s of samples.filter((x) => x.t === t)) edges.push(...g.feed(s));
    edges.push(...g.flush(t));
  }
  edges.push(...g.flush(Number.MAX_SAFE_INTEGER));
  return edges.map((e) => `${e.key}${e.down ? '↓' : '↑'}${e.t === Number.MAX_SAFE_INTEGER ? '' : `@${e.t}`}`);
}

describe('gesture recognizer', () => {
  it('a short tap on the right half rotates clockwise, held as long as the finger was down', () => {
    expect(run([['down', 200, 300, 0], ['move', 203, 302, 40], ['up', 204, 301, 90]], [150, 200])).toEqual(['rotateCW↓@90', 'rotateCW↑@200']);
  });

  it('a tap on the left half rotates counter-clockwise', () => {
    expect(run([['down', 60, 300, 0], ['up', 61, 300, 70]], [140])).toEqual(['rotateCCW↓@70', 'rotateCCW↑@140']);
  });

  it('a long press is no tap', () => {
    expect(run([['down', 200, 300, 0], ['up', 200, 300, 600]])).toEqual([]);
  });

  it('dragging sideways presses once per cell travelled, each press released by the next sample', () => {
    const trace: Step[] = [['down', 100, 300, 0], ['move', 118, 301, 16], ['move', 132, 302, 33], ['move', 165, 300, 50], ['move', 199, 299, 66], ['up', 199, 299, 200]];
    expect(run(trace)).toEqual(['right↓@33', 'right↑@50', 'right↓@50', 'right↑@66', 'right↓@66', 'right↑@200']);
  });

  it('a fast sideways swipe over two cells in one sample gives two presses', () => {
    expect(run([['down', 200, 300, 0], ['move', 135, 300, 16], ['up', 135, 300, 100]])).toEqual(['left↓@16', 'left↑@16', 'left↓@16', 'left↑@100']);
  });

  it('dragging down slowly holds soft drop until the finger lifts', () => {
    const trace: Step[] = [['down', 150, 100, 0], ['move', 150, 120, 100], ['move', 151, 140, 200], ['move', 150, 170, 300], ['up', 150, 175, 700]];
    expect(run(trace)).toEqual(['softDrop↓@200', 'softDrop↑@700']);
  });

  it('a flick down hard-drops without soft-dropping first', () => {
    const trace: Step[] = [['down', 150, 100, 0], ['move', 150, 130, 16], ['move', 151, 190, 33], ['up', 151, 240, 50]];
    expect(run(trace, [200])).toEqual(['hardDrop↓@50', 'hardDrop↑@200']);
  });

  it('a flick up holds', () => {
    expect(run([['down', 150, 400, 0], ['move', 150, 360, 16], ['up', 150, 300, 40]], [200])).toEqual(['hold↓@40', 'hold↑@200']);
  });

  it('a second finger is ignored while the first drives, and a cancelled drag releases soft drop', () => {
    const trace: Step[] = [
      ['down', 150, 100, 0], ['down', 50, 300, 10, 2], ['up', 50, 300, 60, 2], ['move', 150, 140, 200], ['move', 150, 170, 400], ['cancel', 150, 170, 500],
    ];
    expect(run(trace)).toEqual(['softDrop↓@200', 'softDrop↑@500']);
  });

  it('higher sensitivity means less travel per cell', () => {
    expect(cellPxFor(10)).toBeLessThan(cellPxFor(1));
    expect(cellPxFor(10)).toBeGreaterThanOrEqual(12);
  });
});
