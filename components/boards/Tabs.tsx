import Link from 'next/link';

export type Tab = { href: string; label: string; active: boolean };

export function Tabs({ tabs, label }: { tabs: Tab[]; label: string }) {
  return (
    <nav aria-label={label} className="inline-flex rounded-lg border border-slate-200 p-1 dark:border-slate-800">
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.active ? 'page' : undefined}
          className={`rounded-md px-3 py-1.5 text-sm font-medium ${
            t.active ? 'bg-cyan-500 text-slate-950' : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
          }`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
