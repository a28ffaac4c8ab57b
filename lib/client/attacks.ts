import type { GarbageEvent } from '@/lib/engine';

/** One attack of a versus game: who sent how many rows when, and when they joined the receiver's queue. */
export type Attack = { from: 0 | 1; to: 0 | 1; size: number; sentAt: number; joinedAt: number | null };

/**
 * Pairs each seat's sends (from its own simulation) with the other seat's received garbage (its
 * replay's events): the referee routes one message per sending tick, and a stored match is
 * verified to have received exactly those, in order, so the n-th send is the n-th received
 * message. A message still in flight when the game ended never joined: `joinedAt` null.
 */
export function pairAttacks(sends: readonly [ReadonlyArray<GarbageEvent>, ReadonlyArray<GarbageEvent>], received: readonly [ReadonlyArray<GarbageEvent>, ReadonlyArray<GarbageEvent>]): Attack[] {
  const out: Attack[] = [];
  for (const from of [0, 1] as const) {
    const to = from === 0 ? 1 : 0;
    sends[from].forEach((s, i) => out.push({ from, to, size: s.size, sentAt: s.tick, joinedAt: received[to][i]?.tick ?? null }));
  }
  return out.sort((a, b) => a.sentAt - b.sentAt || a.from - b.from);
}

/** Rows each seat has sent and received by `tick` (sent counts at its lock, received when it joins the queue). */
export function attackTotals(attacks: readonly Attack[], tick: number): [{ sent: number; received: number }, { sent: number; received: number }] {
  const totals: [{ sent: number; received: number }, { sent: number; received: number }] = [
    { sent: 0, received: 0 },
    { sent: 0, received: 0 },
  ];
  for (const a of attacks) {
    if (a.sentAt < tick) totals[a.from].sent += a.size;
    if (a.joinedAt !== null && a.joinedAt < tick) totals[a.to].received += a.size;
  }
  return totals;
}
