import { existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDaemonLogger } from '../../../daemon/lifecycle/daemon-log.js';
import { WriteHealth } from '../../../daemon/store/write-health.js';

describe('createDaemonLogger', () => {
  // /dev/full answers every write with ENOSPC: the disk-full case without a full disk.
  it.runIf(existsSync('/dev/full'))('drops lines on a full disk instead of throwing into the caller', () => {
    const logger = createDaemonLogger(openSync('/dev/full', 'w'));
    expect(() => {
      for (let i = 0; i < 50; i += 1) logger.error({ i, err: new Error('write failed') }, 'something failed');
    }).not.toThrow();
  });

  it.runIf(existsSync('/dev/full'))('tells its WriteHealth that lines fail, for daemon status', () => {
    const health = new WriteHealth('/x/daemon.log', () => Date.UTC(2026, 10, 27));
    const logger = createDaemonLogger(openSync('/dev/full', 'w'), 'info', health);
    for (let i = 0; i < 3; i += 1) logger.error('something failed');
    expect(health.state()).toMatchObject({ error: 'ENOSPC (disk full)', path: '/x/daemon.log', failing_since: '2026-11-27T00:00:00.000Z' });
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

describe('createDaemonLogger: secrets in URLs and file mode', () => {
  it('masks key and token values in a logged request URL, and creates the log 0600', async () => {
    const { statSync } = await import('node:fs');
    const { maskUrlSecrets } = await import('../../../daemon/lifecycle/daemon-log.js');
    expect(maskUrlSecrets('/api/v1/connect?api_key=abc123&page=2&token=wfi_x#f')).toBe('/api/v1/connect?api_key=[redacted]&page=2&token=[redacted]#f');
    expect(maskUrlSecrets('/api/v1/logs?search=token')).toBe('/api/v1/logs?search=token');
    const file = join(mkdtempSync(join(tmpdir(), 'wafctl-log-')), 'daemon.log');
    const logger = createDaemonLogger(file);
    // The shape fastify hands to the request serializer (it has .raw).
    logger.info({ req: { raw: {}, method: 'GET', url: '/x?api_key=leaked-value-3', host: 'h', ip: '127.0.0.1', socket: { remotePort: 1 } } }, 'incoming request');
    logger.flush();
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('leaked-value-3');
    expect(text).toContain('/x?api_key=[redacted]');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
