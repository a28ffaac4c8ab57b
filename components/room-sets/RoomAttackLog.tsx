import type { RoomAttack } from '@/lib/engine';
import type { RoomKo } from '@/lib/client/room-player';
import { formatTime } from '@/lib/ui/format';

/** How many of the latest entries the log lists (a 16-seat game sends hundreds). */
const SHOWN = 12;

type Entry = { tick: number; key: string; text: React.ReactNode };

/**
 * Who sent how many rows to whom, and who went out, up to the moment shown, newest first. Each
 * entry's time is the tick after it happened (the first one that shows it), a button that seeks there.
 */
export function RoomAttackLog({ attacks, kos, tick, names, onSeek }: { attacks: readonly RoomAttack[]; kos: readonly RoomKo[]; tick: number; names: readonly string[]; onSeek: (tick: number) => void }) {
  const sent = attacks.filter((a) => a.tick < tick);
  const out = kos.filter((k) => k.tick < tick);
  const entries: Entry[] = [
    ...sent.map((a, i) => ({
      tick: a.tick,
      key: `a${i}`,
      text: (
        <span data-testid="attack-entry" data-from={a.from} data-to={a.to} data-rows={a.size} data-tick={a.tick}>
          <span className="font-medium">{names[a.from]}</span> sent {a.size} {a.size === 1 ? 'row' : 'rows'} to <span className="font-medium">{names[a.to]}</span>
        </span>
      ),
    })),
    ...out.map((k) => ({
      tick: k.tick,
      key: `k${k.seat}`,
      text: (
        <span data-testid="ko-entry" data-seat={k.seat} className="font-semibold text-danger">
          {names[k.seat]} {k.how === 'left' ? 'left' : 'was knocked out'}
        </span>
      ),
    })),
  ].sort((a, b) => b.tick - a.tick);
  return (
    <section aria-labelledby="attack-log-heading" className="space-y-1 text-sm" data-testid="attack-log" data-count={sent.length} data-total={attacks.length} data-kos={out.length}>
      <h2 id="attack-log-heading" className="text-xs uppercase tracking-wide text-muted">
        Attacks ({sent.length} of {attacks.length}) and KOs
      </h2>
      {entries.length === 0 ? (
        <p className="text-muted">No garbage sent yet.</p>
      ) : (
        <ol className="space-y-0.5">
          {entries.slice(0, SHOWN).map((e) => (
            <li key={e.key} className="flex flex-wrap items-baseline gap-x-2">
              <button type="button" className="link min-h-6 font-mono tabular-nums" onClick={() => onSeek(e.tick + 1)} aria-label={`Go to ${formatTime(e.tick + 1)}`}>
                {formatTime(e.tick + 1)}
              </button>
              {e.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
