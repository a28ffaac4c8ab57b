import Link from 'next/link';
import { buttonClass } from '@/components/ui/button-class';

/** Opens the practice sandbox at exactly this tick of a stored replay. */
export function PlayFromHere({ gameId, tick }: { gameId: string; tick: number }) {
  return (
    <Link
      href={`/practice?replay=${encodeURIComponent(gameId)}&tick=${tick}`}
      data-testid="play-from-here"
      className={buttonClass({ variant: 'primary' })}
    >
      Play from here
    </Link>
  );
}
