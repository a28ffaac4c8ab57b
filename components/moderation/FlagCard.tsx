import Link from 'next/link';
import type { ReactNode } from 'react';
import { ActionForm } from '@/components/moderation/ActionForm';
import { Card } from '@/components/ui/Card';
import type { OpenFlag } from '@/lib/server/integrity/flags';
import type { GameRef, Medians } from '@/lib/server/integrity/judge';
import { formatDate } from '@/lib/ui/format';
import { matchHref } from '@/lib/ui/links';
import { isMode, isVersusModeName, MODE_INFO, VERSUS_MODE_INFO } from '@/lib/ui/modes';

const label = (mode: string) => (isMode(mode) ? MODE_INFO[mode].label : isVersusModeName(mode) ? VERSUS_MODE_INFO[mode].label : mode);
const ms = (ticks: number | null) => (ticks === null ? '—' : `${Math.round((ticks * 1000) / 60)} ms`);
const pct = (share: number) => `${Math.round(share * 100)}%`;

/** What each row of the evidence shows, from a run's medians. */
const ROWS: Array<[string, (m: Medians) => string]> = [
  ['Pieces / s', (m) => m.pps.toFixed(2)],
  ['Key presses / s', (m) => m.pressesPerSecond.toFixed(1)],
  ['Reaction to a new piece', (m) => ms(m.reactionTicks)],
  ['Taps at the commonest hold', (m) => pct(m.tapShare)],
  ['Pieces at the commonest reaction', (m) => pct(m.reactionShare)],
];

function GameLink({ game }: { game: GameRef }) {
  switch (game.kind) {
    case 'solo':
      return <Link className="link" href={`/moderation?game=${game.gameId}`}>game {game.gameId.slice(0, 8)}</Link>;
    case 'versus':
      return <Link className="link" href={matchHref(game.matchId, { game: game.game + 1 })}>match {game.matchId.slice(0, 8)} game {game.game + 1}, seat {game.seat + 1}</Link>;
    default:
      return game satisfies never;
  }
}

/** One open flag across games: the judge's words, the player's medians before and lately, the games that left the human range, and the decision. */
export function FlagCard({ flag, history }: { flag: OpenFlag; history: ReactNode }) {
  const e = flag.evidence;
  return (
    <Card as="li" data-testid="integrity-flag" className="space-y-2">
      <p><strong>{flag.player}</strong> · {label(flag.mode)} · {formatDate(flag.createdAt.toISOString())}</p>
      <p className="text-sm"><span className="font-medium">{flag.reason}</span>: {flag.message}</p>
      {e ? (
        <>
          <table className="text-left text-sm">
            <thead><tr><th scope="col">Median</th><th scope="col">Earlier ({e.earlier?.games ?? 0} games)</th><th scope="col">Recent ({e.recent.games} games)</th></tr></thead>
            <tbody>
              {ROWS.map(([name, show]) => (
                <tr key={name} className="border-t border-line"><th scope="row" className="pr-4 font-normal text-muted">{name}</th><td className="pr-4">{e.earlier ? show(e.earlier) : '—'}</td><td>{show(e.recent)}</td></tr>
              ))}
            </tbody>
          </table>
          <p className="text-sm">Games: {e.out.map((g, i) => <span key={i}>{i > 0 ? ' · ' : ''}<GameLink game={g} /></span>)}</p>
        </>
      ) : null}
      {history}
      <ActionForm label={`Decide on the flag about ${flag.player}`} flagId={flag.id} username={flag.player} actions={['dismiss_flag', 'confirm_flag', 'ban']} />
    </Card>
  );
}
