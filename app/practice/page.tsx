import type { Metadata } from 'next';
import { PracticeScreen } from '@/components/sandbox/PracticeScreen';
import { secondsParam } from '@/lib/ui/links';
import type { SandboxSource } from '@/lib/client/sandbox-source';
import { fumenParam } from '@/lib/fumen';
import { getSessionUser } from '@/lib/server/auth';
import { getReplay } from '@/lib/server/games/replays';
import { practiceQuerySchema } from '@/lib/validations/practice';

export const metadata: Metadata = { title: 'Practice' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The unranked sandbox: an empty board, a fumen (`?fumen=`), or a replay's moment (`?replay=&tick=`). */
export default async function PracticePage({ searchParams }: Props) {
  const query = practiceQuerySchema.parse(await searchParams);
  const user = await getSessionUser();
  let source: SandboxSource = { kind: 'empty' };
  let from: { href: string; label: string } | null = null;
  let problem: string | null = null;
  if (query.replay) {
    const record = await getReplay({ gameId: query.replay });
    if (!record) problem = 'That replay does not exist (or no longer does), so here is an empty board.';
    else {
      const tick = query.tick ?? 0;
      source = { kind: 'replay', encoded: record.replay, tick };
      from = { href: `/replays/${record.game.id}?t=${secondsParam(tick)}`, label: `${record.game.player?.username ?? 'Guest'}'s replay` };
    }
  } else if (query.fumen) {
    source = { kind: 'fumen', text: fumenParam(query.fumen), page: (query.page ?? 1) - 1 };
  }
  return <PracticeScreen key={JSON.stringify(query)} initial={source} from={from} problem={problem} signedIn={user !== null} />;
}
