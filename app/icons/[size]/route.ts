import { APP_ICON_SIZES, renderIcon } from '@/lib/pwa/icon';

// Rendered once at build for each size: the icon is the same for everyone.
export const dynamic = 'force-static';
export const dynamicParams = false;

export function generateStaticParams() {
  return APP_ICON_SIZES.flatMap((size) => [{ size: `${size}.png` }, { size: `${size}-maskable.png` }]);
}

/** The app icons the manifest lists. */
export async function GET(_request: Request, { params }: { params: Promise<{ size: string }> }) {
  const name = (await params).size;
  return renderIcon(Number.parseInt(name, 10), name.includes('maskable'));
}
