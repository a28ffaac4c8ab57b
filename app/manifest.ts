import type { MetadataRoute } from 'next';
import { APP_ICON_SIZES, THEME_COLOR } from '@/lib/pwa/icon';
import { MODE_INFO, PLAY_ORDER } from '@/lib/ui/modes';

/** Home-screen shortcuts a launcher shows (Chrome shows four): practice, then the first modes in the pages' order. */
const MODE_SHORTCUTS = 3;

/** The web app manifest: what a phone needs to put Linefall on its home screen. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    id: '/',
    name: 'Linefall',
    short_name: 'Linefall',
    description: `The falling-block puzzle game: ${PLAY_ORDER.map((m) => MODE_INFO[m].label).join(', ')} and a practice sandbox that works offline.`,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: THEME_COLOR,
    theme_color: THEME_COLOR,
    categories: ['games'],
    icons: [
      { src: '/icon.svg', type: 'image/svg+xml', sizes: 'any', purpose: 'any' },
      ...APP_ICON_SIZES.flatMap((s) => [
        { src: `/icons/${s}.png`, type: 'image/png', sizes: `${s}x${s}`, purpose: 'any' as const },
        { src: `/icons/${s}-maskable.png`, type: 'image/png', sizes: `${s}x${s}`, purpose: 'maskable' as const },
      ]),
    ],
    shortcuts: [
      { name: 'Practice (works offline)', url: '/practice' },
      ...PLAY_ORDER.slice(0, MODE_SHORTCUTS).map((m) => ({ name: MODE_INFO[m].title, url: `/play/${m}` })),
    ],
  };
}
