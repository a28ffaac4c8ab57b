import Link from 'next/link';
import { NavLink } from '@/components/site/NavLink';

const NAV = [
  { href: '/play', label: 'Play' },
  { href: '/leaderboards', label: 'Leaderboards' },
  { href: '/replays', label: 'Replays' },
  { href: '/settings', label: 'Settings' },
] as const;

/** The site's header; the layout reads the session (components never import server code). */
export function SiteHeader({ user }: { user: { name: string } | null }) {
  return (
    <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-900/80">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3">
        <Link href="/" className="text-lg font-bold tracking-tight">
          <span className="text-cyan-500">Line</span>fall
        </Link>
        <ul className="flex flex-1 items-center gap-1">
          {NAV.map((item) => (
            <li key={item.href}>
              <NavLink href={item.href}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
        {user ? (
          <NavLink href="/profile" testId="nav-profile">
            {user.name}
          </NavLink>
        ) : (
          <NavLink href="/signin">Sign in</NavLink>
        )}
      </nav>
    </header>
  );
}
