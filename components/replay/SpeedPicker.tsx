import { SPEEDS, type Speed } from '@/lib/client/replay-keys';

export function SpeedPicker({ speed, onChange }: { speed: Speed; onChange: (speed: Speed) => void }) {
  return (
    <label className="flex items-center gap-1 text-sm">
      Speed
      <select value={speed} onChange={(e) => onChange(Number(e.target.value) as Speed)} className="rounded border border-line-strong bg-transparent px-1 py-0.5">
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
    </label>
  );
}
