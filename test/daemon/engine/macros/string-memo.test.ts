// The bounded memo behind per-match macro expansions and setvar names (macros/string-memo.ts),
// and the expansions it serves, which must read as if computed afresh on every match.
import { describe, expect, it } from 'vitest';
import { StringMemo } from '../../../../daemon/engine/macros/string-memo.js';
import { Waf } from '../../../../daemon/engine/waf.js';
import { defaultRegistries } from '../../../../daemon/engine/default-registries.js';
import { request } from '../helpers/request.js';

describe('StringMemo', () => {
  it('answers as the function does, computing each input once while it stays', () => {
    let calls = 0;
    const memo = new StringMemo((s) => {
      calls++;
      return s.toLowerCase();
    });
    expect(memo.get('ARGS:Foo')).toBe('args:foo');
    expect(memo.get('ARGS:Foo')).toBe('args:foo');
    expect(memo.get('ARGS:Bar')).toBe('args:bar');
    expect(calls).toBe(2);
  });

  it('stays bounded: starts over when full, and does not keep long inputs', () => {
    let calls = 0;
    const memo = new StringMemo((s) => {
      calls++;
      return s;
    });
    for (let i = 0; i < 300; i++) memo.get(`k${i}`);
    expect(calls).toBe(300);
    memo.get('k0');
    expect(calls).toBe(301); // k0 was dropped when the memo started over at 256
    const long = 'x'.repeat(300);
    memo.get(long);
    memo.get(long);
    expect(calls).toBe(303);
  });
});

describe('per-match expansions through the memo', () => {
  it('count per argument name as ModSecurity does (CRS 921170/921180 shape), across transactions', () => {
    const waf = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS_NAMES "@rx ." "id:1,phase:1,pass,nolog,setvar:'TX.paramcounter_%{MATCHED_VAR_NAME}=+1'"
SecRule TX:/paramcounter_.*/ "@gt 1" "id:2,phase:1,pass,log,msg:'polluted %{MATCHED_VAR_NAME}'"` }], { registries: defaultRegistries });
    // 20 arguments (a list long enough to share values), a and B repeated, names in mixed case.
    const query = Array.from({ length: 20 }, (_, i) => (i % 2 ? `B=${i}` : `a=${i}`)).concat(['c=1', 'b=2']).join('&');
    for (let round = 0; round < 2; round++) {
      const tx = waf.newTransaction(request(`/?${query}`));
      tx.processRequest();
      expect(tx.tx.get('paramcounter_args_names:a')).toBe('10');
      // B and b: the same TX variable (names compare case-insensitively), 10 + 1.
      expect(tx.tx.get('paramcounter_args_names:b')).toBe('11');
      expect(tx.tx.get('paramcounter_args_names:c')).toBe('1');
      expect(tx.matches.map((m) => m.msg)).toEqual(['polluted TX:paramcounter_ARGS_NAMES:a', 'polluted TX:paramcounter_ARGS_NAMES:B']);
    }
  });
});
