import type { Metadata } from 'next';
import { PracticeScreen } from '@/components/sandbox/PracticeScreen';
import { getSessionUser } from '@/lib/server/auth';
import { practiceStart } from '@/lib/server/practice-source';
import { practiceQuerySchema } from '@/lib/validations/practice';

export const metadata: Metadata = { title: 'Practice' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The unranked sandbox: an empty board, a fumen (`?fumen=`), or a stored replay's moment (a solo game's or a match seat's). */
export default async function PracticePage({ searchParams }: Props) {
  const query = practiceQuerySchema.parse(await searchParams);
  const [user, { source, from, problem }] = await Promise.all([getSessionUser(), practiceStart(query)]);
  return <PracticeScreen key={JSON.stringify(query)} initial={source} from={from} problem={problem} signedIn={user !== null} />;
}
