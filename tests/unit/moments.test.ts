import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeReplay, type Replay } from '@/lib/engine';
import { momentsOf } from '@/lib/client/moments';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { gameAtTick } from '@/lib/client/sandbox-start';
import { versusReplaySpan } from '@/lib/versus/replay-span';
import { straightRun } from '@/tests/support/replays';

type Fixture = { outcome: { tick: number }; players: Array<{ encoded: string }> };
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/versus-replays/${name}.json`, import.meta.url), 'utf8')) as Fixture;
const soloReplay = (name: string) => (JSON.parse(readFileSync(new URL(`../fixtures/replays/${name}.json`, import.meta.url), 'utf8')) as { replay: Replay }).replay;

/** Both seats of a stored versus game, played as the match viewer plays them. */
function seats(name: string): Array<{ replay: Replay; player: ReplayPlayer }> {
  const f = fixture(name);
  return f.players.map((p) => {
    const replay = decodeReplay(p.encoded);
    return { replay, player: new ReplayPlayer(replay, 300, versusReplaySpan(replay, f.outcome.tick)) };
  });
}

describe('moments worth practising', () => {
  it('a versus seat that topped out: its largest attack received, and its last piece', () => {
    const [winner, loser] = seats('battle-rules6');
    const received = loser!.replay.garbage!;
    const largest = Math.max(...received.map((g) => g.size));
    const moments = momentsOf(loser!.player, received);
    expect(moments.map((m) => m.kind)).toEqual(['attack', 'topOut']);
    const attack = moments[0]!;
    expect(attack).toMatchObject({ rows: largest, tick: received.find((g) => g.size === largest)!.tick + 1 });
    // The last piece: it appeared on the last piece boundary before the final lock.
    expect(moments[1]!.tick).toBe(loser!.player.pieceTicks.at(-2));
    // The winner did not top out: no such moment for them.
    expect(momentsOf(winner!.player, winner!.replay.garbage!).map((m) => m.kind)).not.toContain('topOut');
  });

  it('opening an attack moment starts with those rows queued, and the top-out moment plays on to the same top-out', () => {
    const [, loser] = seats('battle-rules6');
    const [attack, topOut] = momentsOf(loser!.player, loser!.replay.garbage!);
    const atAttack = gameAtTick(loser!.replay, attack!.tick).snapshot();
    expect(atAttack.garbageQueued).toBeGreaterThanOrEqual((attack as { rows: number }).rows);
    // The sandbox's game at a versus moment is the viewer's state there, received garbage included.
    loser!.player.seek(topOut!.tick);
    expect(gameAtTick(loser!.replay, topOut!.tick).hash()).toBe(loser!.player.hash());
  });

  it('a solo game that topped out has its last piece, one that finished has none', () => {
    const toppedOut = soloReplay('marathon-topout');
    const player = new ReplayPlayer(toppedOut);
    expect(player.toppedOut).toBe(true);
    expect(momentsOf(player, [])).toEqual([{ kind: 'topOut', tick: player.pieceTicks.at(-2) }]);
    // The state there is the straight simulation's: the piece that topped out is in play.
    expect(gameAtTick(toppedOut, player.lastMove).hash()).toBe(straightRun(toppedOut, player.lastMove).hash());
    expect(momentsOf(new ReplayPlayer(soloReplay('sprint-40l')), [])).toEqual([]);
  });
});
