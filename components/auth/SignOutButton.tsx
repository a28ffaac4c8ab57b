'use client';

import { signOut } from 'next-auth/react';

export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={() => signOut({ callbackUrl: '/' })}
      className="rounded-lg border border-line-strong px-4 py-2 text-sm font-medium hover:bg-surface-2"
    >
      Sign out
    </button>
  );
}
