import type { InputHTMLAttributes } from 'react';
import { Button } from '@/components/ui/Button';

type Props = InputHTMLAttributes<HTMLInputElement> & { label: string; name: string; error?: string; hint?: string };

export function Field({ label, name, error, hint, ...input }: Props) {
  const describedBy = error ? `${name}-error` : hint ? `${name}-hint` : undefined;
  return (
    <label className="block space-y-1">
      <span className="text-sm font-medium">{label}</span>
      <input
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="w-full rounded-lg border border-line-strong bg-surface px-3 py-2 aria-invalid:border-danger"
        {...input}
      />
      {error ? (
        <span id={`${name}-error`} role="alert" className="block text-sm text-danger">
          {error}
        </span>
      ) : hint ? (
        <span id={`${name}-hint`} className="block text-xs text-muted">
          {hint}
        </span>
      ) : null}
    </label>
  );
}

export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" data-testid="form-error" className="rounded-lg bg-danger-bg px-3 py-2 text-sm text-on-danger-bg">
      {message}
    </p>
  );
}

export function SubmitButton({ pending, children }: { pending: boolean; children: string }) {
  return (
    <Button type="submit" variant="primary" size="md" block disabled={pending}>
      {pending ? 'Please wait…' : children}
    </Button>
  );
}
