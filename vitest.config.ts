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
    // Files run one at a time in one process that keeps its modules (isolate: false): one database
    // per run (PostgreSQL: a throwaway one; PGlite: in memory), emptied before each test
    // (tests/data/db.ts). Importing the app and opening PGlite afresh for each file was three
    // quarters of this suite's time (docs/capacity.md).
    fileParallelism: false,
    isolate: false,
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
          // Files keep each other's imported modules: a fresh module graph per file was most of
          // this project's time (81 s -> 34 s here), and no test leaves global state behind
          // (stubbed globals are undone after each test).
          isolate: false,
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
