'use client';

import { useCopy } from '@/components/site/useCopy';
import { atMoment, secondsParam } from '@/lib/ui/links';
import { Button } from '@/components/ui/Button';

/** Copies a link that opens this replay at the moment shown; the link itself stays visible as a fallback. */
export function ShareButton({ path, tick }: { path: string; tick: number }) {
  const href = atMoment(path, tick);
  const { copied, copy: copyText } = useCopy();
  const copy = () => copyText(new URL(href, window.location.origin).toString());
  return (
    <span className="flex items-center gap-2 text-sm">
      <Button onClick={copy}>
        {copied ? 'Copied' : 'Copy link to this moment'}
      </Button>
      <a href={href} className="link" data-testid="share-link">
        at {secondsParam(tick)} s
      </a>
    </span>
  );
}
