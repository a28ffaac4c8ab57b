import Link from 'next/link';
import { NavLink } from '@/components/site/NavLink';
import { NavMenu } from '@/components/site/NavMenu';
import { buttonClass } from '@/components/ui/button-class';

const NAV = [
  { href: '/play', label: 'Play' },
  { href: '/versus', label: 'Versus' },
  { href: '/leaderboards', label: 'Leaderboards' },
  { href: '/live', label: 'Live' },
  { href: '/replays', label: 'Replays' },
  { href: '/practice', label: 'Practice' },
  { href: '/settings', label: 'Settings' },
] as const;

/**
 * The site's header; the layout reads the session (components never import server code). Below
 * 1024 px the links fold into a menu (NavMenu: a <details>, so it opens with no script): seven
 * links, Account and a long name ran past the screen's edge at 839 px (a phone on its side), and
 * a phone browser then zooms the whole page out. While a game runs it gives way to the field
 * (`site-chrome`, hidden under <html data-playing>: components/site/usePlayView.ts).
 */
export function SiteHeader({ user }: { user: { name: string; moderator?: boolean } | null }) {
  // Tests find the wide header's copy by its test id; the menu's copy has none.
  const account = (testId?: string) =>
    user ? (
      <NavLink href="/profile" testId={testId}>
        {user.name}
      </NavLink>
    ) : (
      <>
        <NavLink href="/signin">Sign in</NavLink>
        <NavLink href="/signup">Sign up</NavLink>
      </>
    );
  // Signed-in only links (moderation for moderators), shown in the wide header and the menu.
  const extra = [
    ...(user?.moderator ? [{ href: '/moderation', label: 'Moderation' }] : []),
    ...(user ? [{ href: '/account', label: 'Account' }] : []),
  ];
  return (
    <header className="site-chrome border-b border-line bg-surface/80 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center gap-6 px-4 py-3">
        <Link href="/" className="text-lg font-bold tracking-tight">
          <span className="text-brand">Line</span>fall
        </Link>
        <ul className="hidden flex-1 items-center gap-1 lg:flex">
          {NAV.map((item) => (
            <li key={item.href}>
              <NavLink href={item.href}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
        <div className="hidden items-center gap-1 lg:flex">
          {extra.map((item) => (
            <NavLink key={item.href} href={item.href}>
              {item.label}
            </NavLink>
          ))}
          {account('nav-profile')}
        </div>
        <NavMenu>
          <summary className={buttonClass({ className: 'cursor-pointer list-none [&::-webkit-details-marker]:hidden' })}>
            Menu <span aria-hidden="true">☰</span>
          </summary>
          <ul className="absolute right-0 z-40 mt-2 flex w-52 flex-col gap-1 rounded-xl border border-line bg-surface p-2 shadow-lg">
            {[...NAV, ...extra].map((item) => (
              <li key={item.href} className="flex flex-col">
                <NavLink href={item.href}>{item.label}</NavLink>
              </li>
            ))}
            <li className="flex flex-col border-t border-line pt-1">{account()}</li>
          </ul>
        </NavMenu>
      </nav>
    </header>
  );
}
