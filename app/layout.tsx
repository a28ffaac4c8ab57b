import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/site/SiteHeader';
import { htmlAttributes } from '@/lib/page-prefs';
import { pagePrefsForRequest } from '@/lib/server/page-prefs';
import { getSessionUser } from '@/lib/server/auth';
import { canModerate } from '@/lib/server/moderation/roles';
import { appEnv } from '@/lib/env.js';
import { THEME_COLOR } from '@/lib/pwa/icon';
import '@/app/globals.css';

export const metadata: Metadata = {
  title: { default: 'Linefall', template: '%s · Linefall' },
  description: 'Modern falling-block puzzle game in your browser, where every leaderboard score is proven by replay.',
  appleWebApp: { capable: true, title: 'Linefall', statusBarStyle: 'black-translucent' },
};

export const viewport: Viewport = { themeColor: THEME_COLOR, width: 'device-width', initialScale: 1, viewportFit: 'cover' };

// The service worker (app/sw.js) makes the site installable and practice work offline. Registered
// by a few bytes of inline script with the page's nonce, not a bundle: every page's first load
// stays as it was. Not in development, where a cached build would hide changes.
const REGISTER_SW = "if('serviceWorker'in navigator)addEventListener('load',function(){navigator.serviceWorker.register('/sw.js').catch(function(){})})";

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: each carries its own CSP nonce (proxy.ts), which a page
  // prerendered at build time could not.
  await connection();
  // Theme and motion are written into the HTML, so the first paint needs no script.
  const prefs = await pagePrefsForRequest();
  const user = await getSessionUser();
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" {...htmlAttributes(prefs)}>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only rounded-md bg-inverse px-4 py-2 font-semibold text-on-inverse focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
        >
          Skip to main content
        </a>
        <SiteHeader user={user ? { name: user.name, moderator: canModerate(user.role) } : null} />
        {/* Focusable by the skip link only, so screen readers and the keyboard both land here. */}
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 focus:outline-none">
          {children}
        </main>
        <footer className="site-chrome border-t border-line py-6 text-center text-sm text-muted">
          Linefall — every score on a board is re-simulated from its replay. <Link className="link" href="/fair-play">Fair play</Link>
        </footer>
        {appEnv().NODE_ENV === 'production' && nonce && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: REGISTER_SW }} />}
      </body>
    </html>
  );
}
