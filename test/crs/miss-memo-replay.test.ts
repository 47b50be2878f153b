// The operator-miss memo (daemon/engine/rules/miss-memo.ts) and the rule groups it lets the phase
// loop skip (rules/miss-groups.ts) against the whole CRS 3.3.4 regression corpus: every request
// through the CI rule set (paranoia 4) with the memo off, then three times through one rule set
// with it on (values are admitted on their second sighting, rules/sightings.ts: the second pass
// admits and learns them, the third finds every benign value remembered), and in reverse order
// through another
// (values met first by other requests), must give the same interruptions and the same logged
// matches with the same variables and data.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { DEFAULT_MISS_MEMO_LIMITS } from '../../daemon/engine/rules/miss-memo.js';
import type { Waf } from '../../daemon/engine/waf.js';
import { crsInstalled, loadCiWaf } from './ci-waf.js';
import { corpusRequests } from './corpus-requests.js';

function verdict(waf: Waf, request: EngineRequest): string {
  const tx = waf.newTransaction(request);
  const interruption = tx.processRequest();
  tx.processLogging();
  const matches = tx.matches.map((m) => `${m.id} ${m.matchedVarName}=${m.matchedValue} [${m.data}]`);
  return JSON.stringify([interruption, matches, tx.tx.get('anomaly_score') ?? null]);
}

describe.skipIf(!crsInstalled())('miss memo over the CRS regression corpus', () => {
  let requests: EngineRequest[] = [];
  beforeAll(() => {
    requests = corpusRequests();
  });

  it('gives every request the verdict it gets without the memo', () => {
    expect(requests.length).toBeGreaterThan(1500);
    const off = loadCiWaf(defaultRegistries, { ...DEFAULT_MISS_MEMO_LIMITS, limit: 0 });
    const expected = requests.map((r) => verdict(off, r));
    const on = loadCiWaf(defaultRegistries);
    for (const pass of ['first', 'second', 'third']) {
      const differing = requests.filter((r, i) => verdict(on, r) !== expected[i]).length;
      expect(differing, `${pass} pass`).toBe(0);
    }
    const reversed = loadCiWaf(defaultRegistries);
    const differing = [...requests.keys()].reverse().filter((i) => verdict(reversed, requests[i]) !== expected[i]).length;
    expect(differing, 'reverse order').toBe(0);
    expect(on.ruleSet.missMemo.size).toBeGreaterThan(100);
  }, 300_000);
});
