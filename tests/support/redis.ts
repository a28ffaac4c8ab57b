import net from 'node:net';

/** The Redis the data tests use (`TEST_REDIS_URL`, else the local one). */
export const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/** Whether it answers: the tests that need it are skipped without it (npm test says so; CI always has one). */
export const redisUp = await new Promise<boolean>((resolve) => {
  const s = net.connect({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379) }, () => (s.destroy(), resolve(true)));
  s.on('error', () => resolve(false));
});
