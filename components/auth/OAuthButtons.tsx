'use client';

import { signIn } from 'next-auth/react';
import { Button } from '@/components/ui/Button';

export function OAuthButtons({ providers, callbackUrl }: { providers: { id: string; name: string }[]; callbackUrl?: string }) {
  if (providers.length === 0) return null;
  return (
    <div className="space-y-2">
      {providers.map((p) => (
        <Button key={p.id} size="md" block onClick={() => signIn(p.id, { callbackUrl: callbackUrl ?? '/' })}>
          Continue with {p.name}
        </Button>
      ))}
      <p className="text-center text-xs uppercase tracking-wide text-muted">or</p>
    </div>
  );
}
