import { describe, expect, it } from 'vitest';
import { describePostgres } from '../../../daemon/cluster/postgres-target.js';

describe('a PostgreSQL URL as logs show it', () => {
  it('keeps user, host, port and database, drops the password', () => {
    expect(describePostgres('postgres://wafctl:s3cret@db.internal:5432/wafctl')).toBe('wafctl@db.internal:5432/wafctl');
    expect(describePostgres('postgresql://10.0.0.5')).toBe('10.0.0.5');
    expect(describePostgres('not a url')).not.toContain('not a url');
  });
});
