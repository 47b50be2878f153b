import { describe, it, expect } from 'vitest';
import { Waf } from '../../../daemon/engine/waf.js';
import { testRegistries } from './helpers/test-registries.js';
import { request } from './helpers/request.js';

describe('regex safety', () => {
  it('a catastrophically backtracking @rx finishes once a Waf is loaded (V8 linear fallback)', () => {
    // Without the fallback, (a+)+$ on 40 "a"s and a "!" backtracks 2^40 times: hours, not ms.
    const waf = Waf.load([{ text: 'SecRuleEngine On\nSecRule ARGS "@rx (a+)+$" "id:1,phase:1,deny"' }], { registries: testRegistries });
    const tx = waf.newTransaction(request(`/?q=${'a'.repeat(40)}!`));
    expect(tx.processRequest()).toBeNull();
  });
});
