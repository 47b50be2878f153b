// Writable collections answer by name slot as they do by name, whatever order names were
// numbered and variables stored in, and however variables were written (by slot, by a name
// computed at run time, deleted, cleared).
import { describe, it, expect } from 'vitest';
import { MutableCollection } from '../../../../daemon/engine/collections/mutable-collection.js';
import { nameSlot } from '../../../../daemon/engine/collections/name-slots.js';
import { Waf } from '../../../../daemon/engine/waf.js';
import { testRegistries } from '../helpers/test-registries.js';
import { request } from '../helpers/request.js';

let unique = 0;
const fresh = (label: string) => `${label}_${process.pid}_${unique++}`;

describe('name slots', () => {
  it('a variable stored before its name got a slot is found by the slot', () => {
    const col = new MutableCollection('TX');
    const name = fresh('late');
    col.set(name.toUpperCase(), 'v1');
    const slot = nameSlot(name);
    expect(col.getBySlot(slot)).toBe('v1');
    expect(col.byKeySlot(slot).map((e) => e.value)).toEqual(['v1']);
    col.setBySlot(slot, name, name, 'v2');
    expect(col.get(name)).toBe('v2');
    expect(col.size).toBe(1);
  });

  it('writes by name and by slot, deletes, pattern deletes and clear stay consistent', () => {
    const col = new MutableCollection('TX');
    const a = fresh('a'), b = fresh('b');
    const sa = nameSlot(a), sb = nameSlot(b);
    col.set(a.toUpperCase(), '1');
    col.setBySlot(sb, b, b, '2');
    expect([col.getBySlot(sa), col.get(b)]).toEqual(['1', '2']);
    expect(col.entries().map((e) => e.key)).toEqual([a.toUpperCase(), b]);
    col.delete(a);
    expect(col.getBySlot(sa)).toBeUndefined();
    expect(col.byKeySlot(sa)).toEqual([]);
    col.setBySlot(sa, a, a, '3');
    expect(col.entries().map((e) => `${e.key}=${e.value}`)).toEqual([`${b}=2`, `${a}=3`]);
    col.deleteMatching(new RegExp(`^${b}$`));
    expect(col.getBySlot(sb)).toBeUndefined();
    col.clear();
    expect(col.getBySlot(sa)).toBeUndefined();
    col.set(a, '4');
    expect(col.getBySlot(sa)).toBe('4');
  });

  it('an unchanged variable keeps its entry (and cached transformations) in entries()', () => {
    const col = new MutableCollection('TX');
    col.set('x', '1');
    col.set('y', '2');
    const [x1] = col.entries();
    col.set('y', '3');
    const [x2, y2] = col.entries();
    expect(x2).toBe(x1);
    expect(y2.value).toBe('3');
  });

  it('rules read by slot what setvar wrote under a computed name, and see removals', () => {
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecAction "id:1,phase:1,pass,nolog,setvar:tx.which=score,setvar:tx.%{tx.which}=7"
SecRule TX:SCORE "@eq 7" "id:2,phase:1,pass,log,msg:'%{tx.score}'"
SecAction "id:3,phase:1,pass,nolog,setvar:!tx.score"
SecRule &TX:score "@eq 0" "id:4,phase:1,pass,log"` }], { registries: testRegistries });
    const tx = w.newTransaction(request('/'));
    tx.processRequest();
    expect(tx.matches.map((m) => [m.id, m.msg])).toEqual([[2, '7'], [4, '']]);
  });

  it('a persistent record written under one rule set is read by slot under a later one', () => {
    const first = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecAction "id:1,phase:1,pass,nolog,initcol:ip=%{remote_addr},setvar:ip.%{tx.none}visits=+1"` }], { registries: testRegistries });
    const tx1 = first.newTransaction(request('/'));
    tx1.processRequest();
    const record = tx1.persistent('IP')!;
    const name = fresh('visits_later');
    record.set(name, '5');
    // A rule set loaded afterwards numbers the name; the old record must answer by its slot.
    const later = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule IP:${name} "@eq 5" "id:2,phase:1,pass,log"` }], { registries: testRegistries });
    const slot = nameSlot(name);
    expect(record.getBySlot(slot)).toBe('5');
    expect(later.ruleSet.phases[1]).toHaveLength(1);
  });
});
