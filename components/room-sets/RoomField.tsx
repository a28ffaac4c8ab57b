import { UNITS_H, UNITS_W } from '@/components/game/draw';
import type { Snapshot } from '@/lib/engine';
import { PlayFromHere } from '@/components/sandbox/PlayFromHere';
import { GarbageMeter } from '@/components/versus/GarbageMeter';
import type { PracticeFrom } from '@/lib/ui/links';

export type RoomFieldProps = {
  seat: number;
  name: string;
  /** "Team A" in a team room; null in a free-for-all. */
  team: string | null;
  snap: Snapshot;
  hash: string;
  /** Whom the seat aims at now, by name; null before it has a target or once it is out. */
  aim: string | null;
  /** Out at this tick: knocked out, or left. */
  out: 'ko' | 'left' | null;
  sent: number;
  received: number;
  from: PracticeFrom;
  tick: number;
  canvasRef: (el: HTMLCanvasElement | null) => void;
};

/** One seat of a room in the set viewer: its name, target, incoming meter, field, and play from here. */
export function RoomField({ seat, name, team, snap, hash, aim, out, sent, received, from, tick, canvasRef }: RoomFieldProps) {
  const a = snap.active;
  return (
    <section
      aria-label={`${name}'s field`}
      className={`min-w-0 space-y-1 rounded-lg border p-1.5 ${out ? 'border-line opacity-60' : 'border-line-strong'}`}
      data-testid={`room-field-${seat}`}
      data-hash={hash}
      data-board={snap.board.join('/')}
      data-active={a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : ''}
      data-queued={snap.garbageQueued}
      data-out={out ?? ''}
      data-aim={aim ?? ''}
    >
      <h3 className="flex flex-wrap items-baseline justify-between gap-x-2 text-xs sm:text-sm">
        <span className="truncate font-semibold">{name}</span>
        {team ? <span className="text-muted">{team}</span> : null}
      </h3>
      <p className="flex flex-wrap justify-between gap-x-2 font-mono text-xs text-muted" data-testid={`room-field-stats-${seat}`}>
        <span>
          {snap.lines} L · ↑{sent} ↓{received}
        </span>
        {out ? (
          <span className="font-semibold text-danger" data-testid={`ko-${seat}`}>{out === 'left' ? 'LEFT' : 'KO'}</span>
        ) : aim ? (
          <span className="truncate" data-testid={`aim-${seat}`} title={`Targeting ${aim}`}>→ {aim}</span>
        ) : null}
      </p>
      <div className="flex gap-1">
        <GarbageMeter rows={snap.garbageQueued} ready={snap.garbageReady} testId={`garbage-meter-${seat}`} />
        <div className="min-w-0 flex-1" style={{ aspectRatio: `${UNITS_W} / ${UNITS_H}` }}>
          <canvas ref={canvasRef} aria-label={`${name}'s field`} role="img" className="mx-auto block" data-testid={`field-${seat}`} />
        </div>
      </div>
      <PlayFromHere from={from} tick={tick} label="Play from here" name={`Play from here as ${name}`} testId={`play-from-here-${seat}`} />
    </section>
  );
}
