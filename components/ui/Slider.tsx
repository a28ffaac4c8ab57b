type Props = {
  label: string;
  min: number;
  max: number;
  step?: number;
  value: number;
  /** The value as the player reads it ("120 ms", "40%"), shown beside the label and spoken. */
  shown: string;
  disabled?: boolean;
  onChange: (value: number) => void;
  /** Layout only: its width in a row of controls. */
  className?: string;
};

export function Slider({ label, min, max, step = 1, value, shown, disabled, onChange, className }: Props) {
  return (
    <label className={['block space-y-1 text-sm', className].filter(Boolean).join(' ')}>
      <span className="flex justify-between gap-4">
        <span>{label}</span>
        <span className="font-mono tabular-nums">{shown}</span>
      </span>
      <input type="range" className="w-full accent-link" min={min} max={max} step={step} value={value} disabled={disabled} aria-valuetext={shown} onChange={(e) => onChange(Number(e.target.value))} />
    </label>
  );
}
