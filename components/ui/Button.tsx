import type { ComponentProps } from 'react';
import { buttonClass, type ButtonLook } from '@/components/ui/button-class';

type Props = Omit<ComponentProps<'button'>, 'className'> & ButtonLook;

/** A `<button>` in the site's look; `type` is "button" unless said otherwise, so no form is sent by accident. */
export function Button({ variant, size, block, className, type = 'button', ...props }: Props) {
  return <button type={type} className={buttonClass({ variant, size, block, className })} {...props} />;
}
