// The Node flags every Linefall server process (scripts/serve.mjs) starts with; every launcher
// uses them: scripts/start.mjs (`npm start`, `npm run dev`), scripts/cluster.mjs,
// scripts/e2e-server.mjs and tests/support/app-server.ts. A deployment that runs serve.mjs itself
// passes them too (README, "Several instances").
//
// --max-semi-space-size=64 (MB; Node 20's default is 16): a live server makes many short-lived
// objects per socket message (parsed batches, frames, JSON), and a young generation that small
// fills every few milliseconds under load, so objects still in flight are promoted and collected
// later by the old generation's slower, longer pauses. With versus bots at 500 matches
// (`npm run bench:versus`, docs/decisions/0017) the larger one cut the server's CPU by ~9 % and the
// p99 attack delivery to about a third. It costs up to ~150 MB more memory per process at peak.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];
