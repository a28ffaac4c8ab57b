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
          className="w-full rounded-lg border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          Continue with {p.name}
        </button>
      ))}
      <p className="text-center text-xs uppercase tracking-wide text-slate-500">or</p>
    </div>
  );
}
