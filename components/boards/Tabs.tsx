import Link from 'next/link';

export type Tab = { href: string; label: string; active: boolean };

/** A row of links, one current; on a narrow screen the row wraps inside its own box. */
export function Tabs({ tabs, label }: { tabs: Tab[]; label: string }) {
  return (
    <nav aria-label={label} className="inline-flex max-w-full flex-wrap rounded-lg border border-line p-1">
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.active ? 'page' : undefined}
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${
            t.active ? 'bg-primary text-on-primary' : 'text-muted hover:bg-surface-2 hover:text-fg'
          }`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
