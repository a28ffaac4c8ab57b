'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { CanvasView } from '@/components/game/canvas-view';
import { drawOptions } from '@/components/game/draw';
import { Effects } from '@/components/game/effects';
import { decodeReplay, type Replay, type RoomLeave, type RoomRules, type VersusMode } from '@/lib/engine';
import type { FieldEvent } from '@/lib/client/fields-player';
import { ReplayPlayback, type PlaybackView } from '@/lib/client/replay-playback';
import type { ReplayAction } from '@/lib/client/replay-keys';
import { RoomPlayer, type RoomFrame } from '@/lib/client/room-player';
import { loadLocalSettings } from '@/lib/client/settings-store';
import { formatTime } from '@/lib/ui/format';
import { fieldGridClass } from '@/lib/ui/room-sets';
import { ReplayControls } from '@/components/replay/ReplayControls';
import { SeekBar } from '@/components/replay/SeekBar';
import { ShareButton } from '@/components/replay/ShareButton';
import { Shortcuts } from '@/components/replay/Shortcuts';
import { SpeedPicker } from '@/components/replay/SpeedPicker';
import { TransportAnnouncer } from '@/components/replay/TransportAnnouncer';
import { listenForReplayShortcuts } from '@/components/replay/replay-shortcuts';
import { RoomAttackLog } from '@/components/room-sets/RoomAttackLog';
import { RoomField } from '@/components/room-sets/RoomField';

type Props = {
  mode: VersusMode;
  rules: RoomRules;
  /** One game of the set: every seat's replay in seat order, who left, and its deciding tick. */
  replays: readonly string[];
  leaves: readonly RoomLeave[];
  endTick: number;
  names: readonly string[];
  /** Each seat's team label in a team room; nulls in a free-for-all. */
  teams: readonly (string | null)[];
  /** The page's own link (with its game), for "copy link to this moment". */
  path: string;
  /** `?t=` in ticks: opens paused there. */
  startAt: number | null;
  matchId: string;
  /** Which game of the set (1-based). */
  game: number;
};

function decode(encoded: readonly string[]): { replays: Replay[] } | { error: string } {
  try {
    return { replays: encoded.map((r) => decodeReplay(r)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : 'unreadable replay' };
  }
}

/** Every field of a room game in step, played again through the referee, on the replay viewer's transport. */
export function RoomSetViewer(props: Props) {
  const decoded = useMemo(() => decode(props.replays), [props.replays]);
  if ('error' in decoded) return <p role="alert" className="text-danger">This game cannot be played: {decoded.error}</p>;
  return <Viewer {...props} decoded={decoded.replays} />;
}

function Viewer({ mode, rules, decoded, leaves, endTick, names, teams, path, startAt, matchId, game }: Props & { decoded: Replay[] }) {
  const canvases = useRef<(HTMLCanvasElement | null)[]>([]);
  const player = useMemo(() => {
    // The game's own seed is in every replay (verification checked it is the set's `${seed}.${n}`).
    const p = new RoomPlayer({ mode, seed: decoded[0]!.seed, rules, replays: decoded, leaves, endTick });
    if (startAt !== null) p.seek(startAt);
    return p;
  }, [mode, rules, decoded, leaves, endTick, startAt]);
  const [playback, setPlayback] = useState<ReplayPlayback<RoomFrame, FieldEvent> | null>(null);
  const [view, setView] = useState<PlaybackView<RoomFrame>>(() => ({ tick: player.tick, snap: player.snapshot(), hash: player.hash(), playing: startAt === null, speed: 1 }));

  useEffect(() => {
    const elements = canvases.current.slice(0, player.seats);
    if (elements.length < player.seats || elements.some((c) => !c)) return;
    // The viewer's own display settings (palette, ghost, grid, rising), as on the play page.
    const display = loadLocalSettings(window.localStorage).display;
    const views = elements.map((c) => new CanvasView(c!));
    const effects = views.map(() => new Effects());
    const p = new ReplayPlayback<RoomFrame, FieldEvent>(
      player,
      {
        draw(frame, events, now, jumped) {
          views.forEach((v, i) => {
            const fx = effects[i]!;
            if (jumped) fx.reset();
            fx.push(events.filter((e) => e.field === i).map((e) => e.event), now);
            v.draw(frame.fields[i]!, drawOptions(display, mode, { effects: fx, now }));
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

  const { tick, snap: frame, playing, speed } = view;
  const hashes = view.hash.split(' ');
  const done = tick >= player.endTick;
  const run = (action: ReplayAction) => playback?.run(action);
  const seek = (t: number) => playback?.seek(t);
  const totals = useMemo(() => {
    const t = names.map(() => ({ sent: 0, received: 0 }));
    for (const a of player.attacks) {
      // Routed at the end of its tick: sent and in the target’s queue from the next.
      if (a.tick < tick) t[a.from]!.sent += a.size;
      if (a.tick < tick) t[a.to]!.received += a.size;
    }
    return t;
  }, [player, tick, names]);
  const outHow = (seat: number) => (frame.out[seat] ? (player.kos.find((k) => k.seat === seat)?.how === 'left' ? 'left' : 'ko') : null);

  return (
    <div className="space-y-3" data-testid="room-viewer" data-tick={tick} data-end={player.endTick} data-playing={playing ? 'true' : 'false'} data-speed={speed} data-ready={playback ? 'true' : 'false'} data-seats={player.seats}>
      <div className={`grid gap-2 ${fieldGridClass(player.seats)}`} data-testid="room-fields">
        {names.map((name, seat) => {
          const aim = frame.aims[seat];
          return (
            <RoomField
              key={seat}
              seat={seat}
              name={name}
              team={teams[seat] ?? null}
              snap={frame.fields[seat]!}
              hash={hashes[seat] ?? ''}
              aim={aim === null || aim === undefined ? null : (names[aim] ?? null)}
              out={outHow(seat)}
              sent={totals[seat]!.sent}
              received={totals[seat]!.received}
              from={{ room: matchId, game, seat }}
              tick={tick}
              canvasRef={(el) => {
                canvases.current[seat] = el;
              }}
            />
          );
        })}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <ReplayControls playing={playing} done={done} onAction={run} />
        <SeekBar tick={tick} end={player.endTick} pieceTicks={player.pieceTicks} onSeek={(t) => playback?.seek(t, false)} />
        <span className="font-mono text-sm tabular-nums" data-testid="replay-clock">
          {formatTime(tick)} / {formatTime(player.endTick)}
        </span>
        <SpeedPicker speed={speed} onChange={(s) => playback?.setSpeed(s)} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <RoomAttackLog attacks={player.attacks} kos={player.kos} tick={tick} names={names} onSeek={seek} />
        <div className="space-y-3">
          <ShareButton path={path} tick={tick} />
          <Shortcuts />
        </div>
      </div>
      <TransportAnnouncer playing={playing} tick={tick} end={player.endTick} speed={speed} />
    </div>
  );
}
