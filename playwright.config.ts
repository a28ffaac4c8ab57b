import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';

// Everything runs against the production build (`next build` + `next start`) on throwaway
// databases, in Debian's Chromium (never a downloaded browser). Two servers: one on embedded
// PGlite (browser journeys + API), one on PostgreSQL (the same API tests). E2E_POSTGRES=0
// leaves the PostgreSQL one out (npm test does that, loudly, only outside CI with no server).
// E2E_PORT moves both (to E2E_PORT and E2E_PORT + 1) so two checkouts can run their suites at once.
const PGLITE_PORT = Number(process.env.E2E_PORT ?? 3100);
const POSTGRES_PORT = PGLITE_PORT + 1;
const withPostgres = process.env.E2E_POSTGRES !== '0';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const url = (port: number) => `http://127.0.0.1:${port}`;

const server = (port: number, db: 'pglite' | 'postgres') => ({
  command: 'node scripts/e2e-server.mjs',
  url: `${url(port)}/api/health`,
  timeout: 120_000,
  reuseExistingServer: false,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
  env: { PORT: String(port), E2E_DB: db },
  // SIGTERM (not Playwright's default SIGKILL) lets the server drop its throwaway database.
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
});

// Within a project, one test at a time: the browser journeys play in real time and share their
// server's rate limits, as the API tests share theirs. Different projects use different servers
// (or start their own), so `--workers=2` may run two projects side by side: npm test does that
// for the API and resilience projects, never for the browser's (scripts/test.mjs).
// npm test runs the browser journeys in two parts on two servers (scripts/test.mjs): E2E_PART=2 is
// these files (about a third of the suite's time, long real-time games), E2E_PART=1 every other one,
// so a new spec lands in the first part without being listed. Unset: all of them.
const SECOND_PART = ['every-mode', 'play', 'replay-viewer'].map((name) => `**/tests/e2e/${name}.spec.ts`);
const part = process.env.E2E_PART === '2' ? { testMatch: SECOND_PART } : process.env.E2E_PART === '1' ? { testIgnore: SECOND_PART } : {};
const projects: PlaywrightTestConfig['projects'] = [
  { name: 'browser', testDir: 'tests/e2e', workers: 1, use: { baseURL: url(PGLITE_PORT) }, ...part },
  { name: 'api-pglite', testDir: 'tests/api', workers: 1, use: { baseURL: url(PGLITE_PORT) } },
];
if (withPostgres) projects.push({ name: 'api-postgres', testDir: 'tests/api', workers: 1, use: { baseURL: url(POSTGRES_PORT) } });
// Servers the tests start, stop and take the database away from themselves (tests/support/app-server.ts).
projects.push({ name: 'resilience', testDir: 'tests/resilience', workers: 1 });

export default defineConfig({
  // A run empties its output folder as it starts: runs side by side (npm test's lanes, on their own
  // ports) each write to their own, or a later one deletes an earlier one's files as it writes them.
  outputDir: `test-results/port-${PGLITE_PORT}`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    // No trace: recording one for every test (to keep the failures') cost 1.6x the suite's CPU, its
    // screencast most of it (docs/capacity.md). A failure still leaves a screenshot and the page's
    // accessibility tree (error-context.md); `npx playwright test --trace=on <spec>` records one.
    trace: 'off',
    screenshot: 'only-on-failure',
    // The site's service worker would answer requests that tests route or take offline;
    // tests/e2e/phone.spec.ts allows it where it is what is tested.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects,
  webServer: [server(PGLITE_PORT, 'pglite'), ...(withPostgres ? [server(POSTGRES_PORT, 'postgres')] : [])],
});
