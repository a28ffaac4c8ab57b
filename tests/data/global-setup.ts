import type { TestProject } from 'vitest/node';
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { adminPostgresUrl, throwawayName, withDatabase } from '@/tests/support/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * data-pglite: one in-memory PGlite for the run, opened (and migrated) by the first file that asks.
 * data-postgres: one fresh database per run on the real server, migrated here, dropped after.
 */
export default async function setup(project: TestProject) {
  if (project.name !== 'data-postgres') {
    project.provide('databaseUrl', 'pglite:memory');
    return;
  }
  const admin = adminPostgresUrl();
  const name = throwawayName('linefall_test');
  const adminSql = await openSql({ kind: 'postgres', url: admin });
  await adminSql.exec(`CREATE DATABASE "${name}"`);
  const url = withDatabase(admin, name);
  const sql = await openSql({ kind: 'postgres', url });
  await applyMigrations(sql);
  await sql.close();
  project.provide('databaseUrl', url);
  console.log(`[data-postgres] using fresh database ${name}`);
  return async () => {
    await adminSql.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await adminSql.close();
  };
}
