import { afterAll, inject } from 'vitest';

// Runs before each test file imports the app's modules, which read DATABASE_URL once.
process.env.DATABASE_URL = inject('databaseUrl');

// A cleanup started in the background by this file's last ticket must not run on into the next
// file's tests (they share the database). Imported here, after DATABASE_URL is set.
afterAll(async () => {
  const { backgroundCleanup } = await import('@/lib/server/games/cleanup');
  await backgroundCleanup();
});
