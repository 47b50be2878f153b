// The daemon's V8 heap cap (issue 19): on by default, the operator's NODE_OPTIONS wins,
// WAFCTL_DAEMON_HEAP_MIB sets another (0: none), and a bad value is refused with a clear message.
import { describe, expect, it } from 'vitest';
import { DEFAULT_DAEMON_HEAP_MIB, DaemonHeapError, daemonNodeArgs } from '../../shared/daemon-node-args.js';

describe('daemonNodeArgs', () => {
  it('caps the old space by default', () => {
    expect(daemonNodeArgs({})).toEqual([`--max-old-space-size=${DEFAULT_DAEMON_HEAP_MIB}`]);
    expect(daemonNodeArgs({ WAFCTL_DAEMON_HEAP_MIB: '' })).toEqual([`--max-old-space-size=${DEFAULT_DAEMON_HEAP_MIB}`]);
  });

  it('leaves a cap already in NODE_OPTIONS alone, and ignores other NODE_OPTIONS', () => {
    expect(daemonNodeArgs({ NODE_OPTIONS: '--enable-source-maps --max-old-space-size=1024' })).toEqual([]);
    expect(daemonNodeArgs({ NODE_OPTIONS: '--max-old-space-size=1024', WAFCTL_DAEMON_HEAP_MIB: '512' })).toEqual([]);
    expect(daemonNodeArgs({ NODE_OPTIONS: '--enable-source-maps' })).toEqual([`--max-old-space-size=${DEFAULT_DAEMON_HEAP_MIB}`]);
  });

  it('takes WAFCTL_DAEMON_HEAP_MIB, 0 meaning no cap', () => {
    expect(daemonNodeArgs({ WAFCTL_DAEMON_HEAP_MIB: '512' })).toEqual(['--max-old-space-size=512']);
    expect(daemonNodeArgs({ WAFCTL_DAEMON_HEAP_MIB: ' 96 ' })).toEqual(['--max-old-space-size=96']);
    expect(daemonNodeArgs({ WAFCTL_DAEMON_HEAP_MIB: '0' })).toEqual([]);
  });

  it.each(['abc', '-1', '1.5', '256M', '63', '0x100'])('refuses WAFCTL_DAEMON_HEAP_MIB=%s with a message that names it', (value) => {
    expect(() => daemonNodeArgs({ WAFCTL_DAEMON_HEAP_MIB: value })).toThrow(DaemonHeapError);
    expect(() => daemonNodeArgs({ WAFCTL_DAEMON_HEAP_MIB: value })).toThrow(/WAFCTL_DAEMON_HEAP_MIB/);
  });
});
