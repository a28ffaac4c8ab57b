import type { RoomRules } from '@/lib/engine';
import { ruleLines } from '@/lib/ui/room-rules';

/** The room's rules as everyone sees them before readying up. */
export function RulesList({ rules, seats }: { rules: RoomRules; seats: number }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm" data-testid="room-rules">
      {ruleLines(rules, seats).map((l) => (
        <div key={l.key} className="contents">
          <dt className="text-muted">{l.label}</dt>
          <dd data-rule={l.key}>{l.value}</dd>
        </div>
      ))}
    </dl>
  );
}
