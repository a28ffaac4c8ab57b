// The Prisma CLI is used here only to generate the client and to diff the schema into
// migration SQL. Migrations are applied by scripts/migrate.mjs (same SQL on PGlite and
// PostgreSQL). An in-memory PGlite gives the JS schema engine a database with no server
// and no binary download (Prisma's native engines cannot be fetched on our machines).
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  adapter: async () => new PrismaPGlite(new PGlite()),
});
