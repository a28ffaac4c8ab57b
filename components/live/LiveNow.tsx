'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { LiveGameSummary } from '@/lib/live/protocol';
import type { LiveMatchSummary } from '@/lib/live/versus';
import { MODE_INFO, VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { formatPoints, formatTime } from '@/lib/ui/format';
import { buttonClass } from '@/components/ui/button-class';
import { playerName } from '@/lib/ui/players';

/** How often the list is asked for again: stats move on while it is open. */
const REFRESH_MS = 4_000;

type Live = { games: LiveGameSummary[]; matches: LiveMatchSummary[] };
type Load = { status: 'loading' } | ({ status: 'ready' } & Live) | { status: 'error' };

async function fetchLive(): Promise<Live> {
  const res = await fetch('/api/live', { cache: 'no-store' });
  if (!res.ok) throw new Error(String(res.status));
  const body = (await res.json()) as Partial<Live> | LiveGameSummary[];
  return Array.isArray(body) ? { games: body, matches: [] } : { games: body.games ?? [], matches: body.matches ?? [] };
}

/** The games being played now (GET /api/live), most watched first, each with a link to watch it. */
export function LiveNow({ limit }: { limit?: number }) {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    const refresh = () =>
      fetchLive().then(
        (l) => live && setLoad({ status: 'ready', ...l }),
        () => live && setLoad((l) => (l.status === 'ready' ? l : { status: 'error' })),
      );
    void refresh();
    const timer = window.setInterval(refresh, REFRESH_MS);
    return () => {
      live = false;
      window.clearInterval(timer);
    };
  }, []);

  if (load.status === 'loading') return <p className="text-sm text-muted">Looking for live games…</p>;
  if (load.status === 'error') return <p className="text-sm text-muted">The list of live games could not be loaded.</p>;
  const games = limit ? load.games.slice(0, limit) : load.games;
  const matches = limit ? load.matches.slice(0, limit) : load.matches;
  if (games.length === 0 && matches.length === 0) {
    return (
      <p className="text-sm text-muted" data-testid="live-empty">
        Nobody is playing a ranked game right now. <Link className="link" href="/play">Start one</Link> and others can watch it.
      </p>
    );
  }
  return (
    <>
      {matches.length > 0 && <MatchList matches={matches} />}
      {games.length > 0 && <GameList games={games} />}
    </>
  );
}

const WATCH = buttonClass({ variant: 'primary' });

/** Versus matches being played: both players, the mode and the set score so far. */
function MatchList({ matches }: { matches: LiveMatchSummary[] }) {
  return (
    <ul data-testid="live-matches" className="mb-4 divide-y divide-line rounded-xl border border-line">
      {matches.map((m) => (
        <li key={m.matchId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <p className="font-semibold">
              {playerName(m.players[0])} vs {playerName(m.players[1])}{' '}
              <span className="font-normal text-muted">· {VERSUS_MODE_INFO[m.mode].label}{m.ranked ? ' · ranked' : ''}</span>
            </p>
            <p className="text-sm tabular-nums text-muted">
              {m.score[0]}–{m.score[1]} (first to {m.firstTo}){m.spectators > 0 && ` · ${m.spectators} watching`}
            </p>
          </div>
          <Link className={WATCH} href={`/versus/watch/${m.matchId}`} aria-label={`Watch ${playerName(m.players[0])} against ${playerName(m.players[1])}`}>
            Watch
          </Link>
        </li>
      ))}
    </ul>
  );
}

function GameList({ games }: { games: LiveGameSummary[] }) {
  return (
    <ul data-testid="live-now" className="divide-y divide-line rounded-xl border border-line">
      {games.map((g) => (
        <li key={g.gameId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="min-w-0">
            <p className="font-semibold">
              {playerName(g.player)} <span className="font-normal text-muted">· {MODE_INFO[g.mode].label}</span>
            </p>
            <p className="text-sm tabular-nums text-muted">
              {formatPoints(g.stats.score)} · {g.stats.lines} lines · {g.stats.pieces} pieces · {formatTime(g.stats.tick)}
              {g.spectators > 0 && ` · ${g.spectators} watching`}
            </p>
          </div>
          <Link className={WATCH} href={`/live/${g.gameId}`} aria-label={`Watch ${playerName(g.player)} play ${MODE_INFO[g.mode].label}`}>
            Watch
          </Link>
        </li>
      ))}
    </ul>
  );
}
