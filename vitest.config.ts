import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('./', import.meta.url));

/**
 * Files that touch no database (live hosts on a real Redis, storing through the test's own store;
 * each was run once with DATABASE_URL pointing nowhere): they run once, in one project each, so
 * the two side by side in npm test take about as long. The rest run in both.
 */
const DATABASE_FREE = {
  // Balanced by their time in CI (PostgreSQL's files are slower: 364 s against 232 s with only
  // room-takeup here; about 300 s each with these).
  'data-pglite': [
    'tests/data/room-takeup.test.ts', 'tests/data/watch-takeup.test.ts', 'tests/data/live-lease.test.ts', 'tests/data/sparring-site.test.ts',
    'tests/data/versus-relay.test.ts', 'tests/data/redis-stall.test.ts',
  ],
  'data-postgres': ['tests/data/match-lease.test.ts', 'tests/data/match-checkpoints.test.ts'],
};

const dataProject = (name: 'data-pglite' | 'data-postgres') => ({
  extends: true as const,
  test: {
    name,
    include: ['tests/data/**/*.test.ts'],
    exclude: DATABASE_FREE[name === 'data-pglite' ? 'data-postgres' : 'data-pglite'],
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
