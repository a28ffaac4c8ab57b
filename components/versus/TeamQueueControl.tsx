'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { keepTakeUp } from '@/lib/client/room-take-up';
import type { LiveSocket } from '@/lib/client/live/socket';
import type { ClientMessage, ServerMessage } from '@/lib/live/protocol';
import { useSettings } from '@/components/settings/useSettings';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';

type State =
  | { kind: 'idle' }
  | { kind: 'party'; code: string; members: number }
  | { kind: 'queued'; pair: boolean; waiting: number }
  | { kind: 'found'; matchId: string; code: string };

/**
 * Ranked 2v2 from the versus page (decision 0036): queue alone, or make a party code a friend
 * joins and queue the two of you. Its own live connection, opened on the first click (the socket
 * code is loaded then, not with the page); a match found opens the room's page, which takes the
 * seat up on its own connection with the seat's token (lib/client/room-take-up.ts).
 */
export function TeamQueueControl() {
  const { settings } = useSettings(true);
  const router = useRouter();
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const socket = useRef<LiveSocket | null>(null);
  const waiting = useRef<ClientMessage[]>([]);

  useEffect(() => () => socket.current?.close(), []);

  // Only the queue's messages and the set's first: the rest of the set is the room view's.
  const onMessage = (m: ServerMessage) => {
    if (m.t === 'tparty') setState({ kind: 'party', code: m.code, members: m.members.length });
    else if (m.t === 'tqueued') setState({ kind: 'queued', pair: m.pair, waiting: m.waiting });
    else if (m.t === 'tunqueued') {
      setError(m.reason === 'partner_left' ? 'Your partner left.' : m.reason === 'refused' ? 'A player left as the match began; queue again.' : null);
      setState({ kind: 'idle' });
    } else if (m.t === 'rmatch') {
      // The room page plays the set: it takes this seat up on its own connection with the token.
      setState({ kind: 'found', matchId: m.matchId, code: m.code });
      if (m.resumeToken) keepTakeUp(m.code, m.matchId, m.resumeToken);
      router.push(`/versus/rooms/${m.code}`);
    }
    else if (m.t === 'error') setError(m.message);
  };

  const send = async (m: ClientMessage) => {
    setError(null);
    if (!socket.current) {
      const [{ LiveSocket, liveUrl }, { LIVE_PATH, LIVE_PROTOCOL_VERSION }] = await Promise.all([import('@/lib/client/live/socket'), import('@/lib/live/protocol')]);
      socket.current = new LiveSocket({
        url: liveUrl(location, LIVE_PATH),
        hello: () => ({ t: 'hello', v: LIVE_PROTOCOL_VERSION }),
        onMessage,
        onState: (s) => {
          if (s !== 'open') return;
          for (const x of waiting.current.splice(0)) socket.current?.send(x);
        },
      });
      socket.current.open();
    }
    if (!socket.current.send(m)) waiting.current.push(m);
  };

  if (!settings) return null;
  const handling = { ...settings.handling };
  return (
    <Card className="space-y-3" data-testid="team-queue" data-state={state.kind}>
      <h2 className="text-lg font-bold">Ranked 2v2</h2>
      {error && <p role="alert" className="text-danger">{error}</p>}
      {state.kind === 'idle' && (
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="primary" size="md" onClick={() => void send({ t: 'tqueue', handling })}>Queue alone</Button>
          <Button size="md" onClick={() => void send({ t: 'tparty', handling })}>Make a party</Button>
          <input aria-label="Party code" value={code} maxLength={6} onChange={(e) => setCode(e.target.value.toUpperCase())} className="w-24 rounded border border-line px-2 py-1 font-mono" />
          <Button size="md" disabled={!/^[A-Z2-9]{6}$/.test(code)} onClick={() => void send({ t: 'tjoin', code, handling })}>Join party</Button>
        </div>
      )}
      {state.kind === 'party' && (
        <div className="flex flex-wrap items-center gap-2">
          <p>Party <span className="font-mono font-semibold" data-testid="party-code">{state.code}</span> · {state.members}/2</p>
          <Button variant="primary" size="md" disabled={state.members < 2} onClick={() => void send({ t: 'tqueue', handling })}>Queue together</Button>
          <Button size="md" onClick={() => void send({ t: 'tleave' })}>Leave</Button>
        </div>
      )}
      {state.kind === 'queued' && (
        <div className="flex flex-wrap items-center gap-2">
          <p role="status">Looking for a match{state.pair ? ' for your pair' : ''}… {state.waiting} waiting</p>
          <Button size="md" onClick={() => void send({ t: 'tleave' })}>Cancel</Button>
        </div>
      )}
      {state.kind === 'found' && <p role="status" data-testid="team-match">Match found: <span className="font-mono">{state.matchId}</span></p>}
    </Card>
  );
}
