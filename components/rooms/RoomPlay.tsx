'use client';

import Link from 'next/link';
import { useEffect, useRef, type RefObject } from 'react';
import type { RoomPlayView } from '@/lib/client/live/room-session';
import type { Meter } from '@/lib/client/versus-controller';
import { playerName } from '@/lib/ui/players';
import { TARGETING_TEXT } from '@/lib/ui/room-rules';
import { fitRoom } from '@/components/rooms/fit-room';
import { Button } from '@/components/ui/Button';
import { FieldMeter } from '@/components/versus/FieldMeter';

const KO_TEXT = { topOut: 'KO', left: 'left', lag: 'dropped' } as const;

/** Who a team is, in words: the seat's player in a free-for-all, "Team n" with teams. */
export function teamName(p: Pick<RoomPlayView, 'rules' | 'players'>, team: number): string {
  return p.rules.teams ? `Team ${team + 1}` : playerName(p.players[team]);
}

/**
 * A room's set on screen: this seat's field full size (its canvas is the page's, mounted once),
 * every other seat small in a grid that scales with the room (tap one to aim at it under manual
 * targeting), each with its meter, its aim and a KO mark; the score, each game's result and the set's.
 */
export function RoomPlay({ play, rootRef, ownRef, meter, countdown, onAim, onLobby }: { play: RoomPlayView | null; rootRef: RefObject<HTMLDivElement | null>; ownRef: RefObject<HTMLCanvasElement | null>; meter: Meter; countdown: number | null; onAim: (seat: number) => void; onLobby: () => void }) {
  const p = play;
  const rowRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLElement>(null);
  const gridRef = useRef<HTMLUListElement>(null);
  const seats = p?.players.length ?? 0;
  const seated = p !== null && p.seat !== null;
  // While a set is on screen it is a play view: the own field and the grid sized to the screen (fit-room.ts).
  useEffect(() => {
    const [root, row, box, grid] = [rootRef.current, rowRef.current, boxRef.current, gridRef.current];
    if (seats === 0 || !root || !row || !box || !grid) return;
    return fitRoom(root, row, box, grid, seated ? seats - 1 : seats, !seated);
  }, [rootRef, seats, seated]);
  const watching = p?.seat === null;
  const others = p ? p.players.map((_, s) => s).filter((s) => s !== p.seat) : [];
  const manual = p?.rules.targeting === 'manual' && !watching;
  const myAim = p && p.seat !== null ? p.aims[p.seat] : undefined;
  const score = p ? [...p.score].sort((a, b) => b[1] - a[1]) : [];
  return (
    <div hidden={!p} className="space-y-2" data-testid="room-play" data-match={p?.matchId ?? ''} data-state={p?.state ?? ''} data-score={JSON.stringify(p?.score ?? [])} data-winner={p?.over ? String(p.over.winner) : ''} data-stored={p?.over ? String(p.over.stored) : ''}>
      {p && (
        <p className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
          <span data-testid="room-score" aria-label="Set score">
            {score.length === 0 ? 'Game 1' : score.map(([team, wins]) => `${teamName(p, team)} ${wins}`).join(' · ')} <span className="text-muted">· first to {p.rules.firstTo}</span>
          </span>
          <span className="text-muted">
            Targeting: {TARGETING_TEXT[p.rules.targeting].label}
            {manual && myAim !== undefined && myAim !== p.seat && <span data-testid="my-target"> · aiming at {playerName(p.players[myAim])}</span>}
            {manual && <span> · T or tap a field to aim</span>}
          </span>
        </p>
      )}
      <div ref={rowRef} className="relative flex flex-col items-center gap-1.5 data-[beside=true]:flex-row data-[beside=true]:items-start data-[beside=true]:justify-center">
        <section ref={boxRef} hidden={watching} aria-label="Your field" className="relative shrink-0">
          <canvas ref={ownRef} data-testid="field" className="block size-full" role="img" aria-label="Your field" />
          <FieldMeter rows={meter.rows} ready={meter.ready} testId="garbage-meter-you" />
          {p && p.seat !== null && p.out[p.seat] && <KoMark why={p.out[p.seat]!} />}
          {p?.state === 'countdown' && countdown !== null && countdown > 0 && (
            <p data-testid="countdown" className="pointer-events-none absolute inset-0 flex items-center justify-center text-6xl font-black text-field-fg drop-shadow-lg tabular-nums sm:text-8xl">{countdown}</p>
          )}
        </section>
        {p && (
          <ul ref={gridRef} aria-label={watching ? 'Every field' : 'Other fields'} className="grid w-full min-w-0 flex-1 gap-1.5">
            {others.map((s) => (
              <SmallField key={s} play={p} seat={s} canAim={manual && p.state !== 'over'} onAim={onAim} />
            ))}
          </ul>
        )}
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-2">
          <div className="pointer-events-auto max-h-full overflow-y-auto">
            {p?.state === 'between' && p.decided && (
              <p data-testid="game-result" className="rounded-xl bg-field-panel/95 px-6 py-4 text-2xl font-bold text-field-fg">
                {p.decided.winner === null ? 'A draw' : `${teamName(p, p.decided.winner)} won this game`}
              </p>
            )}
            {p?.state === 'over' && <SetResult play={p} onLobby={onLobby} />}
          </div>
        </div>
      </div>
    </div>
  );
}

function SmallField({ play: p, seat, canAim, onAim }: { play: RoomPlayView; seat: number; canAim: boolean; onAim: (seat: number) => void }) {
  const name = playerName(p.players[seat]);
  const out = p.out[seat];
  const aim = p.aims[seat]!;
  const targeted = p.seat !== null && p.aims[p.seat] === seat;
  const aimsAtMe = p.seat !== null && aim === p.seat;
  const mate = p.seat !== null && p.rules.teams !== null && p.teams[seat] === p.teams[p.seat];
  const tappable = canAim && !out && !mate;
  return (
    <li data-testid="room-field" data-seat={seat} data-out={out ?? ''} data-aim={aim} data-targeted={String(targeted)} className={`relative min-w-0 rounded-md border p-0.5 ${targeted ? 'border-danger' : 'border-line'}`}>
      <button type="button" disabled={!tappable} onClick={() => onAim(seat)} aria-label={tappable ? `Aim at ${name}` : `${name}'s field`} className="block w-full disabled:cursor-default">
        <span className="relative block aspect-[21/23] w-full">
          <canvas data-room-field={seat} className="block size-full" role="img" aria-label={`${name}'s field`} />
          <FieldMeter rows={p.meters[seat] ?? 0} testId={`garbage-meter-${seat}`} />
          {out && <KoMark why={out} small />}
        </span>
      </button>
      <span className="block truncate text-xs">
        {name}
        {p.rules.teams && <span className="text-muted"> · T{p.teams[seat]! + 1}</span>}
      </span>
      <span className={`block truncate text-[10px] ${aimsAtMe ? 'font-semibold text-danger' : 'text-muted'}`} data-testid="aims-at">
        {aim === seat ? '—' : `→ ${aimsAtMe ? 'you' : playerName(p.players[aim])}`}
      </span>
    </li>
  );
}

function KoMark({ why, small = false }: { why: keyof typeof KO_TEXT; small?: boolean }) {
  return (
    <span data-testid="ko" className={`pointer-events-none absolute inset-0 flex items-center justify-center bg-scrim/50 font-black text-field-fg ${small ? 'text-lg' : 'text-5xl'}`}>
      {KO_TEXT[why]}
    </span>
  );
}

function SetResult({ play: p, onLobby }: { play: RoomPlayView; onLobby: () => void }) {
  const o = p.over;
  const mine = p.seat !== null && o !== null && p.teams[p.seat] === o.winner;
  return (
    <div data-testid="room-result" data-won={String(mine)} className="max-w-sm space-y-2 rounded-xl bg-field-panel/95 p-6 text-center text-field-fg">
      {o ? (
        <>
          <p className="text-2xl font-bold">{mine ? 'You won the set' : `${teamName(p, o.winner)} won the set`}</p>
          <p className="text-sm">{[...p.score].sort((a, b) => b[1] - a[1]).map(([team, wins]) => `${teamName(p, team)} ${wins}`).join(' · ')}</p>
          <p className="text-sm" data-testid="room-stored">
            {o.stored ? <Link className="underline" href={`/versus/rooms/sets/${p.matchId}`}>The set is stored: see it again</Link> : 'This set was not stored.'}
          </p>
        </>
      ) : (
        <p>{p.elsewhere ? 'This set goes on in another tab or window.' : 'The set ended while you were away.'}</p>
      )}
      <Button variant="field" onClick={onLobby}>Back to the lobby</Button>
    </div>
  );
}
