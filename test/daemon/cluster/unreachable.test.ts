import { describe, expect, it } from 'vitest';
import { isUnreachable } from '../../../daemon/cluster/unreachable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('which PostgreSQL failures mean "unreachable" (503) rather than a bug (500)', () => {
  it('refused, reset, timed-out and terminated connections, and a server going away', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('the database system is starting up', '57P03'),
      withCode('sorry, too many clients already', '53300'),
      withCode('connection failure', '08006'),
    ]) expect(isUnreachable(error), error.message).toBe(true);
  });

  it('not errors of the statement, the data or the credentials', () => {
    for (const error of [
      withCode('relation "wafctl_config" does not exist', '42P01'),
      withCode('password authentication failed for user "wafctl"', '28P01'),
      new Error('refusing to store an invalid config: sites: ...'),
      'a string',
    ]) expect(isUnreachable(error)).toBe(false);
  });
});
