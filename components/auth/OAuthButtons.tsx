'use client';

import { signIn } from 'next-auth/react';

export function OAuthButtons({ providers, callbackUrl }: { providers: { id: string; name: string }[]; callbackUrl?: string }) {
  if (providers.length === 0) return null;
  return (
    <div className="space-y-2">
      {providers.map((p) => (
        <button
          key={p.id}
          type="button"
          onClick={() => signIn(p.id, { callbackUrl: callbackUrl ?? '/' })}
          className="w-full rounded-lg border border-line-strong px-4 py-2 font-medium hover:bg-surface-2"
        >
          Continue with {p.name}
        </button>
      ))}
      <p className="text-center text-xs uppercase tracking-wide text-muted">or</p>
    </div>
  );
}
