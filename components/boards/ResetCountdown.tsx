'use client';

import { useEffect, useState } from 'react';
import { formatCountdown } from '@/lib/ui/format';

/** Time left until the current board resets; the server renders the first value, so it reads without JS. */
export function ResetCountdown({ until, initial }: { until: string; initial: string }) {
  const [text, setText] = useState(initial);
  useEffect(() => {
    const end = Date.parse(until);
    const update = () => setText(formatCountdown(end - Date.now()));
    update();
    const timer = window.setInterval(update, 1000);
    return () => window.clearInterval(timer);
  }, [until]);
  return (
    <span className="text-sm text-muted" data-testid="reset-countdown">
      Resets in <time dateTime={until} className="font-mono tabular-nums">{text}</time>
    </span>
  );
}
