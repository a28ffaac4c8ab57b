'use client';

import { useState } from 'react';
import type { SandboxSource } from '@/lib/client/sandbox-source';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';

/** Paste a fumen (or a fumen link) and play it; page is 1-based as in fumen editors. */
export function ImportPanel({ onOpen, onFocus }: { onOpen: (source: SandboxSource) => void; onFocus: (typing: boolean) => void }) {
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  return (
    <Card
      as="form"
      padding="sm"
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        onOpen(text.trim() ? { kind: 'fumen', text: text.trim(), page: page - 1 } : { kind: 'empty' });
      }}
    >
      <h2 className="font-semibold">Play a fumen</h2>
      <textarea
        value={text}
        onChange={(e) => setText(e.target.value)}
        onFocus={() => onFocus(true)}
        onBlur={() => onFocus(false)}
        placeholder="v115@… or a fumen link; empty for an empty board"
        aria-label="Fumen to play"
        rows={3}
        className="w-full rounded border border-line-strong bg-transparent p-2 font-mono text-xs"
      />
      <div className="flex items-center gap-3 text-sm">
        <label className="flex items-center gap-1">
          Start at page
          <input type="number" min={1} value={page} onChange={(e) => setPage(Math.max(1, Number(e.target.value) || 1))} onFocus={() => onFocus(true)} onBlur={() => onFocus(false)} className="w-16 rounded border border-line-strong bg-transparent px-1" />
        </label>
        <Button type="submit">Play</Button>
      </div>
    </Card>
  );
}
