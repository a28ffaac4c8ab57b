'use client';

import { useState } from 'react';
import { useCopy } from '@/components/site/useCopy';
import { practiceLink } from '@/lib/client/sandbox-source';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';
import { Check } from '@/components/ui/Check';

/** Fumen export of the sandbox: the current position, or every piece placed as pages; copy or open. */
export function ExportPanel({ exportFumen, pages = true }: { exportFumen: (allPages: boolean) => string | null; pages?: boolean }) {
  const [allPages, setAllPages] = useState(false);
  const [fumen, setFumen] = useState<string | null>(null);
  const { copied, copy: copyText } = useCopy();
  const copy = async () => {
    if (fumen) await copyText(fumen);
  };
  return (
    <Card as="section" padding="sm" className="space-y-2">
      <h2 className="font-semibold">Export as fumen</h2>
      {pages && (
        <Check label="every piece placed, one page each" checked={allPages} onChange={setAllPages} />
      )}
      <Button data-testid="export" onClick={() => setFumen(exportFumen(allPages))}>
        Export
      </Button>
      {fumen && (
        <div className="space-y-2">
          <textarea readOnly value={fumen} data-testid="fumen-out" aria-label="Fumen" rows={3} className="w-full break-all rounded border border-line-strong bg-transparent p-2 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>
            <a className="link" data-testid="fumen-link" href={practiceLink(fumen)}>
              Open in the sandbox
            </a>
          </div>
        </div>
      )}
    </Card>
  );
}
