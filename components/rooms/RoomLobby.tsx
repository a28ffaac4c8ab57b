'use client';

import { useState } from 'react';
import type { RoomRules, VersusMode } from '@/lib/engine';
import type { BotSpec } from '@/lib/bot/spec';
import type { LivePlayer } from '@/lib/live/wire';
import type { RoomLobbyView } from '@/lib/client/live/room-session';
import { playerName } from '@/lib/ui/players';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';
import { RulesList } from '@/components/rooms/RulesList';
import { RulesEditor } from '@/components/rooms/RulesEditor';

/**
 * A room before its set: the share link, every seat (name, team, bot, ready), the rules everyone
 * readies up to, the ready toggle and, for the host, Start once every seat is filled and ready.
 */
export type Chair = { kick: (seat: number) => void; handOver: (seat: number) => void; setRules: (mode: VersusMode, rules: RoomRules) => void; setBot: (seat: number, bot: BotSpec | null) => void };

export function RoomLobby({ room, onReady, onStart, onLeave, chair }: { room: RoomLobbyView; onReady: (ready: boolean) => void; onStart: () => void; onLeave: () => void; chair: Chair }) {
  const [editing, setEditing] = useState(false);
  const hosting = room.you !== null && room.you === room.host;
  const me = room.you === null ? null : room.seats[room.you];
  const full = room.seats.every((s) => s.player !== null);
  const allReady = room.seats.every((s) => s.player !== null && s.ready);
  const link = typeof window === 'undefined' ? `/versus/rooms/${room.code}` : `${window.location.origin}/versus/rooms/${room.code}`;
  const teams = room.rules.teams !== null;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]" data-testid="room-lobby" data-code={room.code}>
      <Card as="section" aria-label="Room" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="text-lg font-semibold">
            Room <span className="font-mono" data-testid="room-code">{room.code}</span> · {VERSUS_MODE_INFO[room.mode].label} · {room.seats.length} seats
          </h2>
          <Button variant="quiet" onClick={onLeave}>{room.you === null ? 'Stop watching' : 'Leave the room'}</Button>
        </div>
        <label className="flex flex-col gap-1 text-sm">
          Share link
          <input readOnly className="rounded-md border border-line-strong bg-surface-2 px-2 py-1 font-mono" value={link} onFocus={(e) => e.currentTarget.select()} />
        </label>
        <ol className="grid gap-1 sm:grid-cols-2" aria-label="Seats">
          {room.seats.map((s, i) => (
            <li key={i} data-testid="room-seat" data-ready={String(s.ready)} data-bot={String(Boolean(s.player?.bot))} className={`flex items-center justify-between gap-2 rounded-md border px-2 py-1.5 text-sm ${i === room.you ? 'border-link' : 'border-line'}`}>
              <span className="min-w-0 truncate">
                <span className="text-muted">{i + 1}.</span> {s.player ? playerName(s.player) : <span className="text-muted">empty seat</span>}
                {i === room.you && <span className="text-muted"> (you)</span>}
                {i === room.host && <span className="ml-1 rounded bg-surface-2 px-1 text-xs">host</span>}
                {teams && <span className="ml-1 rounded bg-surface-2 px-1 text-xs">team {s.team + 1}</span>}
              </span>
              <span className="flex shrink-0 items-center gap-1">
                <span aria-label={s.ready ? 'ready' : 'not ready'}>{s.player ? (s.ready ? '✓ ready' : '…') : ''}</span>
                {hosting && <SeatChair seat={i} taken={s.player} you={room.you!} chair={chair} />}
              </span>
            </li>
          ))}
        </ol>
        {me && (
          <div className="flex flex-wrap items-center gap-2">
            <Button variant={me.ready ? 'secondary' : 'primary'} size="md" aria-pressed={me.ready} onClick={() => onReady(!me.ready)}>
              {me.ready ? 'Not ready' : 'Ready'}
            </Button>
            {room.you === room.host && (
              <Button variant="primary" size="md" disabled={!allReady} onClick={onStart}>
                Start
              </Button>
            )}
            <span className="text-sm text-muted" role="status">
              {!full ? 'Waiting for every seat to fill (share the link).' : !allReady ? 'Waiting for everyone to be ready.' : room.you === room.host ? 'Everyone is ready.' : 'Waiting for the host to start.'}
            </span>
          </div>
        )}
      </Card>
      {editing ? (
        <RulesEditor mode={room.mode} rules={room.rules} seats={room.seats.length} onSave={chair.setRules} onClose={() => setEditing(false)} />
      ) : (
        <Card as="section" aria-label="Rules" className="space-y-2">
          <div className="flex items-baseline justify-between gap-2">
            <h2 className="font-semibold">Rules</h2>
            {hosting && <Button variant="quiet" onClick={() => setEditing(true)}>Change the rules</Button>}
          </div>
          <RulesList rules={room.rules} seats={room.seats.length} />
        </Card>
      )}
    </div>
  );
}

/** The host's buttons on a seat: another person's (host, kick), a bot's (remove), an empty one (a bot). */
function SeatChair({ seat, taken, you, chair }: { seat: number; taken: LivePlayer | null; you: number; chair: Chair }) {
  if (seat === you) return null;
  if (!taken) return seat === 0 ? null : <Button variant="quiet" onClick={() => chair.setBot(seat, { pps: 3, style: 'tidy' })}>Add a bot</Button>;
  if (taken.bot) return <Button variant="quiet" onClick={() => chair.setBot(seat, null)}>Remove bot</Button>;
  return (
    <>
      <Button variant="quiet" onClick={() => chair.handOver(seat)}>Make host</Button>
      <Button variant="quiet" onClick={() => chair.kick(seat)}>Kick</Button>
    </>
  );
}
