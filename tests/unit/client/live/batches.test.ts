import { describe, expect, it } from 'vitest';
import { InputBatches } from '@/lib/client/live/batches';
import { MAX_BATCH_EVENTS, MAX_BATCH_TICKS, clientMessageSchema, fromWireEvent } from '@/lib/live/protocol';
import type { ReplayEvent } from '@/lib/engine';

const tap = (tick: number): ReplayEvent[] => [{ tick, key: 'left', down: true }, { tick, key: 'left', down: false }];

describe('InputBatches', () => {
  it('numbers batches, sends each input once, and carries the clock even with no input', () => {
    const b = new InputBatches('abcdef0123');
    const log = [...tap(3)];
    const [first] = b.cut(log, 6, '0123456789abcdef');
    expect(first).toMatchObject({ t: 'inputs', stream: 'abcdef0123', seq: 1, tick: 6, hash: '0123456789abcdef' });
    expect(first!.events.map(fromWireEvent)).toEqual(log);
    log.push(...tap(8));
    const [second] = b.cut(log, 12);
    expect(second!.events.map(fromWireEvent)).toEqual(tap(8));
    const [idle] = b.cut(log, 20);
    expect(idle).toMatchObject({ seq: 3, tick: 20, events: [] });
    // Nothing new (the game waits for pieces): no batch at all.
    expect(b.cut(log, 20)).toEqual([]);
    // Every batch is a valid message of the protocol.
    for (const m of [first, second, idle]) expect(clientMessageSchema.safeParse(m).success).toBe(true);
  });

  it('splits a burst into batches the server accepts, each past its own events', () => {
    const b = new InputBatches('abcdef0123');
    const log = Array.from({ length: MAX_BATCH_EVENTS + 10 }, (_, i) => tap(i)).flat();
    const out = b.cut(log, log.at(-1)!.tick + 1);
    expect(out.length).toBe(3);
    for (const m of out) {
      expect(clientMessageSchema.safeParse(m).success).toBe(true);
      expect(m.events.every(([tick]) => tick < m.tick)).toBe(true);
    }
    expect(out.flatMap((m) => m.events).map(fromWireEvent)).toEqual(log);
  });

  it('keeps what was not acknowledged, to send again after a reconnect', () => {
    const b = new InputBatches('abcdef0123');
    const log: ReplayEvent[] = [];
    for (let i = 0; i < 5; i++) {
      log.push(...tap(i * 10));
      b.cut(log, i * 10 + 5);
    }
    b.ack(2);
    expect(b.pending).toBe(3);
    // The server says it holds batch 3: 4 and 5 go again, merged into one batch numbered 4.
    const again = b.after(3);
    expect(again.map((m) => [m.seq, m.tick])).toEqual([[4, 45]]);
    expect(again[0]!.events.map(fromWireEvent)).toEqual(log.filter((e) => e.tick >= 30));
    // The next batch follows it.
    log.push(...tap(50));
    expect(b.cut(log, 55).map((m) => m.seq)).toEqual([5]);
  });

  it('cuts a catch-up or a resend so no batch runs the clock more than MAX_BATCH_TICKS', () => {
    const b = new InputBatches('abcdef0123');
    const log = [...tap(10), ...tap(9_000)];
    const spans = (ms: { tick: number }[], from: number) => ms.map((m, i) => m.tick - (i === 0 ? from : ms[i - 1]!.tick));
    const sent = b.cut(log, 10_000);
    expect(Math.max(...spans(sent, 0))).toBeLessThanOrEqual(MAX_BATCH_TICKS);
    // The server lost all but the first: the resend starts where that one left the clock.
    const resent = b.after(1);
    expect(resent.flatMap((m) => m.events)).toEqual(sent.slice(1).flatMap((m) => m.events));
    expect(Math.max(...spans(resent, sent[0]!.tick))).toBeLessThanOrEqual(MAX_BATCH_TICKS);
  });
});
