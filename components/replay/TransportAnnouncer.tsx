'use client';

import { useEffect, useState } from 'react';
import { formatTime } from '@/lib/ui/format';
import { LiveRegion } from '@/components/site/LiveRegion';

/** How long the position must rest before it is announced: stepping or seeking says where it stopped, once. */
const SETTLE_MS = 400;

/** What the replay transport is doing, for screen readers: playing (and how fast), or where it is paused. */
export function transportMessage(p: { playing: boolean; tick: number; end: number; speed: number }): string {
  if (p.playing) return `Playing at ${p.speed}× speed`;
  const at = `${formatTime(p.tick)} of ${formatTime(p.end)}`;
  return p.tick >= p.end ? `End of replay, ${at}` : `Paused at ${at}`;
}

export function TransportAnnouncer(props: { playing: boolean; tick: number; end: number; speed: number }) {
  const next = transportMessage(props);
  const [message, setMessage] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setMessage(next), SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, [next]);
  return <LiveRegion message={message} testId="replay-announcer" />;
}
