import Link from 'next/link';
import type { Moment } from '@/lib/client/moments';
import { formatTime } from '@/lib/ui/format';
import { practiceFromHref, type PracticeFrom } from '@/lib/ui/links';

/** One field's moment: where it opens in the sandbox, and whose field it is (a match's; none for a solo game). */
export type FieldMoment = { moment: Moment; from: PracticeFrom; who: string | null; seat: 0 | 1 | null };

function describe(m: Moment): string {
  switch (m.kind) {
    case 'attack':
      return `the ${m.rows}-row attack received`;
    case 'topOut':
      return 'the last piece before topping out';
    default:
      return m satisfies never;
  }
}

/**
 * "Practise the moment you lost": each moment that mattered, with a button that shows it in the
 * viewer and a link that opens it in the practice sandbox to be played again another way.
 */
export function PracticeMoments({ moments, onSeek }: { moments: readonly FieldMoment[]; onSeek: (tick: number) => void }) {
  if (moments.length === 0) return null;
  return (
    <section aria-labelledby="moments-heading" className="space-y-1 text-sm" data-testid="practice-moments">
      <h2 id="moments-heading" className="text-xs uppercase tracking-wide text-muted">
        Moments to practise
      </h2>
      <ul className="space-y-0.5">
        {moments.map(({ moment, from, who, seat }) => {
          const what = `${who ? `${who}: ` : ''}${describe(moment)}`;
          return (
            <li key={`${seat ?? 's'}-${moment.kind}`} className="flex flex-wrap items-baseline gap-x-2" data-testid={`moment-${moment.kind}${seat === null ? '' : `-${seat}`}`}>
              <button type="button" className="link font-mono tabular-nums" onClick={() => onSeek(moment.tick)} aria-label={`Go to ${formatTime(moment.tick)}`}>
                {formatTime(moment.tick)}
              </button>
              <span>{what}</span>
              <Link href={practiceFromHref(from, moment.tick)} className="link font-medium" data-testid="practise-moment">
                Practise this
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
