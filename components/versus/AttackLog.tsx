import type { Attack } from '@/lib/client/attacks';
import { formatTime } from '@/lib/ui/format';

/** How many of the latest attacks the log lists. */
const SHOWN = 8;

/**
 * Who sent what: the attacks up to the moment shown, newest first, each with the moment it was
 * sent (a button that seeks there) and when it joined the other queue.
 */
export function AttackLog({ attacks, tick, names, onSeek }: { attacks: readonly Attack[]; tick: number; names: readonly [string, string]; onSeek: (tick: number) => void }) {
  const sent = attacks.filter((a) => a.sentAt < tick);
  const shown = sent.slice(-SHOWN).reverse();
  return (
    <section aria-labelledby="attack-log-heading" className="space-y-1 text-sm" data-testid="attack-log" data-count={sent.length} data-total={attacks.length}>
      <h2 id="attack-log-heading" className="text-xs uppercase tracking-wide text-muted">
        Attacks ({sent.length} of {attacks.length})
      </h2>
      {shown.length === 0 ? (
        <p className="text-muted">No garbage sent yet.</p>
      ) : (
        <ol className="space-y-0.5">
          {shown.map((a) => (
            <li key={`${a.from}-${a.sentAt}`} className="flex flex-wrap items-baseline gap-x-2">
              <button type="button" className="link font-mono tabular-nums" onClick={() => onSeek(a.sentAt + 1)} aria-label={`Go to ${formatTime(a.sentAt + 1)}`}>
                {formatTime(a.sentAt + 1)}
              </button>
              <span>
                <span className="font-medium">{names[a.from]}</span> sent {a.size} {a.size === 1 ? 'row' : 'rows'} to {names[a.to]}
                {a.joinedAt === null ? <span className="text-muted"> (still on its way at the end)</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
