import type { BotSpec, BotStyle } from '@/lib/bot/spec';

export const BOT_STYLE_TEXT: Readonly<Record<BotStyle, { label: string; blurb: string }>> = {
  tidy: { label: 'Tidy', blurb: 'keeps a flat, clean stack' },
  attacker: { label: 'Attacker', blurb: 'keeps a well open for multi-line clears' },
};

/** A bot seat's name wherever a player's would be: "Bot · 3/s tidy". */
export function botName(spec: BotSpec): string {
  return `Bot · ${spec.pps}/s ${BOT_STYLE_TEXT[spec.style].label.toLowerCase()}`;
}
