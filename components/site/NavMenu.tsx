'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The narrow screen's menu: a <details> (it opens with no script) that closes itself once a link
 * has led somewhere (client navigation keeps the header mounted, so it would stay open over the
 * new page) and on Escape.
 */
export function NavMenu({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const pathname = usePathname();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  return (
    <details
      ref={ref}
      className="group relative ml-auto lg:hidden"
      data-testid="nav-menu"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !ref.current?.open) return;
        ref.current.open = false;
        ref.current.querySelector('summary')?.focus();
      }}
    >
      {children}
    </details>
  );
}
