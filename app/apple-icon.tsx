import { renderIcon } from '@/lib/pwa/icon';

export const size = { width: 180, height: 180 };
export const contentType = 'image/png';

/** The home-screen icon iOS asks for (it ignores the manifest's); iOS rounds the corners itself. */
export default function AppleIcon() {
  return renderIcon(180, true);
}
