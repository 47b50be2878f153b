// The daemon's V8 heap cap: none by default, WAFCTL_DAEMON_HEAP_MIB sets one (0: none),
// a cap already in NODE_OPTIONS wins, and a bad value is refused with a clear message.
import { describe, expect, it } from 'vitest';
import { DaemonHeapError, daemonNodeArgs } from '../../shared/daemon-node-args.js';

describe('daemonNodeArgs', () => {
  it('sets no cap by default', () => {
    expect(daemonNodeArgs({})).toEqual([]);
    expect(daemonNodeArgs({ WAFCTL_DAEMON_HEAP_MIB: '' })).toEqual([]);
  });

  it('leaves a cap already in NODE_OPTIONS alone, and ignores other NODE_OPTIONS', () => {
    expect(daemonNodeArgs({ NODE_OPTIONS: '--enable-source-maps --max-old-space-size=1024' })).toEqual([]);
    expect(daemonNodeArgs({ NODE_OPTIONS: '--max-old-space-size=1024', WAFCTL_DAEMON_HEAP_MIB: '512' })).toEqual([]);
    expect(daemonNodeArgs({ NODE_OPTIONS: '--enable-source-maps', WAFCTL_DAEMON_HEAP_MIB: '512' })).toEqual(['--max-old-space-size=512']);
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
