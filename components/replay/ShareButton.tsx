'use client';

import { useCopy } from '@/components/site/useCopy';
import { secondsParam } from '@/lib/ui/links';

/** Copies a link that opens this replay at the moment shown; the link itself stays visible as a fallback. */
export function ShareButton({ path, tick }: { path: string; tick: number }) {
  const href = `${path}${path.includes('?') ? '&' : '?'}t=${secondsParam(tick)}`;
  const { copied, copy: copyText } = useCopy();
  const copy = () => copyText(new URL(href, window.location.origin).toString());
  return (
    <span className="flex items-center gap-2 text-sm">
      <button type="button" onClick={copy} className="rounded-lg border border-line-strong px-3 py-1.5 hover:bg-surface-2">
        {copied ? 'Copied' : 'Copy link to this moment'}
      </button>
      <a href={href} className="link" data-testid="share-link">
        at {secondsParam(tick)} s
      </a>
    </span>
  );
}
