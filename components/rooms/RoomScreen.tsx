'use client';

import Link from 'next/link';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { Meter } from '@/lib/client/versus-controller';
import type { RoomController } from '@/lib/client/room-controller';
import type { RoomSessionView } from '@/lib/client/live/room-session';
import { linkTrouble } from '@/lib/client/live/socket';
import { takeUpFor } from '@/lib/client/room-take-up';
import { useSettings } from '@/components/settings/useSettings';
import { FullscreenButton } from '@/components/game/FullscreenButton';
import { LiveRegion } from '@/components/site/LiveRegion';
import { usePlayView } from '@/components/site/usePlayView';
import { RoomForm } from '@/components/rooms/RoomForm';
import { JoinRoom } from '@/components/rooms/JoinRoom';
import { RoomLobby } from '@/components/rooms/RoomLobby';
import { RoomPlay, teamName } from '@/components/rooms/RoomPlay';
import { Button } from '@/components/ui/Button';
import { PageHeading } from '@/components/ui/PageHeading';

const loadRuntime = () => import('@/components/rooms/runtime');

/**
 * Rooms of 2–16: the form and the join box until this page is in a room, then the room's lobby,
 * then its set. `code` is set on a room's share link: the page joins it (or watches, if it plays;
 * `watch` asks to watch at once).
 */
export function RoomScreen({ signedIn, code, watch = false }: { signedIn: boolean; code: string | null; watch?: boolean }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const ownRef = useRef<HTMLCanvasElement>(null);
  const { settings } = useSettings(signedIn);
  const [controller, setController] = useState<RoomController | null>(null);
  const [view, setView] = useState<RoomSessionView>({ link: 'down', code, lobby: null, play: null, closed: null, error: null });
  const [countdown, setCountdown] = useState<number | null>(null);
  const [meter, setMeter] = useState<Meter>({ rows: 0, ready: 0 });
  const [loadError, setLoadError] = useState<string | null>(null);
  const ready = settings !== null;
  const startingSettings = useEffectEvent(() => settings!);

  useEffect(() => {
    if (controller && settings) controller.setSettings(settings);
  }, [controller, settings]);

  useEffect(() => {
    if (!ready || !rootRef.current || !ownRef.current) return;
    const [root, own] = [rootRef.current, ownRef.current];
    let handle: ReturnType<Awaited<ReturnType<typeof loadRuntime>>['mountRooms']> | null = null;
    let live = true;
    loadRuntime().then(
      ({ mountRooms }) => {
        if (!live) return;
        handle = mountRooms({ root, own, settings: startingSettings(), onView: setView, onCountdown: setCountdown, onMeter: setMeter });
        const seat = code ? takeUpFor(code) : null;
        if (code && seat) handle.controller.session.takeUp(code, seat.matchId, seat.token);
        else if (code && watch) handle.controller.session.watch(code);
        else if (code) handle.controller.session.join(code, handle.controller.handling);
        setController(handle.controller);
      },
      () => live && setLoadError('Rooms could not be loaded. Check your connection and reload the page.'),
    );
    return () => {
      live = false;
      handle?.dispose();
      setController(null);
    };
  }, [ready, code, watch]);

  const state = view.play?.state ?? null;
  usePlayView({ focused: view.play?.seat != null && (state === 'countdown' || state === 'playing'), awake: state !== null && state !== 'over' });

  // A room made here gets its share link as the page's address.
  const roomCode = view.lobby?.code ?? view.play?.code ?? null;
  useEffect(() => {
    if (roomCode && window.location.pathname !== `/versus/rooms/${roomCode}`) window.history.replaceState(null, '', `/versus/rooms/${roomCode}`);
  }, [roomCode]);

  const session = controller?.session;
  const inRoom = view.lobby !== null || view.play !== null;
  return (
    <div ref={rootRef} data-testid="rooms" data-link={view.link} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PageHeading size="compact">Rooms{roomCode && <span className="font-normal text-muted"> · {roomCode}</span>}</PageHeading>
        <div className="flex items-center gap-3 text-sm">
          {linkTrouble(view.link) && <span role="status" className="rounded bg-warning-bg px-2 py-0.5 text-on-warning-bg">{linkTrouble(view.link)}</span>}
          {view.play && view.play.state !== 'over' && <Button variant="quiet" onClick={() => session?.leave()}>{view.play.seat === null ? 'Stop watching' : 'Leave the room'}</Button>}
          <FullscreenButton />
          <Link href="/versus" className="underline">Versus</Link>
        </div>
      </div>
      {loadError && <p role="alert" className="text-danger">{loadError}</p>}
      {view.error && <p role="alert" data-testid="room-error" className="text-danger">{view.error.message}</p>}
      {view.closed && !inRoom && <p role="status" data-testid="room-closed" className="rounded-lg bg-surface-2 px-3 py-2 text-sm">{view.closed}</p>}
      {!controller && !loadError && <p className="text-muted">Loading…</p>}
      {controller && session && !inRoom && (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,20rem)]">
          <RoomForm handling={controller.handling} disabled={view.link !== 'open'} onCreate={(room) => session.create(room, controller.handling)} />
          <JoinRoom disabled={view.link !== 'open'} onJoin={(c) => session.join(c, controller.handling)} onWatch={(c) => session.watch(c)} />
        </div>
      )}
      {session && view.lobby && !view.play && <RoomLobby room={view.lobby} onReady={(r) => session.ready(r)} onStart={() => session.start()} onLeave={() => session.leave()} chair={{ kick: (s) => session.kick(s), handOver: (s) => session.handOver(s), setRules: (m, r) => session.setRules(m, r), setBot: (s, b) => session.setBot(s, b) }} />}
      <RoomPlay play={view.play} rootRef={rootRef} ownRef={ownRef} meter={meter} countdown={countdown} onAim={(s) => session?.aim(s)} onLobby={() => session?.backToLobby()} />
      <LiveRegion message={announce(view, countdown)} testId="announcer" />
    </div>
  );
}

/** What a screen reader hears: each game's start, its outcome, the set's end, and aim changes. */
function announce(view: RoomSessionView, countdown: number | null): string {
  const p = view.play;
  if (!p) return view.lobby ? `Room ${view.lobby.code}: ${view.lobby.seats.filter((s) => s.ready).length} of ${view.lobby.seats.length} ready.` : '';
  if (p.state === 'over' && p.over) return `${teamName(p, p.over.winner)} won the set.`;
  if (p.state === 'between' && p.decided) return p.decided.winner === null ? 'A draw.' : `${teamName(p, p.decided.winner)} won this game.`;
  if (p.state === 'countdown' && countdown === 3) return `Game ${p.game + 1} starts in 3 seconds.`;
  return '';
}
