import type { ComponentPropsWithoutRef, ElementType } from 'react';

type CardTag = 'div' | 'section' | 'li' | 'form';
type Padding = 'sm' | 'md' | 'lg';

const PADDING: Record<Padding, string> = { sm: 'p-3', md: 'p-4', lg: 'p-5' };

type Props<T extends CardTag> = { as?: T; padding?: Padding } & ComponentPropsWithoutRef<T>;

/** A bordered box on the surface colour; `className` adds layout (spacing between children, widths). */
export function Card<T extends CardTag = 'div'>({ as, padding = 'md', className, ...props }: Props<T>) {
  // The props were checked against `as` by the signature; the tag itself is only known at run time.
  const Tag = (as ?? 'div') as ElementType;
  return <Tag className={['rounded-xl border border-line bg-surface', PADDING[padding], className].filter(Boolean).join(' ')} {...props} />;
}
