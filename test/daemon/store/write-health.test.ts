// The write state `daemon status` shows: failing from the first failed write (the errno and what
// it means, found through wrapping errors' causes) until the next write succeeds. The clock is the test's.
import { describe, expect, it } from 'vitest';
import { WriteHealth } from '../../../daemon/store/write-health.js';

const errno = (code: string) => Object.assign(new Error(`${code}: something, write`), { code });

describe('WriteHealth', () => {
  it('is null while writes succeed, failing from the first failure, counted, null again after a success', () => {
    let now = Date.UTC(2026, 10, 27, 12);
    const health = new WriteHealth('/data/events', () => now);
    expect(health.state()).toBeNull();
    health.failed(new Error('event store write failed: ENOSPC', { cause: errno('ENOSPC') }));
    now += 5_000;
    health.failed(errno('EDQUOT'));
    expect(health.state()).toEqual({ failing_since: '2026-11-27T12:00:00.000Z', error: 'EDQUOT (disk quota exceeded)', path: '/data/events', failed_writes: 2 });
    health.succeeded();
    expect(health.state()).toBeNull();
  });

  it('names EACCES, EROFS and EISDIR; an unknown errno by its code; an error without one by its message', () => {
    const health = new WriteHealth('/d');
    const error = (err: unknown) => {
      health.succeeded();
      health.failed(err);
      return health.state()!.error;
    };
    expect(error(errno('EACCES'))).toBe('EACCES (permission denied)');
    expect(error(errno('EROFS'))).toBe('EROFS (read-only file system)');
    expect(error(errno('EISDIR'))).toBe('EISDIR (a directory is in the way)');
    expect(error(errno('EMFILE'))).toBe('EMFILE');
    expect(error(new Error('closed\nstack'))).toBe('closed');
  });
});
