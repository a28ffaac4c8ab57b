/**
 * The look of every button, in one place: `Button` uses it, and so does a `<Link>` or `<a>` that
 * must look like one (a link stays a link, so a button is never wrapped around it).
 */
export type ButtonVariant = 'primary' | 'secondary' | 'quiet' | 'danger' | 'field';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

export type ButtonLook = {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** As wide as its container (the forms' submit buttons). */
  block?: boolean;
  /** Layout (widths, margins), never a padding or colour the variant or size sets: two would fight. */
  className?: string;
};

// Every variant has a border, transparent where none shows, so buttons side by side are one height.
const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'border border-transparent bg-primary font-semibold text-on-primary hover:bg-primary-hover',
  secondary: 'border border-line-strong font-medium hover:bg-surface-2',
  // Toolbars beside a heading (Practice, Settings, Modes): a control without an outline.
  quiet: 'border border-transparent font-medium hover:bg-surface-2',
  danger: 'border border-danger font-semibold text-danger hover:bg-danger-bg',
  // On the game field and its overlays, dark in both themes.
  field: 'border border-field-line font-semibold text-field-fg hover:bg-field',
};

const SIZES: Record<ButtonSize, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
  // The landing page's calls to action.
  lg: 'px-5 py-2.5',
  // A single glyph (the replay transport): square-ish and centred on its line.
  icon: 'min-w-8 px-2 py-1.5 text-base leading-none',
};

// The focus ring is app/globals.css's `:focus-visible` rule, the same for every control.
const BASE = 'inline-block rounded-lg text-center disabled:opacity-60';

export function buttonClass({ variant = 'secondary', size = 'sm', block = false, className }: ButtonLook = {}): string {
  return [BASE, VARIANTS[variant], SIZES[size], block && 'w-full', className].filter(Boolean).join(' ');
}
