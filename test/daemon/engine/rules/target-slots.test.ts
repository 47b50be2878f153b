// Targets on request, body and response data are selected and filtered once per phase and
// shared by every rule with the same target (rules/target-slots.ts). What must not change:
// each phase sees its own data, exclusions and ctl target removals stay per rule, and
// collections that change during a phase (TX, MATCHED_VAR) are read fresh every time.
import { describe, it, expect } from 'vitest';
import { Waf } from '../../../../daemon/engine/waf.js';
import { testRegistries } from '../helpers/test-registries.js';
import { request } from '../helpers/request.js';

function waf(text: string): Waf {
  return Waf.load([{ text: `SecRuleEngine DetectionOnly\nSecRequestBodyAccess On\n${text}`, name: 'inline.conf' }], { registries: testRegistries });
}

function matches(w: Waf, uri: string, extra = {}): string[] {
  const tx = w.newTransaction(request(uri, extra));
  tx.processRequest();
  return tx.matches.map((m) => `${m.id}:${m.matchedVarName}`);
}

const form = (body: string) => ({
  method: 'POST',
  headers: [['Host', 'example.test'], ['Content-Type', 'application/x-www-form-urlencoded']] as Array<[string, string]>,
  body: Buffer.from(body),
});

describe('target slots', () => {
  it('each phase sees its own values of the same target (ARGS gains the body in phase 2)', () => {
    const w = waf(`SecRule ARGS "@rx x" "id:1,phase:1,pass,log"
SecRule ARGS "@rx x" "id:2,phase:2,pass,log"
SecRule REQUEST_FILENAME "@rx ^/a b$" "id:3,phase:1,pass,log"
SecRule REQUEST_FILENAME "@rx ^/a b$" "id:4,phase:2,pass,log"`);
    expect(matches(w, '/a%20b?g=x', form('p=x'))).toEqual(['1:ARGS:g', '2:ARGS:g', '2:ARGS:p', '4:REQUEST_FILENAME']);
  });

  it('rules sharing a target keep their own exclusions', () => {
    const w = waf(`SecRule ARGS|!ARGS:a "@rx x" "id:1,phase:1,pass,log"
SecRule ARGS "@rx x" "id:2,phase:1,pass,log"
SecRule ARGS|!ARGS:/^b/ "@rx x" "id:3,phase:1,pass,log"
SecRule ARGS|!ARGS:a "@rx x" "id:4,phase:1,pass,log"`);
    expect(matches(w, '/?a=x&b1=x&c=x')).toEqual([
      '1:ARGS:b1', '1:ARGS:c',
      '2:ARGS:a', '2:ARGS:b1', '2:ARGS:c',
      '3:ARGS:a', '3:ARGS:c',
      '4:ARGS:b1', '4:ARGS:c',
    ]);
  });

  it('ctl:ruleRemoveTargetById removes a shared target from the named rule only, from then on', () => {
    const w = waf(`SecRule ARGS "@rx x" "id:1,phase:1,pass,log"
SecAction "id:2,phase:1,pass,nolog,ctl:ruleRemoveTargetById=3;ARGS:a"
SecRule ARGS "@rx x" "id:3,phase:1,pass,log"
SecRule ARGS "@rx x" "id:4,phase:1,pass,log"`);
    expect(matches(w, '/?a=x&b=x')).toEqual(['1:ARGS:a', '1:ARGS:b', '3:ARGS:b', '4:ARGS:a', '4:ARGS:b']);
  });

  it('counts, keys and regex selectors on shared variables', () => {
    const w = waf(`SecRule &ARGS "@eq 3" "id:1,phase:1,pass,log"
SecRule ARGS:B "@rx x" "id:2,phase:1,pass,log"
SecRule ARGS:/^[ab]$/ "@rx x" "id:3,phase:1,pass,log"
SecRule &ARGS:b "@eq 1" "id:4,phase:1,pass,log"`);
    expect(matches(w, '/?a=x&b=x&c=x')).toEqual(['1:ARGS', '2:ARGS:b', '3:ARGS:a', '3:ARGS:b', '4:ARGS:b']);
  });

  it('TX and MATCHED_VAR are read fresh within a phase', () => {
    const w = waf(`SecRule ARGS "@rx x" "id:1,phase:1,pass,nolog,setvar:tx.seen=+1"
SecRule TX:seen "@eq 2" "id:2,phase:1,pass,log,setvar:tx.seen=+1"
SecRule TX:seen "@eq 3" "id:3,phase:1,pass,log"
SecRule ARGS:a "@rx x" "id:4,phase:1,pass,log,chain"
SecRule MATCHED_VAR "@streq x" ""
SecRule ARGS:b "@rx y" "id:5,phase:1,pass,log,chain"
SecRule MATCHED_VAR "@streq y" ""`);
    expect(matches(w, '/?a=x&b=y&c=x')).toEqual(['2:TX:seen', '3:TX:seen', '4:MATCHED_VAR', '5:MATCHED_VAR']);
  });
});
