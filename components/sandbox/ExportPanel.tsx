'use client';

import { useState } from 'react';
import { useCopy } from '@/components/site/useCopy';
import { practiceLink } from '@/lib/client/sandbox-source';

const button = 'rounded-lg border border-line-strong px-3 py-1.5 text-sm hover:bg-surface-2';

/** Fumen export of the sandbox: the current position, or every piece placed as pages; copy or open. */
export function ExportPanel({ exportFumen, pages = true }: { exportFumen: (allPages: boolean) => string | null; pages?: boolean }) {
  const [allPages, setAllPages] = useState(false);
  const [fumen, setFumen] = useState<string | null>(null);
  const { copied, copy: copyText } = useCopy();
  const copy = async () => {
    if (fumen) await copyText(fumen);
  };
  return (
    <section className="space-y-2 rounded-lg border border-line p-3">
      <h2 className="font-semibold">Export as fumen</h2>
      {pages && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={allPages} onChange={(e) => setAllPages(e.target.checked)} />
          every piece placed, one page each
        </label>
      )}
      <button type="button" className={button} data-testid="export" onClick={() => setFumen(exportFumen(allPages))}>
        Export
      </button>
      {fumen && (
        <div className="space-y-2">
          <textarea readOnly value={fumen} data-testid="fumen-out" aria-label="Fumen" rows={3} className="w-full break-all rounded border border-line-strong bg-transparent p-2 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <button type="button" className={button} onClick={copy}>{copied ? 'Copied' : 'Copy'}</button>
            <a className="link" data-testid="fumen-link" href={practiceLink(fumen)}>
              Open in the sandbox
            </a>
          </div>
        </div>
      )}
    </section>
  );
}
