// The session secret of the test servers (scripts/e2e-server.mjs), in one place, so tests can
// mint expired or chunked session cookies the servers would otherwise accept.
export const E2E_AUTH_SECRET = process.env.AUTH_SECRET ?? 'e2e-secret-e2e-secret-e2e-secret-e2e';
