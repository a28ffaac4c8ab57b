'use client';

import { useState } from 'react';
import { roomCodeSchema } from '@/lib/live/protocol';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';

/** A room's code, typed or pasted (a whole share link works too): join it, or watch it. */
export function JoinRoom({ disabled, onJoin, onWatch }: { disabled: boolean; onJoin: (code: string) => void; onWatch: (code: string) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const go = (then: (code: string) => void) => {
    const code = text.trim().split('/').pop()!.toUpperCase();
    const parsed = roomCodeSchema.safeParse(code);
    if (!parsed.success) return setError('A room code is six letters and digits, as in the share link.');
    setError(null);
    then(parsed.data);
  };
  return (
    <Card as="form" aria-label="Join a room" className="space-y-3" onSubmit={(e) => (e.preventDefault(), go(onJoin))}>
      <h2 className="text-lg font-semibold">Join a room</h2>
      <label className="flex flex-col gap-1 text-sm">
        Room code or link
        <input className="rounded-md border border-line-strong bg-surface px-2 py-1 font-mono uppercase" value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" />
      </label>
      {error && <p role="alert" className="text-sm text-danger">{error}</p>}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={disabled}>Join</Button>
        <Button disabled={disabled} onClick={() => go(onWatch)}>Watch</Button>
      </div>
    </Card>
  );
}
