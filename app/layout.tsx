import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/site/SiteHeader';
import { htmlAttributes } from '@/lib/page-prefs';
import { pagePrefsForRequest } from '@/lib/server/page-prefs';
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
  // Theme and motion are written into the HTML, so the first paint needs no script.
  const prefs = await pagePrefsForRequest();
  const user = await getSessionUser();
  return (
    <html lang="en" {...htmlAttributes(prefs)}>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only rounded-md bg-inverse px-4 py-2 font-semibold text-on-inverse focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
        >
          Skip to main content
        </a>
        <SiteHeader user={user ? { name: user.name } : null} />
        {/* Focusable by the skip link only, so screen readers and the keyboard both land here. */}
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none">
          {children}
        </main>
        <footer className="border-t border-line py-6 text-center text-sm text-muted">
          Linefall — every score on a board is re-simulated from its replay.
        </footer>
      </body>
    </html>
  );
}
