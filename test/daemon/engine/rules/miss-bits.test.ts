// Values repeated under many names share a leader that remembers operator misses per rule
// (rules/miss-bits.ts): the operator runs once per distinct value, and nothing a rule does on
// a match is skipped.
import { describe, it, expect } from 'vitest';
import { Waf } from '../../../../daemon/engine/waf.js';
import { request } from '../helpers/request.js';
import { counting } from '../helpers/counting-operator.js';

/** 20 arguments, values a/b/c repeating; the list is long enough for values to be shared. */
const QUERY = Array.from({ length: 20 }, (_, i) => `p${i}=${'abc'[i % 3]}`).join('&');

describe('remembered operator misses', () => {
  it('run the operator once per distinct value and rule; matches still count per entry', () => {
    const { calls, registries } = counting();
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS "@counted zzz" "id:1,phase:1,pass,log"
SecRule ARGS "@counted a" "id:2,phase:1,pass,log,setvar:tx.hits=+1"
SecRule ARGS "!@counted b" "id:3,phase:1,pass,log"` }], { registries });
    const tx = w.newTransaction(request(`/?${QUERY}`));
    tx.processRequest();
    const byRule = (id: number) => tx.matches.filter((m) => m.id === id).length;
    expect(byRule(1)).toBe(0);
    expect(byRule(2)).toBe(7);
    expect(tx.tx.get('hits')).toBe('7');
    // !@counted b: every a and c entry is a hit, each logged with its own name.
    expect(tx.matches.filter((m) => m.id === 3).map((m) => m.matchedVarName)).toEqual(
      Array.from({ length: 20 }, (_, i) => i).filter((i) => i % 3 !== 1).map((i) => `ARGS:p${i}`),
    );
    // Rule 1: the 3 distinct values once (rules/distinct-values.ts), no walk over the entries.
    // Rule 2: a matches on the first distinct try; then the walk: the 7 a's match every time,
    // b and c miss once each. Rule 3 (negated, no distinct step): what it remembers is a non-hit,
    // here the operator matching b (one call); the a and c entries are hits (13 calls).
    expect(calls.length).toBe(3 + (1 + 7 + 2) + (1 + 13));
  });

  it('a macro in the parameter means no remembering; multiMatch remembers that no input matched', () => {
    const { calls, registries } = counting();
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecAction "id:1,phase:1,pass,nolog,setvar:tx.needle=zzz"
SecRule ARGS "@counted %{tx.needle}" "id:2,phase:1,pass,log"
SecRule ARGS "@counted zzz" "id:3,phase:1,pass,log,t:lowercase,multiMatch"
SecRule ARGS "@counted b" "id:4,phase:1,pass,log,t:urlDecode,multiMatch"` }], { registries });
    const tx = w.newTransaction(request(`/?${QUERY.replaceAll('=c', '=%2562')}`));
    tx.processRequest();
    // Rule 2: every entry. Rule 3: a, b and %62 once each (lowercase changes none of them).
    // Rule 4: a once; b matches on all 7; %62 misses raw, matches decoded (b) on all 6.
    expect(calls.length).toBe(20 + 3 + (1 + 7 + 6 * 2));
    expect(tx.matches.filter((m) => m.id === 4)).toHaveLength(13);
  });

  it('captures are set on every match', () => {
    const { registries } = counting();
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS "@counted a" "id:1,phase:1,pass,nolog,capture,setvar:tx.seen=%{tx.seen}%{tx.0}"` }], { registries });
    const tx = w.newTransaction(request(`/?${QUERY}`));
    tx.processRequest();
    expect(tx.tx.get('seen')).toBe('a'.repeat(7));
  });

  it('short lists do not share leaders, but equal values still share their misses (by value, rules/miss-memo.ts)', () => {
    const { calls, registries } = counting();
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly\nSecRule ARGS "@counted zzz" "id:1,phase:1,pass,log"\nSecRule ARGS "@counted x" "id:2,phase:1,pass,log"` }], { registries });
    const tx = w.newTransaction(request('/?a=x&b=x&c=x'));
    tx.processRequest();
    // Rule 1 misses on a's value, which the memo does not hold yet (its first sighting:
    // rules/sightings.ts): a's bits are its own; b's is the second sighting, admitted and
    // evaluated; c shares b's row. Rule 2 matches, so it runs on every entry.
    expect(calls).toEqual(['x', 'x', 'x', 'x', 'x']);
    expect(tx.matches.map((m) => m.matchedVarName)).toEqual(['ARGS:a', 'ARGS:b', 'ARGS:c']);
  });

  it('distinct values first: matches still come per entry, in order, with their captures', () => {
    const { calls, registries } = counting();
    const values = Array.from({ length: 24 }, (_, i) => (i === 9 || i === 17 ? `x${i % 2}` : 'abc'[i % 3]));
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS "@counted x" "id:1,phase:1,pass,log,capture,setvar:tx.order=%{tx.order}%{tx.0},"
SecRule ARGS_NAMES|ARGS "@counted q" "id:2,phase:1,pass,log"` }], { registries });
    const tx = w.newTransaction(request(`/?${values.map((v, i) => `p${i}=${v}`).join('&')}`));
    tx.processRequest();
    expect(tx.matches.filter((m) => m.id === 1).map((m) => m.matchedVarName)).toEqual(['ARGS:p9', 'ARGS:p17']);
    expect(tx.tx.get('order')).toBe('x1x1');
    expect(tx.matches.filter((m) => m.id === 2)).toHaveLength(0);
    // Rule 1: distinct a, b, c miss, x1 matches (4 calls); the walk skips the known misses and
    // evaluates p9 and p17 (2). Rule 2: 24 names, none repeated (24); ARGS: the 4 distinct
    // values miss, so no walk (4).
    expect(calls.length).toBe(4 + 2 + 24 + 4);
  });

  it('a negated multiMatch rule whose operator matches every input is not taken for a miss', () => {
    const { calls, registries } = counting();
    const values = Array.from({ length: 18 }, (_, i) => ['v1', 'v2'][i % 2]);
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS "!@counted v" "id:1,phase:1,pass,nolog,capture,t:lowercase,multiMatch"` }], { registries });
    const tx = w.newTransaction(request(`/?${values.map((v, i) => `p${i}=${v}`).join('&')}`));
    tx.processRequest();
    // Every entry is evaluated (captures follow the entries: the last one is v2).
    expect(calls).toHaveLength(18);
    expect(tx.tx.get('0')).toBe('v2');
  });
});
