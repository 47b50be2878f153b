// Every speed layer of the rule compiler (daemon/engine/rules/speed-layers.ts) is exact: switched
// off, no request can tell. Against the whole CRS 3.3.4 regression corpus, sent twice in a row
// through one rule set (the second time the miss memo, and the rule skips built on it, answer for
// values seen before), every request must end with the same interruption, the same logged matches
// (variables and data), the same highest severity and the same TX, variable by variable and in
// order, with the layer on and with it off; for the CI rule set (paranoia 4) and for the daemon's
// own (WordPress exclusions, cms group) at paranoia 1.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import type { Waf } from '../../daemon/engine/waf.js';
import { SPEED_LAYERS, type SpeedLayer } from '../../daemon/engine/rules/speed-layers.js';
import { compileRuleSet, findCrs } from '../../daemon/rule-sets/rule-set-builder.js';
import { defaultRuleSettings } from '../../daemon/rule-sets/rule-settings.js';
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

/** The corpus twice through one rule set: each request's outcome, in order. */
function outcomes(waf: Waf, requests: readonly EngineRequest[]): string[] {
  return [...requests, ...requests].map((r) => outcome(waf, r));
}

/** Whether the compiled rule set carries the layer: so a switch that did nothing fails here. */
function carries(waf: Waf, layer: SpeedLayer): boolean {
  const rs = waf.ruleSet;
  const rules = rs.phases.flat();
  switch (layer) {
    case 'miss-memo': return rs.missMemo.limits.limit > 0;
    case 'init-fold': return rs.initFold !== undefined;
    case 'rule-skips': return rs.missGroups.length > 0;
    case 'byte-gate': return rules.some((rule) => rule.gateLo !== 0 || rule.gateHi !== 0);
  }
}

/** The rule set `load` builds with `layer` switched off. */
function without(layer: SpeedLayer, load: () => Waf): Waf {
  const variable = SPEED_LAYERS[layer];
  process.env[variable] = 'off';
  try {
    return load();
  } finally {
    delete process.env[variable];
  }
}

// How many rules init-fold folds. In the CI rule set only the setup's SecActions fold: the test
// marker rule 999999 comes next, and its ctl:ruleRemoveById=1-999999 may remove 901xxx at run
// time, so folding must stop there. The daemon's rule set folds CRS's initialisation up to 901318
// (the User-Agent hash, the first rule that reads the request and writes TX).
const ruleSets: Array<[string, () => Waf, number]> = [
  ['the CI rule set (paranoia 4)', () => loadCiWaf(defaultRegistries), 4],
  ['the daemon rule set at paranoia 1', () => compileRuleSet(defaultRuleSettings(1), findCrs('/usr/share/modsecurity-crs')), 25],
];

describe.skipIf(!crsInstalled())('speed layers switched off over the CRS regression corpus', () => {
  let requests: EngineRequest[] = [];
  beforeAll(() => {
    requests = corpusRequests();
  });

  for (const [name, load, folds] of ruleSets) {
    describe(name, () => {
      let withAll: string[] = [];
      beforeAll(() => {
        const waf = load();
        expect(waf.ruleSet.initFold?.folded).toBe(folds);
        for (const layer of Object.keys(SPEED_LAYERS) as SpeedLayer[]) expect(carries(waf, layer), layer).toBe(true);
        withAll = outcomes(waf, requests);
      }, 300_000);

      for (const layer of Object.keys(SPEED_LAYERS) as SpeedLayer[]) {
        it(`without ${layer}, no request ends differently`, () => {
          expect(requests.length).toBeGreaterThan(1500);
          const off = without(layer, load);
          expect(carries(off, layer)).toBe(false);
          const got = outcomes(off, requests);
          const differing = got.flatMap((o, i) => (o === withAll[i] ? [] : [i % requests.length]));
          expect(differing.length, differing.slice(0, 3).map((i) => `${requests[i].method} ${requests[i].uri}`).join('; ')).toBe(0);
        }, 300_000);
      }
    });
  }
});
