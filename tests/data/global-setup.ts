import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { adminPostgresUrl, withDatabase } from '@/tests/support/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * data-pglite: every file opens its own in-memory PGlite (migrated on open).
 * data-postgres: one fresh database per run on the real server, migrated here, dropped after.
 */
export default async function setup(project: TestProject) {
  if (project.name !== 'data-postgres') {
    project.provide('databaseUrl', 'pglite:memory');
    return;
  }
  const admin = adminPostgresUrl();
  const name = `linefall_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
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
