// Skip gates (daemon/engine/rules/skip-gates.ts): a rule whose match only moves evaluation on is
// evaluated without the general match bookkeeping. What it must still do: skip exactly as before,
// set MATCHED_VAR / MATCHED_VAR_NAME for later rules (ModSecurity sets them for nolog rules too),
// and never take a rule with actions, logging or a severity for a gate.
import { describe, it, expect } from 'vitest';
import { Waf } from '../../../../daemon/engine/waf.js';
import { testRegistries } from '../helpers/test-registries.js';
import { request } from '../helpers/request.js';

function load(rules: string): Waf {
  return Waf.load([{ text: `SecRuleEngine DetectionOnly\n${rules}`, name: 'inline.conf' }], { registries: testRegistries });
}

function matches(w: Waf, uri: string): string[] {
  const tx = w.newTransaction(request(uri));
  tx.processRequest();
  return tx.matches.map((m) => `${m.id}:${m.data}`);
}

function gateIds(w: Waf): number[] {
  return w.ruleSet.phases.flat().filter((r) => r.skipGate).map((r) => r.id);
}

const LEVEL_GATE = `SecAction "id:1,phase:1,pass,nolog,setvar:tx.level=%{ARGS.level}"
SecRule TX:level "@lt 2" "id:2,phase:1,pass,nolog,skipAfter:END-LEVEL-1"
SecRule ARGS "@rx ." "id:3,phase:1,pass,log,logdata:'level 2 rule'"
SecMarker END-LEVEL-1
SecAction "id:4,phase:1,pass,log,logdata:'%{MATCHED_VAR_NAME}=%{MATCHED_VAR}'"`;

describe('skip gates', () => {
  it('a matching gate skips to its marker and leaves MATCHED_VAR(_NAME) for later rules', () => {
    const w = load(LEVEL_GATE);
    expect(gateIds(w)).toEqual([2]);
    expect(matches(w, '/?level=1')).toEqual(['4:TX:level=1']);
  });

  it('a gate that does not match skips nothing, in every transaction (misses are remembered per value)', () => {
    const w = load(LEVEL_GATE);
    expect(matches(w, '/?level=3')).toEqual(['3:level 2 rule', '4:ARGS:level=3']);
    expect(matches(w, '/?level=3')).toEqual(['3:level 2 rule', '4:ARGS:level=3']);
    expect(matches(w, '/?level=1')).toEqual(['4:TX:level=1']);
  });

  it('a skip rule with a setvar, a log, a severity, a chain or a deny is evaluated in full', () => {
    const w = load(`SecAction "id:1,phase:1,pass,nolog,setvar:tx.level=1"
SecRule TX:level "@lt 2" "id:2,phase:1,pass,nolog,setvar:tx.seen=a,skipAfter:END-A"
SecMarker END-A
SecRule TX:level "@lt 2" "id:3,phase:1,pass,log,logdata:'%{TX.seen}',skipAfter:END-B"
SecMarker END-B
SecRule TX:level "@lt 2" "id:4,phase:1,pass,nolog,severity:2,skipAfter:END-C"
SecMarker END-C
SecRule TX:level "@lt 2" "id:5,phase:1,pass,nolog,chain,skipAfter:END-D"
SecRule TX:level "@eq 1" ""
SecMarker END-D
SecRule TX:level "@lt 2" "id:6,phase:1,deny,nolog,skipAfter:END-E"
SecMarker END-E
SecRule TX:level "!@eq 5" "id:7,phase:1,pass,nolog,skipAfter:END-F"
SecMarker END-F
SecRule TX:level "@lt 2" "id:8,phase:1,pass,nolog,skipAfter:END-G"
SecMarker END-G`);
    expect(gateIds(w)).toEqual([8]);
    const tx = w.newTransaction(request('/'));
    tx.processRequest();
    expect(tx.matches.map((m) => `${m.id}:${m.data}`)).toEqual(['3:a']);
    expect(tx.highestSeverity).toBe(2);
  });
});
