import { describe, expect, it } from 'vitest';
import { StringTable, IpTable } from '../../../../daemon/store/events/string-table.js';
import { Postings } from '../../../../daemon/store/events/postings.js';

describe('key ids of string tables and postings', () => {
  it('values with one search key share one id, whichever spelling comes first', () => {
    const t = new StringTable();
    const a = t.ref('Rule-X');
    const b = t.ref('rule-x');
    const c = t.ref('RULE-X');
    const d = t.ref('other');
    expect(new Set([t.keyIds[a], t.keyIds[b], t.keyIds[c]]).size).toBe(1);
    expect(t.keyIds[d]).not.toBe(t.keyIds[a]);
    expect(t.keyId('rule-x')).toBe(t.keyIds[a]);
    expect(t.keyId('Rule-X')).toBeUndefined(); // keys are lower-cased
    const ips = new IpTable();
    const v6 = ips.ref('2001:DB8::1');
    expect(ips.keyId('2001:db8::1')).toBe(ips.keyIds[v6]);
    expect(ips.keyIds[ips.ref('2001:db8:0::1')]).toBe(ips.keyIds[v6]);
  });

  it('restored tables and postings find the same slots, and new keys after restore', () => {
    const t = new StringTable();
    const p = new Postings((k) => t.keyId(k));
    const values = ['A', 'b', 'a', 'C', 'B'];
    values.forEach((v, i) => {
      const r = t.ref(v);
      p.add(t.keyIds[r], t.keys[r], i);
    });
    const t2 = new StringTable().restore(t.snapshot());
    const snap = p.snapshot();
    const p2 = new Postings((k) => t2.keyId(k), snap, t2.restoreKeyIds(snap.keys));
    for (const k of ['a', 'b', 'c', 'd']) {
      expect(p2.count(k)).toBe(p.count(k));
      expect(p2.positions(k)).toEqual(p.positions(k));
    }
    for (const [v, pos] of [['c', 5], ['D', 6], ['a', 7]] as const) {
      const r = t2.ref(v);
      p2.add(t2.keyIds[r], t2.keys[r], pos);
    }
    expect(p2.positions('a')).toEqual([7, 2, 0]);
    expect(p2.positions('c')).toEqual([5, 3]);
    expect(p2.positions('d')).toEqual([6]);
    expect(p2.has('e')).toBe(false);
  });
});
