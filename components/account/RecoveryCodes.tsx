'use client';

import { useCopy } from '@/components/site/useCopy';
import { Button } from '@/components/ui/Button';

/** Recovery codes, shown once: the player copies, prints or writes them down now. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  const { copied, copy } = useCopy();
  return (
    <div className="space-y-2 rounded-lg border border-line-strong bg-surface-2 p-4">
      <p className="text-sm font-medium">Save these recovery codes now: they are shown only once. Each one resets your password once if you forget it.</p>
      <ol data-testid="recovery-codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      {/* Filled with the surface colour: its hover tint is this box's own colour. */}
      <Button onClick={() => copy(codes.join('\n'))} className="bg-surface">
        {copied ? 'Copied' : 'Copy codes'}
      </Button>
    </div>
  );
}
