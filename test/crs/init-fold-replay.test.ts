// Folding phase 1's leading constant rules into a TX template (daemon/engine/rules/init-fold.ts)
// against the whole CRS 3.3.4 regression corpus: every request through a rule set built with
// folding off and one built with it on must end with the same interruption, the same logged
// matches (variables and data), the same highest severity and the same TX, variable by variable
// and in order; for the CI rule set (paranoia 4) and for the daemon's own (WordPress exclusions,
// cms group) at paranoia 1 and 4.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import type { Waf } from '../../daemon/engine/waf.js';
import { compileRuleSet, findCrs } from '../../daemon/waf/rule-set-builder.js';
import { defaultRuleSettings } from '../../daemon/waf/rule-settings.js';
import { crsInstalled, loadCiWaf } from './ci-waf.js';
import { corpusRequests } from './corpus-requests.js';

function outcome(waf: Waf, request: EngineRequest): string {
  const tx = waf.newTransaction(request);
  const interruption = tx.processRequest();
  tx.processLogging();
  const matches = tx.matches.map((m) => `${m.id} ${m.matchedVarName}=${m.matchedValue} [${m.data}] ${m.msg}`);
  const txVars = tx.tx.exportVars().map((v) => `${v.key}=${v.value}`);
  return JSON.stringify([interruption, matches, tx.highestSeverity, txVars]);
}

/** The rule set `load` builds with WAFCTL_INIT_FOLD=off. */
function withoutFolding(load: () => Waf): Waf {
  process.env.WAFCTL_INIT_FOLD = 'off';
  try {
    return load();
  } finally {
    delete process.env.WAFCTL_INIT_FOLD;
  }
}

// How many rules each folds. In the CI rule set only the setup's SecActions fold: the test marker
// rule 999999 comes next, and its ctl:ruleRemoveById=1-999999 may remove 901xxx at run time, so
// folding must stop there. The daemon's rule sets fold CRS's initialisation up to 901318 (the
// User-Agent hash, the first rule that reads the request and writes TX).
const ruleSets: Array<[string, () => Waf, number]> = [
  ['the CI rule set (paranoia 4)', () => loadCiWaf(defaultRegistries), 4],
  ['the daemon rule set at paranoia 1', () => compileRuleSet(defaultRuleSettings(1), findCrs('/usr/share/modsecurity-crs')), 25],
  ['the daemon rule set at paranoia 4', () => compileRuleSet(defaultRuleSettings(4), findCrs('/usr/share/modsecurity-crs')), 25],
];

describe.skipIf(!crsInstalled())('phase 1 init folding over the CRS regression corpus', () => {
  let requests: EngineRequest[] = [];
  beforeAll(() => {
    requests = corpusRequests();
  });

  for (const [name, load, folds] of ruleSets) {
    it(`changes nothing any request can see, for ${name}`, () => {
      expect(requests.length).toBeGreaterThan(1500);
      const off = withoutFolding(load);
      const on = load();
      expect(off.ruleSet.initFold).toBeUndefined();
      expect(on.ruleSet.initFold?.folded).toBe(folds);
      expect(on.ruleSet.phases[1].length).toBe(off.ruleSet.phases[1].length - on.ruleSet.initFold!.folded);
      const differing = requests.filter((r) => outcome(on, r) !== outcome(off, r));
      expect(differing.length, differing.slice(0, 3).map((r) => `${r.method} ${r.uri}`).join('; ')).toBe(0);
    }, 300_000);
  }
});
