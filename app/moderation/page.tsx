import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionForm } from '@/components/moderation/ActionForm';
import { FlagCard } from '@/components/moderation/FlagCard';
import { RoleForm } from '@/components/moderation/RoleForm';
import { ReplayViewer } from '@/components/replay/ReplayViewer';
import { MODE_INFO, formatResult } from '@/lib/ui/modes';
import { formatDate } from '@/lib/ui/format';
import { matchHref } from '@/lib/ui/links';
import { REPORT_REASONS, type ReportReason } from '@/lib/validations/moderation';
import { getSessionUser } from '@/lib/server/auth';
import { getReplay } from '@/lib/server/games/replays';
import { moderationQueue, type PlayerHistory } from '@/lib/server/moderation/queue';
import { canModerate, isAdmin, listStaff, type StaffMember } from '@/lib/server/moderation/roles';
import { poolFailure, verifyPool } from '@/lib/server/verify-pool';
import { idSchema } from '@/lib/validations/games';
import { Card } from '@/components/ui/Card';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Moderation', robots: { index: false } };

type Props = { searchParams: Promise<{ game?: string | string[] }> };

/** Moderators only: anyone else gets the site's 404, as if the page did not exist. */
export default async function ModerationPage({ searchParams }: Props) {
  const user = await getSessionUser({ fresh: true });
  if (!user || !canModerate(user.role)) notFound();
  const { game } = await searchParams;
  const selected = typeof game === 'string' && idSchema.safeParse(game).success ? await getReplay({ gameId: game }) : null;
  const [queue, staff] = await Promise.all([moderationQueue({ limit: 100 }), isAdmin(user.role) ? listStaff() : null]);
  return (
    <div className="space-y-8">
      <PageHeading>Moderation</PageHeading>
      {selected ? <Inspect record={selected} /> : null}
      <section aria-labelledby="held-h" className="space-y-3">
        <h2 id="held-h" className="text-xl font-semibold">Held for timing review ({queue.held.length})</h2>
        {queue.held.length === 0 ? <p className="text-muted">Nothing held.</p> : null}
        <ul className="space-y-3">
          {queue.held.map((g) => (
            <Card as="li" key={g.id} data-testid="held-game" className="space-y-2">
              <p>
                <strong>{g.player ?? 'Guest'}</strong> · {MODE_INFO[g.mode as keyof typeof MODE_INFO]?.label ?? g.mode} · {formatDate(g.createdAt.toISOString())} ·{' '}
                <Link className="link" href={`/moderation?game=${g.id}`}>Watch here</Link>
              </p>
              <p className="text-sm"><span className="font-medium">{g.reviewReason}</span>: {g.reviewMessage}</p>
              <History player={g.userId ? queue.players[g.userId] : undefined} />
              <ActionForm label={`Decide on ${g.player ?? 'guest'}’s game`} gameId={g.id} username={g.player ?? undefined} actions={g.player ? ['approve', 'reject', 'ban'] : ['approve', 'reject']} />
            </Card>
          ))}
        </ul>
      </section>
      <section aria-labelledby="flags-h" className="space-y-3">
        <h2 id="flags-h" className="text-xl font-semibold">Flagged across games ({queue.flags.length})</h2>
        <p className="text-sm text-muted">
          A player whose recent games left the human range or jumped far from their own (<Link className="link" href="/fair-play">what is measured</Link>).
          Confirming takes nothing away: ban, reject or void with the usual actions.
        </p>
        {queue.flags.length === 0 ? <p className="text-muted">No open flags.</p> : null}
        <ul className="space-y-3">
          {queue.flags.map((f) => <FlagCard key={f.id} flag={f} history={<History player={queue.players[f.userId]} />} />)}
        </ul>
      </section>
      <section aria-labelledby="reports-h" className="space-y-3">
        <h2 id="reports-h" className="text-xl font-semibold">Reports ({queue.reports.length})</h2>
        {queue.reports.length === 0 ? <p className="text-muted">No open reports.</p> : null}
        <ul className="space-y-3">
          {queue.reports.map((r) => (
            <Card as="li" key={r.id} data-testid="report" className="space-y-2">
              <p>
                <strong>{r.reporter}</strong> reported {r.gameId ? <>a game by <strong>{r.target.username}</strong> · <Link className="link" href={`/moderation?game=${r.gameId}`}>Watch here</Link></> : <>the player <strong>{r.target.username}</strong></>}{' '}
                · {formatDate(r.createdAt.toISOString())}
              </p>
              <p className="text-sm">{REPORT_REASONS[r.reason as ReportReason] ?? r.reason}{r.note ? `: “${r.note}”` : ''}</p>
              <History player={queue.players[r.target.id]} />
              <ActionForm label={`Decide on the report about ${r.target.username}`} gameId={r.gameId ?? undefined} username={r.target.username} reportId={r.id} actions={r.gameId ? ['reject', 'ban', 'dismiss'] : ['ban', 'dismiss']} />
            </Card>
          ))}
        </ul>
      </section>
      {staff ? <Roles staff={staff} /> : null}
      <section aria-labelledby="log-h" className="space-y-3">
        <h2 id="log-h" className="text-xl font-semibold">Audit log</h2>
        <table className="w-full text-left text-sm" data-testid="audit-log">
          <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Player</th><th scope="col">Game or match</th><th scope="col">Why</th></tr></thead>
          <tbody>
            {queue.log.map((a) => (
              <tr key={a.id} className="border-t border-line">
                <td>{a.createdAt.toISOString().replace('T', ' ').slice(0, 16)}</td>
                <td>{a.moderatorName ?? '(deleted account)'}</td>
                <td>{a.action}</td>
                <td>{a.targetName ?? '—'}</td>
                <td>
                  {a.gameId ? <Link className="link" href={`/moderation?game=${a.gameId}`}>{a.gameId.slice(0, 8)}</Link> : a.matchId ? <Link className="link" href={matchHref(a.matchId)}>match {a.matchId.slice(0, 8)}</Link> : '—'}
                </td>
                <td>{a.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** Admins only: who holds a role, and the form to change one. */
function Roles({ staff }: { staff: StaffMember[] }) {
  return (
    <section aria-labelledby="roles-h" className="space-y-3">
      <h2 id="roles-h" className="text-xl font-semibold">Roles</h2>
      <ul className="text-sm" data-testid="staff">
        {staff.map((s) => <li key={s.username}><strong>{s.username}</strong> · {s.role}</li>)}
      </ul>
      <RoleForm />
    </section>
  );
}

function History({ player }: { player?: PlayerHistory }) {
  if (!player) return null;
  return (
    <p className="text-xs text-muted">
      {player.username}: since {formatDate(player.createdAt.toISOString())} · {player.games} games · {player.held} held · {player.rejected} rejected · {player.reports} reports
      {player.banned ? ' · banned' : ''} · <Link className="link" href={`/u/${encodeURIComponent(player.username)}`}>profile</Link>
    </p>
  );
}

async function Inspect({ record }: { record: NonNullable<Awaited<ReturnType<typeof getReplay>>> }) {
  // A look, not a result to keep: a client's job (moderators share one share of the queue), and a
  // busy pool shows as "could not be measured now".
  const timing = await verifyPool().run('timing', record.replay, { client: 'moderation' }).catch((error: unknown) => {
    if (poolFailure(error)) return null;
    throw error;
  });
  const { game } = record;
  return (
    // Not a Card: the stronger outline sets the game under inspection apart from the queue below it.
    <section aria-labelledby="inspect-h" className="space-y-3 rounded-xl border border-line-strong p-4">
      <h2 id="inspect-h" className="text-xl font-semibold">
        {game.player?.username ?? 'Guest'} · {MODE_INFO[game.mode].label} · {formatResult(game.mode, game)} · {record.status}
      </h2>
      <ReplayViewer encoded={record.replay} path={`/moderation?game=${game.id}`} startAt={null} />
      {timing ? (
        <dl className="grid grid-cols-2 gap-x-4 text-sm sm:grid-cols-4" data-testid="timing-features">
          <dt className="text-muted">Presses / pieces</dt><dd>{timing.presses} / {timing.pieces}</dd>
          <dt className="text-muted">Longest same rhythm</dt><dd>{timing.sameRhythm.presses} presses ({timing.sameRhythm.interval}-tick interval, {timing.sameRhythm.hold}-tick hold)</dd>
          <dt className="text-muted">Taps at the commonest hold</dt><dd>{Math.round(timing.taps.modalShare * 100)}% of {timing.taps.count} ({timing.taps.modalHold} ticks)</dd>
          <dt className="text-muted">Peak pieces/s ({timing.peakPps.window} pieces)</dt><dd>{timing.peakPps.pps?.toFixed(2) ?? '—'}</dd>
          <dt className="text-muted">Peak presses/s</dt><dd>{timing.peakPressRate.perSecond?.toFixed(1) ?? '—'}</dd>
        </dl>
      ) : null}
    </section>
  );
}
