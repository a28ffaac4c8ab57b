import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('./', import.meta.url));

const dataProject = (name: 'data-pglite' | 'data-postgres') => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/data/**/*.test.ts'],
    environment: 'node' as const,
    globalSetup: ['tests/data/global-setup.ts'],
    setupFiles: ['tests/data/setup.ts'],
    // Files share one PostgreSQL database per run and truncate it between tests, so they
    // run one at a time; PGlite gets a fresh in-memory database per file.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: root },
      // `server-only` throws outside React server bundles; tests run server modules directly.
      { find: /^server-only$/, replacement: `${root}tests/support/server-only.ts` },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/engine/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          // 100,000 mutated replays through decode + verify (tests/fuzz); its own step in npm test.
          name: 'fuzz',
          include: ['tests/fuzz/**/*.fuzz.test.ts'],
          environment: 'node',
          testTimeout: 600_000,
        },
      },
      dataProject('data-pglite'),
      dataProject('data-postgres'),
    ],
  },
});
