// MATCHED_VARS holds the current rule's matches only (its chain included): the transaction keeps
// them in one list reused from rule to rule (transaction.ts), so a rule must never see cells left
// over from an earlier rule that matched more values.
import { describe, it, expect } from 'vitest';
import { Waf } from '../../../../daemon/engine/waf.js';
import { testRegistries } from '../helpers/test-registries.js';
import { request } from '../helpers/request.js';

function matches(rules: string, uri: string): string[] {
  const w = Waf.load([{ text: `SecRuleEngine DetectionOnly\n${rules}`, name: 'inline.conf' }], { registries: testRegistries });
  const tx = w.newTransaction(request(uri));
  tx.processRequest();
  return tx.matches.map((m) => `${m.id}:${m.matchedVarName}=${m.matchedValue}`);
}

describe('MATCHED_VARS', () => {
  it('a chain sees every match of its starter, by name and value', () => {
    expect(matches(`SecRule ARGS "@rx x" "id:1,phase:1,pass,log,chain"
SecRule MATCHED_VARS_NAMES "@streq ARGS:b" "chain"
SecRule &MATCHED_VARS "@eq 3" ""`, '/?a=x&b=x&c=y')).toEqual(['1:MATCHED_VARS=3']);
  });

  it('a rule after one with more matches sees its own matches only', () => {
    expect(matches(`SecRule ARGS "@rx x" "id:1,phase:1,pass,nolog"
SecRule ARGS:c "@rx y" "id:2,phase:1,pass,log,chain"
SecRule &MATCHED_VARS "@eq 1" "chain"
SecRule MATCHED_VARS "@streq y" ""
SecRule &MATCHED_VARS "@eq 0" "id:3,phase:1,pass,log"`, '/?a=x&b=x&c=y')).toEqual(['2:MATCHED_VARS:ARGS:c=y', '3:MATCHED_VARS=0']);
  });
});
