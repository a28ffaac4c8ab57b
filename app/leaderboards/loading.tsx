import { Loading } from '@/components/site/Loading';

export default function PageLoading() {
  return <Loading label="Loading the leaderboard…" />;
}
