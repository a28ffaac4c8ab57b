'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { decodeReplay, type Replay, type Snapshot, type VersusMode } from '@/lib/engine';
import { attackTotals, pairAttacks } from '@/lib/client/attacks';
import { FieldsPlayer, type FieldEvent } from '@/lib/client/fields-player';
import { ReplayPlayback, type PlaybackView } from '@/lib/client/replay-playback';
import { CHECKPOINT_INTERVAL, ReplayPlayer } from '@/lib/client/replay-player';
import type { ReplayAction } from '@/lib/client/replay-keys';
import { loadLocalSettings } from '@/lib/client/settings-store';
import { formatTime } from '@/lib/ui/format';
import { versusReplaySpan } from '@/lib/versus/replay-span';
import { ReplayControls } from '@/components/replay/ReplayControls';
import { SeekBar } from '@/components/replay/SeekBar';
import { ShareButton } from '@/components/replay/ShareButton';
import { Shortcuts } from '@/components/replay/Shortcuts';
import { SpeedPicker } from '@/components/replay/SpeedPicker';
import { TransportAnnouncer } from '@/components/replay/TransportAnnouncer';
import { listenForReplayShortcuts } from '@/components/replay/replay-shortcuts';
import { AttackLog } from '@/components/versus/AttackLog';
import { AttackMarkers } from '@/components/versus/AttackMarkers';
import { GarbageMeter } from '@/components/versus/GarbageMeter';
import { PracticeMoments } from '@/components/replay/PracticeMoments';
import { PlayFromHere } from '@/components/sandbox/PlayFromHere';
import { momentsOf } from '@/lib/client/moments';
import { LiveStats } from '@/components/versus/LiveStats';
import { rates } from '@/lib/versus/stats';

type Props = {
  mode: VersusMode;
  /** One game of the set: both seats' replays, seat 0 first, and its deciding tick. */
  replays: readonly [string, string];
  endTick: number;
  names: readonly [string, string];
  /** The page's own link (with its game), for "copy link to this moment". */
  path: string;
  /** `?t=` in ticks: opens paused there. */
  startAt: number | null;
  /** The stored match and which of its games (1-based) this is: "play from here" opens a seat's field there. */
  matchId: string;
  game: number;
};

function decode(encoded: readonly [string, string]): { replays: [Replay, Replay] } | { error: string } {
  try {
    return { replays: [decodeReplay(encoded[0]), decodeReplay(encoded[1])] };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'unreadable replay' };
  }
}

/** Both fields of a versus game in step, through the same engine and transport as the solo viewer. */
export function MatchViewer(props: Props) {
  const decoded = useMemo(() => decode(props.replays), [props.replays]);
  if ('error' in decoded) return <p role="alert" className="text-danger">This game cannot be played: {decoded.error}</p>;
  return <Viewer {...props} decoded={decoded.replays} />;
}

function Viewer({ mode, decoded, endTick, names, path, startAt, matchId, game }: Props & { decoded: [Replay, Replay] }) {
  const canvas0 = useRef<HTMLCanvasElement>(null);
  const canvas1 = useRef<HTMLCanvasElement>(null);
  const player = useMemo(() => {
    // Each seat played to where verification stopped it, so each lands on its stored end hash.
    const p = new FieldsPlayer(decoded.map((r) => new ReplayPlayer(r, CHECKPOINT_INTERVAL, versusReplaySpan(r, endTick))));
    if (startAt !== null) p.seek(startAt);
    return p;
  }, [decoded, endTick, startAt]);
  const attacks = useMemo(
    () => pairAttacks([player.fields[0]!.sends, player.fields[1]!.sends], [decoded[0].garbage ?? [], decoded[1].garbage ?? []]),
    [player, decoded],
  );
  const moments = useMemo(
    () =>
      ([0, 1] as const).flatMap((seat) =>
        momentsOf(player.fields[seat]!, decoded[seat].garbage ?? []).map((moment) => ({ moment, from: { match: matchId, game, seat }, who: names[seat], seat })),
      ),
    [player, decoded, matchId, game, names],
  );
  const [playback, setPlayback] = useState<ReplayPlayback<Snapshot[], FieldEvent> | null>(null);
  const [view, setView] = useState<PlaybackView<Snapshot[]>>(() => ({ tick: player.tick, snap: player.snapshot(), hash: player.hash(), playing: startAt === null, speed: 1 }));

  useEffect(() => {
    const elements = [canvas0.current, canvas1.current];
    if (!elements[0] || !elements[1]) return;
    // The viewer's own display settings (palette, ghost, grid, rising), as on the play page.
    const display = loadLocalSettings(window.localStorage).display;
    const views = elements.map((c) => new CanvasView(c!));
    const effects = views.map(() => new Effects());
    const p = new ReplayPlayback<Snapshot[], FieldEvent>(
      player,
      {
        draw(snaps, events, now, jumped) {
          views.forEach((v, i) => {
            const fx = effects[i]!;
            if (jumped) fx.reset();
            fx.push(events.filter((e) => e.field === i).map((e) => e.event), now);
            v.draw(snaps[i]!, drawOptions(display, mode, { effects: fx, now }));
          });
        },
        onChange: setView,
      },
      { playing: startAt === null },
    );
    setPlayback(p);
    p.start();
    const unlisten = listenForReplayShortcuts(p);
    return () => {
      unlisten();
      p.stop();
      views.forEach((v) => v.dispose());
    };
  }, [player, mode, startAt]);
  const { tick, snap: snaps, playing, speed } = view;
  // FieldsPlayer.hash() is the fields' hashes in seat order.
  const hashes = view.hash.split(' ');
  const done = tick >= player.endTick;
  const run = (action: ReplayAction) => playback?.run(action);
  const seek = (t: number) => playback?.seek(t);
  const totals = attackTotals(attacks, tick);

  return (
    <div className="space-y-3" data-testid="match-viewer" data-tick={tick} data-end={player.endTick} data-playing={playing ? 'true' : 'false'} data-speed={speed} data-ready={playback ? 'true' : 'false'}>
      <div className="grid gap-4 md:grid-cols-2">
        {([0, 1] as const).map((i) => {
          const s = snaps[i]!;
          return (
            <section
              key={i}
              aria-label={`${names[i]}'s field`}
              className="space-y-2"
              data-testid={`versus-field-${i}`}
              data-hash={hashes[i]}
              data-score={s.score}
              data-lines={s.lines}
              data-pieces={s.pieces}
              data-queued={s.garbageQueued}
            >
              <h2 className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
                <span className="font-semibold">{names[i]}</span>
                <span className="font-mono text-muted" data-testid={`field-stats-${i}`}>
                  {s.lines} lines · sent {totals[i].sent} · received {totals[i].received}
                </span>
              </h2>
              {/* From the replay as the viewer plays it, to this tick (the game's end at most, as the match page's table counts). */}
              <LiveStats stats={rates(player.fields[i]!.tallyAt(Math.min(s.tick, endTick)), s.pieces, Math.min(s.tick, endTick))} testId={`replay-stats-${i}`} />
              <div className="flex h-[min(60vh,520px)] gap-2">
                <GarbageMeter rows={s.garbageQueued} ready={s.garbageReady} testId={`garbage-meter-${i}`} />
                <div className="min-w-0 flex-1">
                  <canvas ref={i === 0 ? canvas0 : canvas1} aria-label={`${names[i]}'s field`} role="img" className="mx-auto block" data-testid={`field-${i}`} />
                </div>
              </div>
            </section>
          );
        })}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <ReplayControls playing={playing} done={done} onAction={run} />
        <div className="min-w-48 flex-1">
          <SeekBar tick={tick} end={player.endTick} pieceTicks={player.pieceTicks} onSeek={(t) => playback?.seek(t, false)} />
          <AttackMarkers attacks={attacks} end={player.endTick} />
        </div>
        <span className="font-mono text-sm tabular-nums" data-testid="replay-clock">
          {formatTime(tick)} / {formatTime(player.endTick)}
        </span>
        <SpeedPicker speed={speed} onChange={(s) => playback?.setSpeed(s)} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <AttackLog attacks={attacks} tick={tick} names={names} onSeek={seek} />
        <div className="space-y-3">
          <ShareButton path={path} tick={tick} />
          <div className="flex flex-wrap gap-2">
            {([0, 1] as const).map((seat) => (
              <PlayFromHere key={seat} from={{ match: matchId, game, seat }} tick={tick} label={`Play from here as ${names[seat]}`} testId={`play-from-here-${seat}`} />
            ))}
          </div>
          <PracticeMoments moments={moments} onSeek={seek} />
          <Shortcuts />
        </div>
      </div>
      <TransportAnnouncer playing={playing} tick={tick} end={player.endTick} speed={speed} />
    </div>
  );
}
