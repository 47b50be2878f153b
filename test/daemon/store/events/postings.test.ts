import { describe, expect, it } from 'vitest';
import { StringTable, IpTable } from '../../../../daemon/store/events/string-table.js';
import { Postings } from '../../../../daemon/store/events/postings.js';
import { SlotIndex } from '../../../../daemon/store/events/slot-index.js';

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
      p.add(r, t.keyIds[r], t.keys[r], i);
    });
    const t2 = new StringTable().restore(t.snapshot());
    const snap = p.snapshot();
    const p2 = new Postings((k) => t2.keyId(k), snap, t2);
    for (const k of ['a', 'b', 'c', 'd']) {
      expect(p2.count(k)).toBe(p.count(k));
      expect(p2.positions(k)).toEqual(p.positions(k));
    }
    for (const [v, pos] of [['c', 5], ['D', 6], ['a', 7]] as const) {
      const r = t2.ref(v);
      p2.add(r, t2.keyIds[r], t2.keys[r], pos);
    }
    expect(p2.positions('a')).toEqual([7, 2, 0]);
    expect(p2.positions('c')).toEqual([5, 3]);
    expect(p2.positions('d')).toEqual([6]);
    expect(p2.has('e')).toBe(false);
    // The restored postings' keys are the table's own strings (no second copy of each).
    expect(p2.keys.every((k) => t2.keys.includes(k))).toBe(true);
    // ...and survive a second snapshot round.
    const p3 = new Postings((k) => t2.keyId(k), p2.snapshot(), t2);
    expect(p3.positions('a')).toEqual([7, 2, 0]);
  });

  it('refuses a postings snapshot whose key refs do not fit the table', () => {
    const t = new StringTable();
    const p = new Postings((k) => t.keyId(k));
    const r = t.ref('x');
    p.add(r, t.keyIds[r], t.keys[r], 0);
    const snap = p.snapshot();
    snap.keyRefs[0] = 7;
    expect(() => new Postings((k) => t.keyId(k), snap, t)).toThrow(/outside the table/);
  });
});

describe('slot index (key id -> slot)', () => {
  it('answers the same dense or sparse, built up or restored', () => {
    // Ids far apart force the sparse form; close ones keep it dense.
    for (const ids of [[3, 1, 0, 7, 2], [5, 900_000, 12, 400_000, 77], Array.from({ length: 3000 }, (_, i) => (i * 7919) % 5003)]) {
      const built = new SlotIndex();
      ids.forEach((id, slot) => built.set(id, slot));
      const restored = SlotIndex.of(Uint32Array.from(ids));
      const probe = [...ids, 4, 6, 8, 13, 899_999, 1_000_000];
      const want = probe.map((id) => ids.indexOf(id));
      expect(probe.map((id) => built.get(id))).toEqual(want);
      expect(probe.map((id) => restored.get(id))).toEqual(want);
      restored.set(2_000_000, ids.length);
      expect(restored.get(2_000_000)).toBe(ids.length);
      expect(restored.get(ids[0])).toBe(0);
    }
  });
});
