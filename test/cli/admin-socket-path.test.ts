import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminSocketPath } from '../../cli/admin-socket-path.js';

describe('adminSocketPath', () => {
  it('is <data>/wafctl.sock by default, WAFCTL_ADMIN_SOCKET when set, daemon.json admin_socket otherwise', () => {
    const data = mkdtempSync(join(tmpdir(), 'wafctl-sock-'));
    expect(adminSocketPath(data, {})).toBe(join(data, 'wafctl.sock'));
    writeFileSync(join(data, 'daemon.json'), JSON.stringify({ admin_socket: 'run/admin.sock' }));
    expect(adminSocketPath(data, {})).toBe(join(data, 'run', 'admin.sock'));
    expect(adminSocketPath(data, { WAFCTL_ADMIN_SOCKET: '/run/wafctl.sock' })).toBe('/run/wafctl.sock');
    writeFileSync(join(data, 'daemon.json'), '{ broken');
    expect(adminSocketPath(data, {})).toBe(join(data, 'wafctl.sock'));
  });

  it('follows the pointer a running daemon leaves, before daemon.json; ignores a pointer that is not absolute', () => {
    const data = mkdtempSync(join(tmpdir(), 'wafctl-sock-'));
    writeFileSync(join(data, 'daemon.json'), JSON.stringify({ admin_socket: 'run/admin.sock' }));
    writeFileSync(join(data, 'wafctl.sock.path'), '/run/moved-by-flag.sock\n');
    expect(adminSocketPath(data, {})).toBe('/run/moved-by-flag.sock');
    expect(adminSocketPath(data, { WAFCTL_ADMIN_SOCKET: '/run/env.sock' })).toBe('/run/env.sock');
    writeFileSync(join(data, 'wafctl.sock.path'), 'relative.sock\n');
    expect(adminSocketPath(data, {})).toBe(join(data, 'run', 'admin.sock'));
  });
});
