import { describe, it, expect } from 'vitest';
import { Waf } from '../../../daemon/engine/waf.js';
import { testOperator, testRegistries } from './helpers/test-registries.js';
import { request } from './helpers/request.js';

function waf(text: string): Waf {
  return Waf.load([{ text, name: 'inline.conf' }], { registries: testRegistries });
}

function ids(w: Waf, uri: string, extra = {}): number[] {
  const tx = w.newTransaction(request(uri, extra));
  tx.processRequest();
  return tx.matches.map((m) => m.id);
}

describe('Transaction', () => {
  it('logs one match per matching value and adds scores per match (v2 semantics)', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS "@rx evil" "id:10,phase:1,pass,log,setvar:tx.score=+5"
SecRule TX:score "@eq 10" "id:11,phase:1,pass,log,msg:'score %{tx.score}'"`);
    const tx = w.newTransaction(request('/?a=evil&b=evil&c=ok'));
    expect(tx.processRequest()).toBeNull();
    expect(tx.matches.map((m) => [m.id, m.matchedVarName])).toEqual([[10, 'ARGS:a'], [10, 'ARGS:b'], [11, 'TX:score']]);
    expect(tx.matches[2].msg).toBe('score 10');
  });

  it('interrupts with deny only when the engine is On; DetectionOnly only logs', () => {
    const rules = `SecRule ARGS:q "@rx attack" "id:20,phase:2,deny,status:406,log"`;
    const on = waf(`SecRuleEngine On\n${rules}`).newTransaction(request('/?q=attack'));
    expect(on.processRequest()).toEqual({ action: 'deny', status: 406, ruleId: 20, phase: 2 });
    const detect = waf(`SecRuleEngine DetectionOnly\n${rules}`).newTransaction(request('/?q=attack'));
    expect(detect.processRequest()).toBeNull();
    expect(detect.matches[0].id).toBe(20);
    expect(ids(waf(`SecRuleEngine Off\n${rules}`), '/?q=attack')).toEqual([]);
  });

  it('resolves block to the phase default action', () => {
    const w = waf(`SecRuleEngine On
SecDefaultAction "phase:2,log,deny,status:403"
SecRule ARGS "@rx x" "id:30,phase:2,block"`);
    expect(w.newTransaction(request('/?a=x')).processRequest()?.ruleId).toBe(30);
  });

  it('SecDefaultAction may carry tags (as CRS CI writes it): they reach every rule of its phase', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecDefaultAction "phase:2,pass,log,tag:'modsecurity'"
SecRule ARGS "@rx x" "id:31,phase:2,tag:'attack-x'"
SecRule ARGS "@rx x" "id:32,phase:1,pass,log,tag:'phase-one'"`);
    const tx = w.newTransaction(request('/?a=x'));
    tx.processRequest();
    expect(tx.matches.map((m) => [m.id, m.tags])).toEqual([[32, ['phase-one']], [31, ['modsecurity', 'attack-x']]]);
    for (const metadata of ['id:1', "msg:'m'", 'rev:2', "ver:'v'", 'maturity:1', 'accuracy:1', 'chain', 'skip:1', 'skipAfter:END']) {
      expect(() => waf(`SecDefaultAction "phase:2,pass,log,${metadata}"`), metadata).toThrow(/SecDefaultAction may not carry/);
    }
  });

  it('runs chains: the whole chain must match; captures reach the next rule', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS:a "@rx ^(\\w+)-" "id:40,phase:1,pass,log,capture,chain"
  SecRule TX:1 "@streq abc" "setvar:tx.chained=1"`);
    const tx = w.newTransaction(request('/?a=abc-1'));
    tx.processRequest();
    expect(tx.matches.map((m) => m.id)).toEqual([40]);
    expect(tx.tx.get('chained')).toBe('1');
    expect(ids(w, '/?a=xyz-1')).toEqual([]);
  });

  it('honours skipAfter markers and skip counts', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS:skip "@rx 1" "id:50,phase:1,pass,nolog,skipAfter:END"
SecAction "id:51,phase:1,pass,log"
SecMarker END
SecAction "id:52,phase:1,pass,log,skip:1"
SecAction "id:53,phase:1,pass,log"
SecAction "id:54,phase:1,pass,log"`);
    expect(ids(w, '/?skip=1')).toEqual([52, 54]);
    expect(ids(w, '/?skip=0')).toEqual([51, 52, 54]);
  });

  it('applies exclusions, selectors, regex selectors and counts', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS|!ARGS:safe|!ARGS:/^ok_/ "@rx bad" "id:60,phase:1,pass,log"
SecRule &ARGS:x "@eq 2" "id:61,phase:1,pass,log"
SecRule REQUEST_HEADERS:user-agent "@rx ^test$" "id:62,phase:1,pass,log"`);
    const tx = w.newTransaction(request('/?safe=bad&OK_1=bad&x=bad&x=1'));
    tx.processRequest();
    expect(tx.matches.map((m) => `${m.id}:${m.matchedVarName}`)).toEqual(['60:ARGS:x', '61:ARGS:x', '62:REQUEST_HEADERS:User-Agent']);
  });

  it('ctl removes rules and targets for the rest of the transaction only', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS:off "@rx 1" "id:70,phase:1,pass,nolog,ctl:ruleRemoveById=71,ctl:ruleRemoveTargetById=72;ARGS:p"
SecRule ARGS "@rx z" "id:71,phase:1,pass,log"
SecRule ARGS "@rx z" "id:72,phase:1,pass,log"`);
    const tx = w.newTransaction(request('/?off=1&p=z&q=z'));
    tx.processRequest();
    expect(tx.matches.map((m) => `${m.id}:${m.matchedVarName}`)).toEqual(['72:ARGS:q']);
    expect(ids(w, '/?p=z')).toEqual([71, 72]);
  });

  it('applies transformations (cached per value) and multiMatch', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS "@rx <script" "id:80,phase:1,pass,log,t:none,t:urlDecode,t:lowercase"
SecRule ARGS "@rx ^%3C" "id:81,phase:1,pass,log,t:urlDecode,multiMatch"`);
    expect(ids(w, '/?a=%253CSCRIPT')).toEqual([80, 81]);
  });

  it('multiMatch: every transformation stage that matches is a match of its own, its actions run again', () => {
    // As both ModSecurity versions do: CRS 942100/942130 on a value with a literal '+' add their
    // score before and after t:urlDecodeUni.
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS "@rx a" "id:85,phase:1,pass,log,t:none,t:lowercase,t:removeWhitespace,multiMatch,setvar:tx.score=+1"`);
    const score = (uri: string) => {
      const tx = w.newTransaction(request(uri));
      tx.processRequest();
      return [Number(tx.tx.get('score') ?? 0), tx.matches.length];
    };
    expect(score('/?v=aA')).toEqual([2, 2]); // as sent, then lowercased; removeWhitespace changes nothing
    expect(score('/?v=a')).toEqual([1, 1]); // no stage changes the value: one match
    expect(score('/?v=A')).toEqual([1, 1]); // only the lowercased stage matches
    expect(score('/?v=A%20A')).toEqual([2, 2]); // the lowercased and the whitespace-free stages
    expect(score('/?v=aA&w=a')).toEqual([3, 3]); // per variable, per stage
    expect(score('/?v=b')).toEqual([0, 0]);
  });

  it('expands setvar names and values with macros, supports =- and !', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecAction "id:90,phase:1,pass,nolog,setvar:tx.n=10,setvar:'tx.%{rule.id}-k=%{request_method}'"
SecAction "id:91,phase:1,pass,nolog,setvar:tx.n=-3,setvar:!tx.gone,setvar:tx.gone=1,setvar:!tx.gone"`);
    const tx = w.newTransaction(request('/'));
    tx.processRequest();
    expect(tx.tx.get('n')).toBe('7');
    expect(tx.tx.get('90-k')).toBe('GET');
    expect(tx.tx.get('gone')).toBeUndefined();
  });

  it('keeps persistent collections between transactions with expiry', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecAction "id:100,phase:1,pass,nolog,initcol:ip=%{remote_addr},setvar:ip.hits=+1"
SecRule IP:hits "@eq 2" "id:101,phase:1,pass,log"`);
    expect(ids(w, '/')).toEqual([]);
    expect(ids(w, '/')).toEqual([101]);
  });

  it('parses urlencoded bodies in phase 2 into ARGS_POST and ARGS', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRequestBodyAccess On
SecRule ARGS_POST:a "@rx ^1$" "id:110,phase:2,pass,log"
SecRule REQUEST_BODY "@rx a=1" "id:111,phase:2,pass,log"`);
    const body = Buffer.from('a=1');
    const headers: Array<[string, string]> = [['Host', 'x'], ['Content-Type', 'application/x-www-form-urlencoded']];
    expect(ids(w, '/', { method: 'POST', headers, body })).toEqual([110, 111]);
  });

  it('allow stops the remaining rules when enforcing', () => {
    const w = waf(`SecRuleEngine On
SecRule REMOTE_ADDR "@streq 192.0.2.7" "id:120,phase:1,allow,nolog"
SecRule ARGS "@rx x" "id:121,phase:1,deny,log"
SecRule ARGS "@rx x" "id:122,phase:2,deny,log"`);
    const tx = w.newTransaction(request('/?a=x'));
    expect(tx.processRequest()).toBeNull();
    expect(tx.matches).toEqual([]);
  });
});

describe('GEO', () => {
  it('@geoLookup fills GEO through the runtime for the chained rule', () => {
    const registries = {
      ...testRegistries,
      operators: new Map([
        ...testRegistries.operators,
        ['geolookup', testOperator(() => (input, runtime) => {
          runtime.setGeo?.({ COUNTRY_CODE: input === '192.0.2.7' ? 'XX' : 'YY' });
          return true;
        }, { pure: false, effectsOnMatch: true })],
      ]),
    } as typeof testRegistries;
    const w = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule REMOTE_ADDR "@geoLookup" "id:1,phase:1,pass,log,chain"
  SecRule GEO:COUNTRY_CODE "@streq XX"` }], { registries });
    const tx = w.newTransaction(request('/'));
    tx.processRequest();
    expect(tx.matches.map((m) => `${m.id}:${m.matchedVarName}`)).toEqual(['1:GEO:COUNTRY_CODE']);
  });
});

describe('configuration-time rule edits', () => {
  it('removes, re-defines, updates targets and actions of rules defined above', () => {
    const w = waf(`SecRuleEngine DetectionOnly
SecRule ARGS "@rx a" "id:1,phase:1,pass,log,tag:'attack-x'"
SecRule ARGS "@rx b" "id:2,phase:1,pass,log,tag:'attack-y'"
SecRule ARGS "@rx c" "id:3,phase:1,pass,log,msg:'old'"
SecRuleRemoveById 1
SecRule ARGS "@rx z" "id:1,phase:1,pass,log"
SecRuleUpdateTargetByTag attack-y "!ARGS:skip"
SecRuleUpdateActionById 3 "msg:'new'"`);
    const tx = w.newTransaction(request('/?q=abcz&skip=b'));
    tx.processRequest();
    expect(tx.matches.map((m) => `${m.id}:${m.matchedVarName}:${m.msg}`)).toEqual(['2:ARGS:q:', '3:ARGS:q:new', '1:ARGS:q:']);
  });
});
