/** WCAG 2.1 contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1]!, 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The colour tokens of app/globals.css's @theme block, each as its light and its dark value. */
export function themeTokens(css: string): Map<string, { light: string; dark: string }> {
  const block = /@theme\s*\{([\s\S]*?)\n\}/.exec(css)?.[1];
  if (!block) throw new Error('no @theme block');
  const tokens = new Map<string, { light: string; dark: string }>();
  for (const [, name, value] of block.matchAll(/--color-([\w-]+):\s*([^;]+);/g)) {
    const pair = /^light-dark\(\s*(#[0-9a-f]{6})\s*,\s*(#[0-9a-f]{6})\s*\)$/i.exec(value!.trim());
    if (pair) tokens.set(name!, { light: pair[1]!, dark: pair[2]! });
    else if (/^#[0-9a-f]{6}$/i.test(value!.trim())) tokens.set(name!, { light: value!.trim(), dark: value!.trim() });
    else throw new Error(`--color-${name}: write colours as #rrggbb or light-dark(#rrggbb, #rrggbb), got ${value}`);
  }
  return tokens;
}
