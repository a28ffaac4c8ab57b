import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ImageResponse } from 'next/og';

/**
 * App icons for home screens (PNG, which every platform accepts), rendered at build from the one
 * drawing, app/icon.svg (also the browser tab's icon).
 */
export const THEME_COLOR = '#0b1120';
export const APP_ICON_SIZES = [192, 512] as const;

let svg: string | null = null;
const drawing = () => (svg ??= `data:image/svg+xml;base64,${readFileSync(path.join(process.cwd(), 'app/icon.svg')).toString('base64')}`);

/**
 * `maskable`: the drawing in the middle 80 % on a full-bleed background, since home screens crop
 * maskable icons to their own shape.
 */
export function renderIcon(size: number, maskable: boolean): ImageResponse {
  const inner = maskable ? Math.round(size * 0.8) : size;
  return new ImageResponse(
    (
      <div style={{ display: 'flex', width: size, height: size, alignItems: 'center', justifyContent: 'center', background: maskable ? THEME_COLOR : 'transparent' }}>
        {/* eslint-disable-next-line @next/next/no-img-element -- rendered to PNG by ImageResponse, never in a page */}
        <img src={drawing()} width={inner} height={inner} alt="" />
      </div>
    ),
    { width: size, height: size },
  );
}
