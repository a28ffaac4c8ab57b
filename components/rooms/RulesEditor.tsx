'use client';

import { useState } from 'react';
import type { RoomRules, VersusMode } from '@/lib/engine';
import { roomRulesSchema } from '@/lib/validations/rooms';
import { splitTeams } from '@/lib/ui/room-rules';
import { ModeField, RulesFields } from '@/components/rooms/RoomForm';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';

/** The host's new mode and rules for the room's next set, checked with the server's schema for its size. */
export function RulesEditor({ mode: was, rules: start, seats, onSave, onClose }: { mode: VersusMode; rules: RoomRules; seats: number; onSave: (mode: VersusMode, rules: RoomRules) => void; onClose: () => void }) {
  const [mode, setMode] = useState(was);
  const [rules, setRules] = useState<RoomRules>(start);
  const [teamCount, setTeamCount] = useState(start.teams ? new Set(start.teams).size : 0);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof RoomRules>(k: K, v: RoomRules[K]) => setRules((r) => ({ ...r, [k]: v }));
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = roomRulesSchema(seats).safeParse({ ...rules, teams: splitTeams(seats, teamCount) });
    if (!parsed.success) return setError(parsed.error.issues[0]!.message);
    if (parsed.data.messiness > 0) return setError('Rooms with people in them play with messiness 0.');
    setError(null);
    onSave(mode, parsed.data);
    onClose();
  };
  return (
    <Card as="form" aria-label="Change the rules" onSubmit={save} noValidate className="space-y-3">
      <h2 className="font-semibold">Change the rules</h2>
      <p className="text-sm text-muted">Everyone readies again under the new rules.</p>
      <ModeField mode={mode} onChange={setMode} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <RulesFields size={seats} rules={rules} set={set} teamCount={teamCount} setTeamCount={setTeamCount} />
      </div>
      {error && <p role="alert" className="text-sm text-danger">{error}</p>}
      <div className="flex gap-2">
        <Button type="submit" variant="primary">Save the rules</Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </Card>
  );
}
