import Link from 'next/link';
import { buttonClass } from '@/components/ui/button-class';
import { practiceFromHref, type PracticeFrom } from '@/lib/ui/links';

/** Opens the practice sandbox (`name`: the accessible name, where several share a short visible label) at exactly this tick of a stored replay (a solo game, or one seat of a match). */
export function PlayFromHere({ from, tick, label = 'Play from here', testId = 'play-from-here', name }: { from: PracticeFrom; tick: number; label?: string; testId?: string; name?: string }) {
  return (
    <Link href={practiceFromHref(from, tick)} data-testid={testId} className={buttonClass({ variant: 'primary' })} aria-label={name}>
      {label}
    </Link>
  );
}
