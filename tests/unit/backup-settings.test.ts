import { describe, expect, it } from 'vitest';
import { backupFileName, FILE_PATTERN } from '@/lib/db/backup/format.js';
import { parseEnv } from '@/lib/env.js';

const secret = { AUTH_SECRET: 'a-test-secret-a-test-secret-a-test-00' };

describe('scheduled backup settings', () => {
  it('are off by default and take a daily backup, keeping 7, once a directory is set', () => {
    expect(parseEnv(secret).BACKUP_DIR).toBeUndefined();
    expect(parseEnv({ ...secret, BACKUP_DIR: 'backups' })).toMatchObject({ BACKUP_DIR: 'backups', BACKUP_EVERY: 86_400_000, BACKUP_KEEP: 7 });
    expect(parseEnv({ ...secret, BACKUP_DIR: 'b', BACKUP_EVERY: '30m', BACKUP_KEEP: '3' })).toMatchObject({ BACKUP_EVERY: 1_800_000, BACKUP_KEEP: 3 });
    expect(parseEnv({ ...secret, BACKUP_DIR: 'b', BACKUP_EVERY: '6h' }).BACKUP_EVERY).toBe(21_600_000);
  });

  it('name the variable that is wrong', () => {
    expect(() => parseEnv({ ...secret, BACKUP_EVERY: '6h' })).toThrow(/BACKUP_EVERY: set BACKUP_DIR too/);
    expect(() => parseEnv({ ...secret, BACKUP_KEEP: '3' })).toThrow(/BACKUP_KEEP: set BACKUP_DIR too/);
    expect(() => parseEnv({ ...secret, BACKUP_DIR: 'b', BACKUP_EVERY: 'daily' })).toThrow(/BACKUP_EVERY: .*30m, 6h or 1d/);
    expect(() => parseEnv({ ...secret, BACKUP_DIR: 'b', BACKUP_EVERY: '30s' })).toThrow(/BACKUP_EVERY/);
    expect(() => parseEnv({ ...secret, BACKUP_DIR: 'b', BACKUP_EVERY: '8d' })).toThrow(/BACKUP_EVERY must be between 1m and 7d/);
    expect(() => parseEnv({ ...secret, BACKUP_DIR: 'b', BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP: BACKUP_KEEP must be a whole number/);
  });

  it('name files that sort by time and that pruning recognises', () => {
    const name = backupFileName(new Date('2026-11-22T13:45:07.123Z'));
    expect(name).toBe('linefall-20261122T134507Z.ndjson.gz');
    expect(FILE_PATTERN.test(name)).toBe(true);
    expect(FILE_PATTERN.test('notes.txt')).toBe(false);
    expect(backupFileName(new Date('2026-11-22T09:00:00Z')) < name).toBe(true);
  });
});
