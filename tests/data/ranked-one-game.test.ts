import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { ClientMessage } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import type { Owner } from '@/lib/server/games/owner';
import { LiveHub } from '@/lib/server/live/hub';
import { dispatch } from '@/lib/server/live/messages';
import { resetDb } from '@/tests/data/db';
import { liveConnection } from '@/tests/data/live-site';
import { player } from '@/tests/data/play';

// One account plays one ranked game at a time, whichever queue and tab it comes through: the
// ranked 1v1 lobby knows the 2v2 queue and sets held beside it on the hub (decision 0036).
beforeEach(resetDb);

const hubs: LiveHub[] = [];
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
});

const H = DEFAULT_HANDLING;
const battle: ClientMessage = { t: 'queue', mode: 'battle', ranked: true, handling: H, nextCount: 5 };

/** One instance's hub, and tabs of signed-up players old enough for ranked, each tab on an address of its own. */
async function site(names: string[]) {
  const hub = new LiveHub();
  hubs.push(hub);
  const owners = await Promise.all(names.map((n) => player(n)));
  const db = await getDb();
  await db.user.updateMany({ data: { createdAt: new Date(Date.now() - 2 * 86_400_000) } });
  let n = 0;
  const tab = (owner: Owner) => {
    const c = liveConnection(owner, `198.51.100.${++n}`);
    return { ...c, say: async (m: ClientMessage) => dispatch(hub, c.conn, m), types: () => c.sent.map((m) => (m.t === 'error' ? `error:${m.code}` : m.t)) };
  };
  return { hub, owners, tab };
}

describe('an account in ranked 2v2', () => {
  it('is refused the ranked 1v1 queue on another tab while it waits in the 2v2 queue; unranked stays open', async () => {
    const { owners: [a], tab } = await site(['ta']);
    const teams = tab(a!);
    await teams.say({ t: 'tqueue', handling: H });
    expect(teams.types()).toEqual(['tqueued']);
    const other = tab(a!);
    await other.say(battle);
    expect(other.sent).toEqual([{ t: 'error', code: 'already_playing', message: expect.stringContaining('2v2') }]);
    await other.say({ ...battle, ranked: false });
    expect(other.types().at(-1)).toBe('queued');
  });

  it('waiting in the ranked 1v1 queue is taken out of it, told why, when its 2v2 set starts on another tab: never two ranked games', async () => {
    const { owners: [a, b, c, d, e], tab } = await site(['ua', 'ub', 'uc', 'ud', 'ue']);
    const waiting = tab(a!);
    await waiting.say(battle);
    expect(waiting.types()).toEqual(['queued']);
    const team = [a, b, c, d].map((o) => tab(o!));
    for (const t of team) await t.say({ t: 'tqueue', handling: H });
    expect(team.map((t) => t.types().includes('rmatch'))).toEqual([true, true, true, true]);
    const opponent = tab(e!);
    await opponent.say(battle);
    expect(waiting.types()).toEqual(['queued', 'error:already_playing', 'unqueued']);
    expect(opponent.types()).toEqual(['queued']);
  });

  it('only queued for 2v2 keeps its ranked 1v1 entry (a partner\'s queue cannot drop it): paired, its 2v2 set is then refused at start', async () => {
    const { owners: [a, b, c, d, e], tab } = await site(['va', 'vb', 'vc', 'vd', 've']);
    const waiting = tab(a!);
    await waiting.say(battle);
    const teamTab = tab(a!);
    await teamTab.say({ t: 'tqueue', handling: H });
    expect(teamTab.types()).toEqual(['tqueued']);
    const opponent = tab(e!);
    await opponent.say(battle);
    expect(waiting.types()).toEqual(['queued', 'match', 'vstart']);
    const others = [b, c, d].map((o) => tab(o!));
    for (const t of others) await t.say({ t: 'tqueue', handling: H });
    expect(teamTab.sent.at(-1)).toEqual({ t: 'tunqueued', reason: 'refused' });
    expect(others.some((t) => t.types().includes('rmatch'))).toBe(false);
  });
});

