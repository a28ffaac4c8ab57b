import { describe, expect, it } from 'vitest';
import type { GameEvent, Snapshot } from '@/lib/engine';
import { MAX_TICKS_PER_FRAME, ReplayPlayback, type PlaybackView } from '@/lib/client/replay-playback';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { botGame } from '@/tests/support/replays';

const { replay } = botGame('sprint', 'playback-seed');

/** A playback whose host records what it was asked to draw and show. */
function rig(playing: boolean) {
  const drawn: Array<{ snap: Snapshot; events: readonly GameEvent[]; jumped: boolean }> = [];
  const views: PlaybackView[] = [];
  const playback = new ReplayPlayback(new ReplayPlayer(replay), { draw: (snap, events, _now, jumped) => drawn.push({ snap, events, jumped }), onChange: (v) => views.push(v) }, { playing });
  return { playback, drawn, views, last: () => views.at(-1)! };
}

describe('ReplayPlayback', () => {
  it('plays 60 ticks per second of wall time at 1×, scaled by the speed, and catches up at most a capped step', () => {
    const { playback, last } = rig(true);
    playback.frame(1000);
    playback.frame(1500);
    expect(last().snap.tick).toBe(30);
    playback.run('faster');
    expect(last().speed).toBe(2);
    playback.frame(1750);
    expect(last().snap.tick).toBe(60);
    playback.frame(60_000); // a background tab: no jump of minutes
    expect(last().snap.tick).toBe(60 + MAX_TICKS_PER_FRAME);
  });

  it('hands the host every event of the ticks it played, and says when the position jumped', () => {
    const { playback, drawn } = rig(true);
    playback.frame(0);
    expect(drawn.at(-1)!.jumped).toBe(true);
    let locks = 0;
    for (let now = 0; now <= 30_000; now += 100) {
      playback.frame(now);
      locks += drawn.at(-1)!.events.filter((e) => e.type === 'lock').length;
    }
    expect(locks).toBeGreaterThan(0);
    expect(drawn.at(-1)!.snap.pieces).toBe(locks);
    playback.seek(10);
    playback.frame(30_100);
    expect(drawn.at(-1)).toMatchObject({ jumped: true, snap: { tick: 10 } });
  });

  it('pauses on precise seeks, stops at the end, and starts over when played from the end', () => {
    const { playback, last } = rig(true);
    playback.frame(0);
    playback.run('tickForward');
    expect(last().playing).toBe(false);
    playback.run('end');
    playback.frame(16);
    expect(last()).toMatchObject({ playing: false, snap: { tick: playback.player.endTick } });
    playback.run('toggle');
    playback.frame(32);
    expect(last()).toMatchObject({ playing: true, snap: { tick: 0 } });
    playback.run('toggle');
    expect(last().playing).toBe(false);
  });

  it('opens paused where asked', () => {
    const { playback, last } = rig(false);
    playback.player.seek(120);
    playback.frame(0);
    playback.frame(5000);
    expect(last()).toMatchObject({ playing: false, snap: { tick: 120 } });
  });
});
