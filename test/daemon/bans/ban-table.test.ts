// The edge's ban lookup: any spelling of an address finds its ban, ranges, sites kept apart,
// expiry to the millisecond, revoked bans ignored, the longer of two bans answering.
import { describe, expect, it } from 'vitest';
import { BanTable } from '../../../daemon/bans/ban-table.js';
import { parseIp } from '../../../daemon/proxy/ip-set.js';
import type { Ban } from '../../../shared/schemas/bans.js';

const T = Date.parse('2026-11-28T10:00:00.000Z');

function ban(over: Partial<Ban>): Ban {
  return {
    id: over.ip ?? 'x', site_id: 1, ip: '203.0.113.7', reason: '', source: 'auto', node: 'n',
    created_at: new Date(T - 60_000).toISOString(), expires_at: new Date(T + 3_600_000).toISOString(), revoked_at: null, ...over,
  };
}

const ip = (text: string) => parseIp(text)!;

describe('BanTable', () => {
  it('finds a banned address in any spelling, on its site only', () => {
    const table = new BanTable();
    table.replace([ban({ ip: '203.0.113.7' }), ban({ id: 'v6', ip: '2001:db8::1' })], T);
    expect(table.banned(1, ip('203.0.113.7'), T)?.id).toBe('203.0.113.7');
    expect(table.banned(1, ip('::ffff:203.0.113.7'), T)?.id).toBe('203.0.113.7');
    expect(table.banned(1, ip('2001:DB8:0:0::1'), T)?.id).toBe('v6');
    expect(table.banned(2, ip('203.0.113.7'), T)).toBeNull();
    expect(table.banned(1, ip('203.0.113.8'), T)).toBeNull();
    expect(table.size).toBe(2);
  });

  it('finds addresses inside a banned range', () => {
    const table = new BanTable();
    table.replace([ban({ id: 'r', ip: '198.51.100.0/24' }), ban({ id: 'r6', ip: '2001:db8:1::/48' })], T);
    expect(table.banned(1, ip('198.51.100.200'), T)?.id).toBe('r');
    expect(table.banned(1, ip('198.51.101.1'), T)).toBeNull();
    expect(table.banned(1, ip('2001:db8:1:ffff::9'), T)?.id).toBe('r6');
    expect(table.banned(1, ip('2001:db8:2::9'), T)).toBeNull();
  });

  it('stops at the expiry, to the millisecond, before any rebuild', () => {
    const table = new BanTable();
    const expires = T + 5_000;
    table.replace([ban({ ip: '203.0.113.7', expires_at: new Date(expires).toISOString() }), ban({ id: 'r', ip: '192.0.2.0/24', expires_at: new Date(expires).toISOString() })], T);
    expect(table.banned(1, ip('203.0.113.7'), expires - 1)).not.toBeNull();
    expect(table.banned(1, ip('203.0.113.7'), expires)).toBeNull();
    expect(table.banned(1, ip('192.0.2.1'), expires - 1)).not.toBeNull();
    expect(table.banned(1, ip('192.0.2.1'), expires)).toBeNull();
  });

  it('leaves out revoked and expired bans; of two bans of one address the longer answers', () => {
    const table = new BanTable();
    table.replace([
      ban({ id: 'revoked', ip: '203.0.113.1', revoked_at: new Date(T - 1).toISOString() }),
      ban({ id: 'expired', ip: '203.0.113.2', expires_at: new Date(T - 1).toISOString() }),
      ban({ id: 'short', ip: '203.0.113.3', expires_at: new Date(T + 1_000).toISOString() }),
      ban({ id: 'long', ip: '203.0.113.3', expires_at: new Date(T + 9_000).toISOString() }),
    ], T);
    expect(table.banned(1, ip('203.0.113.1'), T)).toBeNull();
    expect(table.banned(1, ip('203.0.113.2'), T)).toBeNull();
    expect(table.banned(1, ip('203.0.113.3'), T + 5_000)?.id).toBe('long');
    table.replace([], T);
    expect(table.banned(1, ip('203.0.113.3'), T)).toBeNull();
    expect(table.size).toBe(0);
  });
});
