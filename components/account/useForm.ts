'use client';

import { useState, type FormEvent } from 'react';
import type { ZodType } from 'zod';
import { sendJson } from '@/lib/client/send';

export type FormState = { pending: boolean; errors: Record<string, string>; done: string | null };

/**
 * One account form: reads its fields, checks them with the route's own zod schema, sends them,
 * and keeps the field errors (the server's `field`, or the form's) and a success message.
 */
export function useJsonForm<T>(options: {
  schema: ZodType;
  path: string;
  method?: 'POST' | 'DELETE';
  fields: string[];
  onDone: (value: T, form: HTMLFormElement) => string | null | Promise<string | null>;
}) {
  const [state, setState] = useState<FormState>({ pending: false, errors: {}, done: null });
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const raw = Object.fromEntries(options.fields.map((f) => [f, String(data.get(f) ?? '')]));
    const parsed = options.schema.safeParse(raw);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
      setState({ pending: false, errors, done: null });
      return;
    }
    setState({ pending: true, errors: {}, done: null });
    const result = await sendJson<T>(options.path, options.method ?? 'POST', parsed.data);
    if (!result.ok) {
      const field = result.problem.field && options.fields.includes(result.problem.field) ? result.problem.field : 'form';
      setState({ pending: false, errors: { [field]: result.problem.message }, done: null });
      return;
    }
    const done = await options.onDone(result.value, form);
    setState({ pending: false, errors: {}, done });
  }
  return { state, onSubmit };
}
