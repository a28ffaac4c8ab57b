import type { ComponentProps } from 'react';

type Size = 'page' | 'compact';

// Game and spectator screens keep their title small: the field below it needs the height.
const SIZES: Record<Size, string> = { page: 'text-3xl font-bold', compact: 'text-2xl font-bold' };

/**
 * A page's one `<h1>`. `wrap-anywhere`: a long player name in a title breaks rather than pushing
 * the page wider than a phone's screen.
 */
export function PageHeading({ size = 'page', ...props }: Omit<ComponentProps<'h1'>, 'className'> & { size?: Size }) {
  return <h1 className={`${SIZES[size]} wrap-anywhere`} {...props} />;
}
