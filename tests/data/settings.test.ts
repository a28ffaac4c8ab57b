import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { getSettings, saveSettings } from '@/lib/server/settings';
import { createUser } from '@/lib/server/users';
import { defaultSettings, presetBindings, settingsSchema } from '@/lib/validations/settings';
import { resetDb } from '@/tests/data/db';

beforeEach(resetDb);

async function player(name: string): Promise<string> {
  const result = await createUser({ username: name, password: 'password-1234' });
  if (!result.ok) throw new Error('could not create user');
  return result.user.id;
}

describe('settings in the account', () => {
  it('is null until the player saves, then round-trips exactly', async () => {
    const id = await player('settler');
    expect(await getSettings({ userId: id })).toBeNull();
    const settings = settingsSchema.parse({
      handling: { das: 7, arr: 0, sdf: 'instant', dasCut: true },
      bindings: presetBindings('wasd'),
      display: { ghost: false, nextCount: 3, grid: false, palette: 'colorblind', reducedMotion: true, rising: true, countdown: 'every' },
    });
    expect(await saveSettings({ userId: id, settings })).toBe(true);
    expect(await getSettings({ userId: id })).toEqual(settings);
  });

  it('keeps each player to their own row', async () => {
    const a = await player('alpha');
    const b = await player('bravo');
    const mine = { ...defaultSettings(), display: { ...defaultSettings().display, nextCount: 1 } };
    await saveSettings({ userId: a, settings: mine });
    expect(await getSettings({ userId: b })).toBeNull();
    expect((await getSettings({ userId: a }))?.display.nextCount).toBe(1);
  });

  it('fills fields missing from an older stored object with defaults', async () => {
    const id = await player('oldtimer');
    const db = await getDb();
    await db.user.update({ where: { id }, data: { settings: { version: 1, handling: { das: 12 } } } });
    const got = await getSettings({ userId: id });
    expect(got?.handling).toEqual({ das: 12, arr: 2, sdf: 20, dasCut: false });
    expect(got?.bindings).toEqual(defaultSettings().bindings);
  });

  it('reads settings saved before themes existed as the system theme, keeping the rest', async () => {
    const id = await player('pretheme');
    const db = await getDb();
    await db.user.update({ where: { id }, data: { settings: { version: 1, display: { palette: 'colorblind', reducedMotion: true } } } });
    expect((await getSettings({ userId: id }))?.display).toMatchObject({ theme: 'system', palette: 'colorblind', reducedMotion: true });
  });

  it('reports a user that does not exist', async () => {
    expect(await saveSettings({ userId: 'nobody', settings: defaultSettings() })).toBe(false);
  });
});
