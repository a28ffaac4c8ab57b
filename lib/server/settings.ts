import 'server-only';
import { parseStoredSettings, type Settings } from '@/lib/validations/settings';
import { getDb } from '@/lib/server/db';

/**
 * A player's saved settings, or null when they never saved any (the browser then uploads its
 * local ones). Stored JSON from an older version is brought up to the current schema.
 */
export async function getSettings(options: { userId: string }): Promise<Settings | null> {
  const db = await getDb();
  const row = await db.user.findUnique({ where: { id: options.userId }, select: { settings: true } });
  if (!row || row.settings === null) return null;
  return parseStoredSettings(row.settings);
}

/** Input must already have passed settingsSchema. Returns false when the user no longer exists. */
export async function saveSettings(options: { userId: string; settings: Settings }): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.user.updateMany({ where: { id: options.userId }, data: { settings: options.settings } });
  return count === 1;
}
