// The largest request body the site reads, enforced in front of Next (scripts/serve.mjs) and by
// Next itself (next.config.js). Plain JS: both load it without a TypeScript step. Each route has
// its own, smaller cap (lib/server/http.ts readJson/readCapped); this one exists because Next
// reads a whole body before any route handler runs (it hands a copy to proxy.ts), so a route's
// cap alone cannot stop a client from making the server wait for, or hold, a huge body.

/** Above the largest route cap (a replay submission, SUBMISSION_BODY_LIMIT ≈ 172 KiB). */
export const MAX_REQUEST_BODY_BYTES = 192 * 1024;
