import { expect, type Page } from '@playwright/test';

/** Makes a private room of one game from the versus lobby; the page's address becomes its share link, which is returned. */
export async function createRoom(page: Page): Promise<string> {
  await page.goto('/versus');
  const room = page.getByRole('region', { name: 'Private room' });
  await room.getByRole('combobox', { name: 'First to' }).selectOption('1');
  await room.getByRole('button', { name: 'Create room' }).click();
  await expect(page).toHaveURL(/\/versus\/room\/[A-Z2-9]{6}$/);
  return page.getByLabel('Share link').inputValue();
}
