import { Tabs } from '@/components/boards/Tabs';
import type { VersusMode } from '@/lib/engine';
import { versusBoardHref } from '@/lib/ui/links';
import { seasonLabel } from '@/lib/versus/seasons';

/** The rating board's seasons, newest first: the running one (the live board), then each closed one. */
export function SeasonTabs({ mode, current, shown }: { mode: VersusMode; current: number; shown: number }) {
  const seasons = Array.from({ length: current }, (_, i) => current - i);
  const tabs = seasons.map((n) => ({
    href: versusBoardHref({ mode, season: n === current ? undefined : n }),
    label: n === current ? `${seasonLabel(n)} (now)` : seasonLabel(n),
    active: n === shown,
  }));
  return <Tabs label="Season" tabs={tabs} />;
}
