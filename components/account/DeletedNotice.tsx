'use client';

import { useEffect, useState } from 'react';

/** Set by the deletion form just before it signs out, read once by the page it lands on. */
const KEY = 'linefall:account-deleted';

/** Called by the deletion form: the next page says the account is gone. */
export function markAccountDeleted(): void {
  try {
    sessionStorage.setItem(KEY, '1');
  } catch {
    // Storage refused (private mode): the page simply says nothing.
  }
}

/**
 * "Your account is deleted", once, on the page deletion lands on. Told through this tab's session
 * storage rather than the address, so nobody can show it to a stranger with a link.
 */
export function DeletedNotice() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let deleted = false;
    try {
      deleted = sessionStorage.getItem(KEY) === '1';
      sessionStorage.removeItem(KEY);
    } catch {
      return;
    }
    // Storage exists only in the browser, after the server's render: read once, after mounting.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (deleted) setShown(true);
  }, []);
  if (!shown) return null;
  return (
    <p role="status" className="rounded-lg border border-line-strong bg-surface-2 px-4 py-3">
      Your account is deleted, with its settings and every game you played. Thanks for playing.
    </p>
  );
}
