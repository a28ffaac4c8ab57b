import { KEY_LABELS, REPLAY_SHORTCUTS } from '@/lib/client/replay-keys';

export function Shortcuts() {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer text-muted">Keyboard shortcuts</summary>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {REPLAY_SHORTCUTS.map((s) => (
          <div key={s.action} className="contents">
            <dt>
              {s.keys.map((k) => (
                <kbd key={k} className="mr-1 rounded border border-line-strong px-1 font-mono text-xs">
                  {KEY_LABELS[k] ?? k.toUpperCase()}
                </kbd>
              ))}
            </dt>
            <dd className="text-muted">{s.label}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
