import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDaemonLogger } from '../../../daemon/lifecycle/daemon-log.js';

describe('createDaemonLogger', () => {
  // /dev/full answers every write with ENOSPC: the disk-full case without a full disk.
  it.runIf(existsSync('/dev/full'))('drops lines on a full disk instead of throwing into the caller', () => {
    const logger = createDaemonLogger('/dev/full');
    expect(() => {
      for (let i = 0; i < 50; i += 1) logger.error({ i, err: new Error('write failed') }, 'something failed');
    }).not.toThrow();
  });

  it('redacts the API key and bearer headers', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wafctl-log-')), 'daemon.log');
    const logger = createDaemonLogger(file);
    logger.info({ req: { headers: { 'x-service-key': 'secret-key-1', authorization: 'Bearer secret-token-2' } } }, 'request');
    logger.flush();
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('secret-key-1');
    expect(text).not.toContain('secret-token-2');
  });
});
