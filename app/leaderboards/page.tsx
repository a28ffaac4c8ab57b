import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Leaderboards' };

export default function LeaderboardsPage() {
  return (
    <div className="space-y-2">
      <h1 className="text-3xl font-bold">Leaderboards</h1>
      <p className="text-slate-600 dark:text-slate-400">Coming soon.</p>
    </div>
  );
}
