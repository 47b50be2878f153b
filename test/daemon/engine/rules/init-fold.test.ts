// Which leading phase-1 rules fold into the TX template (daemon/engine/rules/init-fold.ts), and
// that a transaction cannot tell: its TX, matches and verdict are those of the unfolded rule set.
import { describe, expect, it } from 'vitest';
import { Waf } from '../../../../daemon/engine/waf.js';
import { defaultRegistries } from '../../../../daemon/engine/default-registries.js';
import type { EngineRequest } from '../../../../daemon/engine/request/model.js';

const REQUEST: EngineRequest = {
  remoteAddr: '203.0.113.7', remotePort: 40000, method: 'GET', uri: '/a?b=c', protocol: 'HTTP/1.1',
  headers: [['Host', 'example.com'], ['User-Agent', 'curl/8.0']],
};

function load(text: string, fold = true): Waf {
  if (!fold) process.env.WAFCTL_INIT_FOLD = 'off';
  try {
    return Waf.load([{ text: `SecRuleEngine On\nSecDefaultAction "phase:1,log,auditlog,pass"\n${text}` }], { registries: defaultRegistries });
  } finally {
    delete process.env.WAFCTL_INIT_FOLD;
  }
}

/** Ids left in phase 1. */
const phase1 = (waf: Waf) => waf.ruleSet.phases[1].map((r) => r.id);

function outcome(waf: Waf, request = REQUEST): string {
  const tx = waf.newTransaction(request);
  const interruption = tx.processRequest();
  const matches = tx.matches.map((m) => `${m.id} ${m.matchedVarName}=${m.matchedValue} ${m.msg}`);
  return JSON.stringify([interruption, matches, tx.highestSeverity, tx.tx.exportVars()]);
}

/** Folded and unfolded, the same outcome for the request. */
function expectSameOutcome(text: string, request = REQUEST): void {
  expect(outcome(load(text), request), text).toBe(outcome(load(text, false), request));
}

const INIT = `
SecAction "id:10,phase:1,nolog,pass,t:none,setvar:tx.setup_version=334,setvar:tx.paranoia_level=2"
SecRule &TX:setup_version "@eq 0" "id:11,phase:1,deny,status:500,log,msg:'no setup'"
SecRule &TX:paranoia_level "@eq 0" "id:12,phase:1,pass,nolog,setvar:tx.paranoia_level=1"
SecRule &TX:threshold "@eq 0" "id:13,phase:1,pass,nolog,setvar:tx.threshold=5"
SecRule &TX:executing_paranoia_level "@eq 0" "id:14,phase:1,pass,nolog,setvar:'tx.executing_paranoia_level=%{tx.paranoia_level}'"
SecAction "id:15,phase:1,pass,nolog,setvar:tx.anomaly_score=0,setvar:tx.anomaly_score=+%{tx.threshold}"
`;
const READS_REQUEST = `SecRule REQUEST_HEADERS:User-Agent "@rx curl" "id:20,phase:1,pass,nolog,setvar:tx.tool=1"\n`;
const LATER = `SecRule TX:ANOMALY_SCORE "@ge %{tx.threshold}" "id:30,phase:1,deny,status:403,log,msg:'score %{tx.anomaly_score} pl %{tx.executing_paranoia_level}'"\n`;

describe('folding the leading constant phase-1 rules', () => {
  it('folds SecActions and TX-only defaults, a non-matching deny included, and keeps the outcome', () => {
    const waf = load(INIT + READS_REQUEST + LATER);
    expect(phase1(waf)).toEqual([20, 30]);
    expect(waf.ruleSet.initFold?.folded).toBe(6);
    expect(waf.ruleSet.initFold?.template.map((v) => `${v.key}=${v.value}`)).toEqual([
      'setup_version=334', 'paranoia_level=2', 'threshold=5', 'executing_paranoia_level=2', 'anomaly_score=5',
    ]);
    const outcomeText = outcome(waf);
    expect(outcomeText).toContain('score 5 pl 2');
    expectSameOutcome(INIT + READS_REQUEST + LATER);
  });

  it('stops at the first rule that reads the request and writes TX', () => {
    const waf = load(READS_REQUEST + INIT + LATER);
    expect(waf.ruleSet.initFold).toBeUndefined();
    expect(phase1(waf)).toEqual([20, 10, 11, 12, 13, 14, 15, 30]);
    expectSameOutcome(READS_REQUEST + INIT + LATER);
  });

  it('folds past a rule that only chooses the body processor, not past one that may remove rules', () => {
    const inert = `SecRule REQUEST_HEADERS:Content-Type "@rx ^application/json" "id:5,phase:1,pass,nolog,ctl:requestBodyProcessor=JSON"\n`;
    expect(phase1(load(inert + INIT + LATER))).toEqual([5, 30]);
    const remover = `SecRule REQUEST_HEADERS:X-Test "@rx ." "id:5,phase:1,pass,nolog,ctl:ruleRemoveById=12"\n`;
    expect(load(remover + INIT + LATER).ruleSet.initFold).toBeUndefined();
    const request: EngineRequest = { ...REQUEST, headers: [...REQUEST.headers, ['X-Test', '1'], ['Content-Type', 'application/json']] };
    expectSameOutcome(inert + INIT + LATER, request);
    expectSameOutcome(remover + INIT + LATER, request);
  });

  it('stops at a constant rule that matches and logs, has a severity, skips or denies', () => {
    for (const stop of [
      `SecRule &TX:setup_version "@eq 1" "id:16,phase:1,pass,log,msg:'init',setvar:tx.x=1"`,
      `SecAction "id:16,phase:1,pass,nolog,severity:'WARNING',setvar:tx.x=1"`,
      `SecAction "id:16,phase:1,pass,nolog,skipAfter:END"`,
      `SecRule &TX:setup_version "@eq 1" "id:16,phase:1,deny,status:500,nolog"`,
    ]) {
      const text = `${INIT}${stop}\nSecAction "id:17,phase:1,pass,nolog,setvar:tx.y=1"\nSecMarker END\n${LATER}`;
      const waf = load(text);
      expect(waf.ruleSet.initFold?.folded, stop).toBe(6);
      expect(phase1(waf).slice(0, 2), stop).toEqual([16, 17]);
      expectSameOutcome(text);
    }
  });

  it('does not fold a setvar whose value or name comes from the request, or a rule with a macro operator', () => {
    for (const stop of [
      `SecAction "id:16,phase:1,pass,nolog,setvar:tx.addr=%{REMOTE_ADDR}"`,
      `SecAction "id:16,phase:1,pass,nolog,setvar:tx.%{REQUEST_METHOD}=1"`,
      `SecAction "id:16,phase:1,pass,nolog,setvar:ip.x=1"`,
      `SecAction "id:16,phase:1,pass,nolog,initcol:ip=%{REMOTE_ADDR}"`,
      `SecRule TX:threshold "@eq %{tx.paranoia_level}" "id:16,phase:1,pass,nolog"`,
      `SecRule ARGS "@rx ." "id:16,phase:1,pass,nolog"`,
    ]) {
      const waf = load(`${INIT}${stop}\n${LATER}`);
      expect(phase1(waf)[0], stop).toBe(16);
      expectSameOutcome(`${INIT}${stop}\n${LATER}`);
    }
  });

  it('folds nothing when some rule could read MATCHED_VAR as an earlier rule left it', () => {
    const reader = `SecAction "id:40,phase:2,pass,nolog,setvar:'tx.last=%{MATCHED_VAR}'"\n`;
    expect(load(INIT + LATER + reader).ruleSet.initFold).toBeUndefined();
    // A logged SecAction's match shows the variable the rule before it matched.
    const logged = `SecAction "id:40,phase:2,pass,log,msg:'after'"\n`;
    expect(load(INIT + LATER + logged).ruleSet.initFold).toBeUndefined();
    expectSameOutcome(INIT + logged);
    const target = `SecRule MATCHED_VAR "@rx ." "id:40,phase:2,pass,nolog"\n`;
    expect(load(INIT + LATER + target).ruleSet.initFold).toBeUndefined();
    // Within a rule's own match (a chain member, a message) it reads that rule's match: no effect.
    const own = `SecRule ARGS "@rx c" "id:40,phase:2,pass,log,msg:'%{MATCHED_VAR}',chain"\n  SecRule MATCHED_VAR "@rx c" "t:none"\n`;
    expect(load(INIT + LATER + own).ruleSet.initFold?.folded).toBe(6);
    expectSameOutcome(INIT + LATER + own);
  });

  it('fills TX only when phase 1 runs', () => {
    const waf = Waf.load([{ text: `SecRuleEngine Off\n${INIT}${LATER}` }], { registries: defaultRegistries });
    expect(waf.ruleSet.initFold?.folded).toBe(6);
    const tx = waf.newTransaction(REQUEST);
    tx.processRequest();
    expect(tx.tx.size).toBe(0);
    const detecting = Waf.load([{ text: `SecRuleEngine DetectionOnly\n${INIT}${LATER}` }], { registries: defaultRegistries });
    const seen = detecting.newTransaction(REQUEST);
    expect(seen.processRequest()).toBeNull();
    expect(seen.tx.get('anomaly_score')).toBe('5');
    expect(seen.matches.map((m) => m.id)).toEqual([30]);
  });
});
