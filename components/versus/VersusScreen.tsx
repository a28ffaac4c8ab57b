'use client';

import Link from 'next/link';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { Meter, VersusController } from '@/lib/client/versus-controller';
import { liveStats, NO_TALLY, type LiveStats as Stats } from '@/lib/client/versus-stats';
import { linkTrouble } from '@/lib/client/live/socket';
import type { VersusView } from '@/lib/client/live/versus-session';
import type { VersusStandings } from '@/lib/server/versus/boards';
import { formatSetScore } from '@/lib/ui/versus';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { useSettings } from '@/components/settings/useSettings';
import { FullscreenButton } from '@/components/game/FullscreenButton';
import { LiveRegion } from '@/components/site/LiveRegion';
import { usePlayView } from '@/components/site/usePlayView';
import { FieldMeter } from '@/components/versus/FieldMeter';
import { fitVersus } from '@/components/versus/fit-versus';
import { LiveStats } from '@/components/versus/LiveStats';
import { VersusLobby } from '@/components/versus/VersusLobby';
import { VersusResult } from '@/components/versus/VersusResult';
import { Button } from '@/components/ui/Button';
import { buttonClass } from '@/components/ui/button-class';
import { PageHeading } from '@/components/ui/PageHeading';
import { playerName } from '@/lib/ui/players';

const loadRuntime = () => import('@/components/versus/runtime');

/**
 * The versus page: the lobby (quick match, private rooms) until a match starts, then both fields
 * — this player's large with its garbage meter, the opponent's smaller — and the set's score.
 * `room` is set on a room's share link (/versus/room/{code}): the page joins it at once.
 * `standings`: the signed-in player's rating per mode when the page was served, for the lobby.
 */
export function VersusScreen({ signedIn, room, standings = null }: { signedIn: boolean; room: string | null; standings?: VersusStandings | null }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const ownRef = useRef<HTMLCanvasElement>(null);
  const oppRef = useRef<HTMLCanvasElement>(null);
  const rowRef = useRef<HTMLDivElement>(null);
  const ownBoxRef = useRef<HTMLElement>(null);
  const oppBoxRef = useRef<HTMLElement>(null);
  const { settings } = useSettings(signedIn);
  const [controller, setController] = useState<VersusController | null>(null);
  const [view, setView] = useState<VersusView>({ link: 'down', lobby: room ? { kind: 'joining', code: room } : { kind: 'idle' }, match: null, error: null });
  const [countdown, setCountdown] = useState<number | null>(null);
  const [meter, setMeter] = useState<Meter>({ rows: 0, ready: 0 });
  const [stats, setStats] = useState<[Stats, Stats]>(() => [liveStats(NO_TALLY, 0, 0), liveStats(NO_TALLY, 0, 0)]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const ready = settings !== null;
  const startingSettings = useEffectEvent(() => settings!);

  useEffect(() => {
    if (controller && settings) controller.setSettings(settings);
  }, [controller, settings]);

  useEffect(() => {
    if (!ready || !rootRef.current || !ownRef.current || !oppRef.current) return;
    const [root, own, opponent] = [rootRef.current, ownRef.current, oppRef.current];
    let handle: ReturnType<Awaited<ReturnType<typeof loadRuntime>>['mountVersus']> | null = null;
    let live = true;
    loadRuntime().then(
      ({ mountVersus }) => {
        if (!live) return;
        handle = mountVersus({ root, own, opponent, settings: startingSettings(), onView: setView, onCountdown: setCountdown, onMeter: setMeter, onStats: setStats });
        if (room) handle.controller.session.joinRoom(room, handle.controller.setup);
        setController(handle.controller);
      },
      () => live && setLoadError('Versus could not be loaded. Check your connection and reload the page.'),
    );
    return () => {
      live = false;
      handle?.dispose();
      setController(null);
    };
  }, [ready, room]);

  // While a match is on screen it is a play view: both fields sized to the screen (fit-versus.ts).
  const playing = view.match !== null;
  useEffect(() => {
    const [root, row, own, opponent] = [rootRef.current, rowRef.current, ownBoxRef.current, oppBoxRef.current];
    if (!playing || !root || !row || !own || !opponent) return;
    return fitVersus(root, row, own, opponent);
  }, [playing]);

  // While a game of the set runs the site's header gives way and the screen stays awake; between
  // games and at the end the header is back (the lobby, the boards and the rest of the site).
  const state = view.match?.state ?? null;
  usePlayView({ focused: state === 'countdown' || state === 'playing', awake: state !== null && state !== 'over' });

  // A room made here gets its share link as the page's address, without leaving the page (the
  // room lives as long as this connection).
  const roomCode = view.lobby.kind === 'room' ? view.lobby.room.code : null;
  useEffect(() => {
    if (roomCode && window.location.pathname !== `/versus/room/${roomCode}`) window.history.replaceState(null, '', `/versus/room/${roomCode}`);
  }, [roomCode]);

  const m = view.match;
  const you = m?.seat ?? 0;
  const them = you === 0 ? 1 : 0;
  const name = (s: 0 | 1) => (m ? playerName(m.players[s]) : '');
  const score = m ? formatSetScore([m.score[you], m.score[them]]) : '';

  return (
    <div ref={rootRef} data-testid="versus" data-link={view.link} data-match={m?.matchId ?? ''} data-score={m ? m.score.join('-') : ''} className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PageHeading size="compact">
          Versus{m && <span className="font-normal text-muted"> · {VERSUS_MODE_INFO[m.mode].label}{m.ranked ? ' · ranked' : ''}</span>}
        </PageHeading>
        <div className="flex items-center gap-3 text-sm">
          {linkTrouble(view.link) && <span role="status" className="rounded bg-warning-bg px-2 py-0.5 text-on-warning-bg">{linkTrouble(view.link)}</span>}
          {m && m.state !== 'over' && <LeaveButton ranked={m.ranked} onLeave={() => controller?.session.leave()} />}
          <FullscreenButton />
          <Link href="/leaderboards/versus" className={buttonClass({ variant: 'quiet' })}>Boards</Link>
        </div>
      </div>
      {loadError && <p role="alert" className="text-danger">{loadError}</p>}
      {view.error && !m && <p role="alert" data-testid="versus-error" className="text-danger">{view.error.message}</p>}
      {!m && controller && <VersusLobby view={view} signedIn={signedIn} controller={controller} standings={standings} />}
      {!m && !controller && !loadError && <p className="text-muted">Loading…</p>}

      <div hidden={!m} className="space-y-2">
        {m && (
          <p className="flex flex-wrap items-baseline justify-between gap-2">
            <span className="font-semibold">{name(you)} <span className="text-muted">(you)</span> vs {name(them)}</span>
            <span className="font-mono text-lg tabular-nums" data-testid="set-score" aria-label={`Set score ${score}, first to ${m.firstTo}`}>
              {score} <span className="text-sm text-muted">first to {m.firstTo}</span>
            </span>
          </p>
        )}
        {m?.away && <AwayNotice mine={m.away.seat === you} opponent={name(them)} until={m.away.until} />}
        <div ref={rowRef} data-testid="versus-fields" className="relative flex items-start justify-center gap-2">
          <section ref={ownBoxRef} aria-label="Your field" className="relative aspect-[21/23] h-[min(60dvh,600px)] shrink-0">
            <canvas ref={ownRef} data-testid="field" className="block" role="img" aria-label="Your field" />
            <FieldMeter rows={meter.rows} ready={meter.ready} testId="garbage-meter-you" />
            {m && countdown !== null && countdown > 0 && m.state === 'countdown' && (
              <p data-testid="countdown" className="pointer-events-none absolute inset-0 flex items-center justify-center text-6xl font-black text-field-fg drop-shadow-lg tabular-nums sm:text-8xl">{countdown}</p>
            )}
          </section>
          {/* As wide as the opponent's field: the stats wrap under it rather than widen the row past a phone's screen. */}
          <div className="flex w-min min-w-0 flex-col gap-2">
            <section ref={oppBoxRef} aria-label={`${name(them)}'s field`} className="relative aspect-[21/23] h-[min(40dvh,420px)] shrink-0">
              <canvas ref={oppRef} data-testid="opponent-field" className="block" role="img" aria-label={`${name(them)}'s field`} />
              <FieldMeter rows={m?.opponentMeter ?? 0} testId="garbage-meter-them" />
            </section>
            <LiveStats who="You" stats={stats[0]} testId="live-stats-you" />
            <LiveStats who={name(them)} stats={stats[1]} testId="live-stats-them" />
          </div>
          {/* Over both fields, not the player's alone: on a phone that field is narrower than the result. */}
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-2">
            <div className="pointer-events-auto max-h-full overflow-y-auto">
              {m?.state === 'between' && m.decided && (
                <p data-testid="game-result" className="rounded-xl bg-field-panel/95 px-6 py-4 text-2xl font-bold text-field-fg">
                  {m.decided.winner === you ? 'You won this game' : m.decided.winner === null ? 'A draw' : `${name(them)} won this game`}
                </p>
              )}
              {m?.state === 'over' && !m.over && (
                <p data-testid="versus-result" className="max-w-sm rounded-xl bg-field-panel/95 p-6 text-center text-field-fg">
                  {m.elsewhere ? (
                    <>This match goes on in another tab or window. <a className="underline" href="/versus">Play another here</a>.</>
                  ) : (
                    <>
                      The match ended while you were away.{' '}
                      <Link className="underline" href={`/versus/matches/${m.matchId}`}>See how it ended</Link> or <a className="underline" href="/versus">play again</a>.
                    </>
                  )}
                </p>
              )}
              {m?.state === 'over' && m.over && (
                <VersusResult match={m} names={[name(0), name(1)]} onRoom={view.lobby.kind === 'room' ? () => controller?.session.backToLobby() : null} onRematch={(want) => controller?.session.rematch(want)} onSparAgain={controller?.session.sparred ? () => controller.session.sparAgain() : null} />
              )}
            </div>
          </div>
        </div>
      </div>
      <LiveRegion message={announce(view, countdown, name(them))} testId="announcer" />
    </div>
  );
}

/** A player's connection dropped: the seconds left in their window to come back. */
function AwayNotice({ mine, opponent, until }: { mine: boolean; opponent: string; until: number }) {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, Math.round((until - performance.now()) / 1000)));
    tick();
    const t = window.setInterval(tick, 500);
    return () => window.clearInterval(t);
  }, [until]);
  return (
    <p role="status" data-testid="away" className="rounded-lg bg-surface-2 px-3 py-2 text-sm">
      {mine ? 'Your connection dropped: reconnecting…' : `${opponent} lost their connection; they have ${left ?? '…'} s to come back.`}
    </p>
  );
}

/** What a screen reader hears: the match found, each game's outcome, the end. */
function announce(view: VersusView, countdown: number | null, opponent: string): string {
  const m = view.match;
  if (!m) return view.lobby.kind === 'queued' ? 'Looking for an opponent.' : '';
  if (m.state === 'over' && m.over) return m.over.winner === m.seat ? 'You won the match.' : 'You lost the match.';
  if (m.state === 'between' && m.decided) return m.decided.winner === m.seat ? 'You won this game.' : 'You lost this game.';
  if (m.state === 'countdown' && countdown === 3) return `Game ${m.game + 1} against ${opponent} starts in 3 seconds.`;
  return '';
}

/** How long "Yes, leave" ignores clicks once it appears: the second click of a double-click lands sooner. */
const ARM_MS = 600;

/**
 * Leaving loses the match. A ranked one costs rating too, so it asks once more: a stray click (or a
 * tap meant for the field) ended ranked matches. The question shows where the button was, so its
 * "Yes" stays disabled for a moment.
 */
function LeaveButton({ ranked, onLeave }: { ranked: boolean; onLeave: () => void }) {
  const [asking, setAsking] = useState(false);
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (!asking) return;
    const timer = setTimeout(() => setArmed(true), ARM_MS);
    return () => clearTimeout(timer);
  }, [asking]);
  if (!asking) {
    return (
      <Button variant="quiet" onClick={() => (ranked ? setAsking(true) : onLeave())}>
        Leave match (counts as a loss)
      </Button>
    );
  }
  const stay = () => {
    setAsking(false);
    setArmed(false);
  };
  return (
    <span role="group" aria-label="Leave the ranked match?" className="flex items-center gap-2">
      <span>Leave? It is a loss and costs rating.</span>
      <Button variant="quiet" autoFocus onClick={stay}>Stay</Button>
      <Button variant="danger" disabled={!armed} onClick={onLeave}>
        Yes, leave
      </Button>
    </span>
  );
}
