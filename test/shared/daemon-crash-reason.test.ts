import { describe, expect, it } from 'vitest';
import { crashReason } from '../../shared/daemon-crash-reason.js';

describe('crashReason', () => {
  it('picks the error line out of an uncaught exception, not the Node.js version line', () => {
    const stderr = [
      'file:///opt/wafctl/dist/daemon/app.js:12',
      '    throw new TypeError("boom");',
      '    ^',
      '',
      'TypeError: boom',
      '    at start (file:///opt/wafctl/dist/daemon/app.js:12:11)',
      '',
      'Node.js v20.20.2',
      '',
    ].join('\n');
    expect(crashReason(stderr)).toBe('TypeError: boom');
  });

  it('keeps the code of a Node system error', () => {
    const stderr = 'node:internal/x:1\nError [ERR_SOCKET_BAD_PORT]: Port should be >= 0 and < 65536. Received 70000.\n    at x\n\nNode.js v20.20.2\n';
    expect(crashReason(stderr)).toBe('Error [ERR_SOCKET_BAD_PORT]: Port should be >= 0 and < 65536. Received 70000.');
  });

  it('takes a message the daemon printed itself as it is', () => {
    expect(crashReason('wafctl daemon: port 8080 is already in use\n')).toBe('wafctl daemon: port 8080 is already in use');
  });

  it('has nothing to say about empty output', () => {
    expect(crashReason('')).toBeUndefined();
    expect(crashReason('\n\nNode.js v20.20.2\n')).toBeUndefined();
  });
});
