import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '@/lib/request-limits.js';
import { SUBMISSION_BODY_LIMIT } from '@/lib/validations/games';

describe('the server-wide body limit', () => {
  it('lets through the largest body a route accepts (a replay submission at its cap)', () => {
    expect(SUBMISSION_BODY_LIMIT).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES);
  });
});
