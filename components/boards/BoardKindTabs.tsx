import { Tabs } from '@/components/boards/Tabs';

/** Solo boards (best games) or versus boards (ratings and wins): the first choice on every boards page. */
export function BoardKindTabs({ active }: { active: 'solo' | 'versus' | 'teams' }) {
  return (
    <Tabs
      label="Boards"
      tabs={[
        { href: '/leaderboards', label: 'Solo', active: active === 'solo' },
        { href: '/leaderboards/versus', label: 'Versus', active: active === 'versus' },
        { href: '/leaderboards/teams', label: '2v2', active: active === 'teams' },
      ]}
    />
  );
}
