'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { MAX_FIRST_TO, MODES, VERSUS_MODE_NAMES, type VersusMode } from '@/lib/engine';
import type { VersusController } from '@/lib/client/versus-controller';
import type { VersusView } from '@/lib/client/live/versus-session';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { formatPlacement, formatRating, RANKED_SET_LENGTHS } from '@/lib/ui/versus';
import type { VersusStanding, VersusStandings } from '@/lib/server/versus/boards';
import { useCopy } from '@/components/site/useCopy';
import { Button } from '@/components/ui/Button';
import { buttonClass } from '@/components/ui/button-class';
import { Card } from '@/components/ui/Card';
import { Check } from '@/components/ui/Check';
import { BandBadge } from '@/components/versus/BandBadge';
import { playerName } from '@/lib/ui/players';
import { BOT_PPS, BOT_STYLES, type BotStyle } from '@/lib/bot/spec';
import { BOT_STYLE_TEXT } from '@/lib/ui/bots';

/** Before a match: quick match and private rooms, or the queue or room the player is in. */
export function VersusLobby({ view, signedIn, controller, standings }: { view: VersusView; signedIn: boolean; controller: VersusController; standings: VersusStandings | null }) {
  const session = controller.session;
  const lobby = view.lobby;
  if (lobby.kind === 'queued') return <Queued since={lobby.since} waiting={lobby.waiting} mode={lobby.mode} ranked={lobby.ranked} onCancel={() => session.unqueue()} />;
  if (lobby.kind === 'joining') return <p role="status" className="text-muted">Joining room {lobby.code}…</p>;
  if (lobby.kind === 'closed')
    return (
      <Card className="space-y-3" data-testid="room-closed">
        <p>{lobby.message}</p>
        <a className={buttonClass({ variant: 'primary', size: 'md' })} href="/versus">Back to versus</a>
      </Card>
    );
  if (lobby.kind === 'room') return <Room view={view} controller={controller} />;
  return <Choices signedIn={signedIn} controller={controller} standings={standings} />;
}

/** `withSet`: say how long a set is (unranked quick match plays each mode's own, ranked the pair's band's; a room picks its own). */
function ModePicker({ name, mode, onChange, disabled, withSet }: { name: string; mode: VersusMode; onChange: (m: VersusMode) => void; disabled?: boolean; withSet?: boolean }) {
  return (
    <fieldset className="space-y-1" disabled={disabled}>
      <legend className="text-sm font-semibold">Mode</legend>
      {VERSUS_MODE_NAMES.map((m) => (
        <label key={m} className="flex items-start gap-2 text-sm">
          <input type="radio" name={name} value={m} checked={mode === m} onChange={() => onChange(m)} className="mt-1" />
          <span>
            <span className="font-semibold">{VERSUS_MODE_INFO[m].label}</span>{' '}
            <span className="text-muted">
              — {VERSUS_MODE_INFO[m].blurb}
              {withSet && ` First to ${MODES[m].firstTo} games unranked; ranked, first to ${RANKED_SET_LENGTHS} by rank band.`}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function FirstToPicker({ value, onChange, disabled }: { value: number; onChange: (n: number) => void; disabled?: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="font-semibold">First to</span>
      <select value={value} disabled={disabled} onChange={(e) => onChange(Number(e.target.value))} className="rounded-md border border-line-strong bg-surface px-2 py-1">
        {Array.from({ length: MAX_FIRST_TO }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>{n} {n === 1 ? 'game' : 'games'}</option>
        ))}
      </select>
    </label>
  );
}

function Choices({ signedIn, controller, standings }: { signedIn: boolean; controller: VersusController; standings: VersusStandings | null }) {
  const [mode, setMode] = useState<VersusMode>('battle');
  const [ranked, setRanked] = useState(signedIn);
  const [roomMode, setRoomMode] = useState<VersusMode>('battle');
  const [firstTo, setFirstTo] = useState<number>(MODES.battle.firstTo);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card as="section" className="space-y-3" aria-labelledby="quick-match">
        <h2 id="quick-match" className="text-lg font-bold">Quick match</h2>
        <p className="text-sm text-muted">Ranked: paired within your rank band first, then a band wider at a time as the longer-waiting player waits. Unranked: the next player waiting; with more waiting, the nearest rating.</p>
        <ModePicker name="quick-mode" mode={mode} onChange={setMode} withSet />
        <Check label="Ranked (changes your rating)" checked={ranked} disabled={!signedIn} onChange={setRanked} />
        {standings && <MyStanding standing={standings[mode]} />}
        {!signedIn && (
          <p className="text-sm text-muted">
            Guests play unranked. <Link className="link" href="/signin?callbackUrl=%2Fversus">Sign in</Link> to play ranked.
          </p>
        )}
        <Button variant="primary" size="md" onClick={() => controller.session.queue(mode, ranked && signedIn, controller.setup)}>Find a match</Button>
      </Card>
      <Card as="section" className="space-y-3" aria-labelledby="private-room">
        <h2 id="private-room" className="text-lg font-bold">Private room</h2>
        <p className="text-sm text-muted">
          Make a room and send its link to a friend. Rooms are never ranked. For 3–16 players, bots and your own rules: <Link className="underline" href="/versus/rooms">rooms of up to 16</Link>.
        </p>
        <ModePicker name="room-mode" mode={roomMode} onChange={setRoomMode} />
        <FirstToPicker value={firstTo} onChange={setFirstTo} />
        <Button variant="primary" size="md" onClick={() => controller.session.createRoom(roomMode, firstTo, controller.setup)}>Create room</Button>
      </Card>
      <SparringCard controller={controller} />
    </div>
  );
}

/** One click to a match against the server's bot, at a chosen pace and style: never ranked. */
function SparringCard({ controller }: { controller: VersusController }) {
  const [mode, setMode] = useState<VersusMode>('battle');
  const [firstTo, setFirstTo] = useState<number>(MODES.battle.firstTo);
  const [pps, setPps] = useState(2);
  const [style, setStyle] = useState<BotStyle>('tidy');
  return (
    <Card as="section" className="space-y-3 md:col-span-2" aria-labelledby="sparring">
      <h2 id="sparring" className="text-lg font-bold">Spar with a bot</h2>
      <p className="text-sm text-muted">A match against the server&rsquo;s bot, refereed like any other and never ranked. Its replay is kept, so you can watch it and play on from any moment.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <ModePicker name="spar-mode" mode={mode} onChange={setMode} />
        <div className="space-y-3">
          <FirstToPicker value={firstTo} onChange={setFirstTo} />
          <label className="flex items-center gap-2 text-sm">
            <span className="font-semibold">Speed</span>
            <select value={pps} onChange={(e) => setPps(Number(e.target.value))} className="rounded-md border border-line-strong bg-surface px-2 py-1" data-testid="bot-speed">
              {Array.from({ length: BOT_PPS.max - BOT_PPS.min + 1 }, (_, i) => BOT_PPS.min + i).map((n) => (
                <option key={n} value={n}>{n} {n === 1 ? 'piece' : 'pieces'} a second</option>
              ))}
            </select>
          </label>
          <fieldset className="space-y-1">
            <legend className="text-sm font-semibold">Style</legend>
            {BOT_STYLES.map((s) => (
              <label key={s} className="flex items-start gap-2 text-sm">
                <input type="radio" name="bot-style" value={s} checked={style === s} onChange={() => setStyle(s)} className="mt-1" />
                <span><span className="font-semibold">{BOT_STYLE_TEXT[s].label}</span> <span className="text-muted">— {BOT_STYLE_TEXT[s].blurb}</span></span>
              </label>
            ))}
          </fieldset>
        </div>
      </div>
      <Button variant="primary" size="md" data-testid="spar" onClick={() => controller.session.spar(mode, firstTo, { pps, style }, controller.setup)}>Play the bot</Button>
    </Card>
  );
}

/** The player's rating in the picked mode as the page was served: "1523? · placement 3/10", "1684 · Gold". */
export function MyStanding({ standing }: { standing: VersusStanding }) {
  return (
    <p className="text-sm text-muted" data-testid="lobby-standing">
      Your rating: <span className="font-mono font-semibold text-fg">{formatRating(standing.rating, standing.provisional)}</span>
      {standing.placement ? ` · ${formatPlacement(standing.placement)}` : ''}
      {standing.band ? <> · <BandBadge band={standing.band} testId="lobby-band" /></> : null}
    </p>
  );
}

function Queued({ since, waiting, mode, ranked, onCancel }: { since: number; waiting: number; mode: VersusMode; ranked: boolean; onCancel: () => void }) {
  const [now, setNow] = useState(since);
  useEffect(() => {
    const t = window.setInterval(() => setNow(performance.now()), 500);
    return () => window.clearInterval(t);
  }, []);
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <Card className="space-y-3" data-testid="queued">
      <p role="status" className="text-lg font-semibold">Looking for an opponent… <span className="font-mono tabular-nums" data-testid="queue-time">{Math.floor(seconds / 60)}:{String(seconds % 60).padStart(2, '0')}</span></p>
      <p className="text-sm text-muted">
        {VERSUS_MODE_INFO[mode].label} · {ranked ? 'ranked' : 'unranked'} · {waiting} waiting in this queue
      </p>
      <Button size="md" onClick={onCancel}>Cancel</Button>
    </Card>
  );
}

/** Given up on purpose, so the room is not kept for this page (a closed tab's is, a while); the page is the lobby's again, at its address. */
function leave(session: VersusController['session']): void {
  session.leaveRoom();
  window.history.replaceState(null, '', '/versus');
}

function Room({ view, controller }: { view: VersusView; controller: VersusController }) {
  const { copied, copy } = useCopy();
  if (view.lobby.kind !== 'room') return null;
  const room = view.lobby.room;
  const host = room.you === 0;
  const link = typeof window === 'undefined' ? `/versus/room/${room.code}` : `${window.location.origin}/versus/room/${room.code}`;
  const session = controller.session;
  const mine = room.ready[room.you];
  return (
    <Card as="section" className="space-y-3" aria-labelledby="room-title" data-testid="room" data-code={room.code}>
      <h2 id="room-title" className="text-lg font-bold">Room {room.code}</h2>
      <div className="flex flex-wrap items-center gap-2">
        <input readOnly value={link} aria-label="Share link" className="min-w-0 flex-1 rounded-md border border-line-strong bg-surface px-2 py-1 font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
        <Button size="md" onClick={() => void copy(link)}>{copied ? 'Copied' : 'Copy link'}</Button>
      </div>
      <ul className="divide-y divide-line rounded-lg border border-line" data-testid="room-seats">
        {room.seats.map((p, i) => (
          <li key={i} className="flex items-center justify-between px-3 py-2 text-sm">
            <span>{p ? playerName(p) : <span className="text-muted">Waiting for a friend to open the link…</span>}{i === room.you && ' (you)'}</span>
            {p && i === 0 && room.away ? (
              // The maker's connection dropped: its seat is kept for it a while.
              <span className="text-muted" data-testid="room-maker-away">Reconnecting…</span>
            ) : (
              p && <span className={room.ready[i] ? 'font-semibold text-brand' : 'text-muted'}>{room.ready[i] ? 'Ready' : 'Not ready'}</span>
            )}
          </li>
        ))}
      </ul>
      <ModePicker name="room-mode" mode={room.mode} disabled={!host} onChange={(m) => session.setRoom(m, room.firstTo)} />
      <FirstToPicker value={room.firstTo} disabled={!host} onChange={(n) => session.setRoom(room.mode, n)} />
      {!host && <p className="text-sm text-muted">The player who made the room picks the mode and the set.</p>}
      <div className="flex gap-2">
        <Button variant="primary" size="md" disabled={!room.seats[1]} onClick={() => session.ready(!mine)}>{mine ? 'Not ready' : 'Ready'}</Button>
        <Button size="md" onClick={() => leave(session)}>Leave room</Button>
      </div>
    </Card>
  );
}
