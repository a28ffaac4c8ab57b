import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/site/SiteHeader';
import { getSessionUser } from '@/lib/server/auth';
import '@/app/globals.css';

export const metadata: Metadata = {
  title: { default: 'Linefall', template: '%s · Linefall' },
  description: 'Modern falling-block puzzle game in your browser, where every leaderboard score is proven by replay.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: each carries its own CSP nonce (proxy.ts), which a page
  // prerendered at build time could not.
  await connection();
  const user = await getSessionUser();
  return (
    <html lang="en">
      <body className="flex min-h-dvh flex-col">
        <SiteHeader user={user ? { name: user.name } : null} />
        <main className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">{children}</main>
        <footer className="border-t border-slate-200 py-6 text-center text-sm text-slate-500 dark:border-slate-800">
          Linefall — every score on a board is re-simulated from its replay.
        </footer>
      </body>
    </html>
  );
}
