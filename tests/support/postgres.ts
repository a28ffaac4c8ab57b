import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Where tests find a PostgreSQL server they may create databases on. */
export function adminPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** One query on its own connection: for checking what a server under test really stored. */
export async function queryPostgres<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The same for an embedded database directory (only while no server holds it open). */
export async function queryPglite<T>(dataDir: string, sql: string): Promise<T[]> {
  const db = new PGlite(dataDir);
  try {
    return (await db.query<T>(sql)).rows;
  } finally {
    await db.close();
  }
}

/** A name no other run on the same server takes, even one started in the same millisecond. */
export function throwawayName(prefix: string): string {
  return `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
}

/** A new, empty PostgreSQL database for one run, and how to drop it (WITH FORCE: servers may still hold connections). */
export async function throwawayDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = adminPostgresUrl();
  const name = throwawayName(prefix);
  await queryPostgres(admin, `CREATE DATABASE "${name}"`);
  return { url: withDatabase(admin, name), drop: async () => void (await queryPostgres(admin, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)) };
}
