import type { Transaction } from '../../../daemon/engine/transaction.js';
import type { Waf } from '../../../daemon/engine/waf.js';
import type { RuleSetSource } from '../../../daemon/rule-sets/engine-inspector.js';

// The rule set the edge's inspector runs in the conformance suite: CRS CI's, for every site, with
// each transaction the inspector opens kept so the suite can read what the engine logged. The
// inspector's Verdict only carries the matches it reports as events (it leaves out matches
// without a msg); the FTW tests judge ModSecurity's log, which has every logged match.

export interface RecordingRuleSet {
  readonly source: RuleSetSource;
  /** Every transaction opened so far, in order. */
  readonly transactions: Transaction[];
}

export function recordingRuleSet(waf: Waf): RecordingRuleSet {
  const transactions: Transaction[] = [];
  // A view of the same compiled rules whose newTransaction also keeps the transaction.
  const recording: Waf = Object.create(waf, {
    newTransaction: {
      value: (...args: Parameters<Waf['newTransaction']>) => {
        const tx = waf.newTransaction(...args);
        transactions.push(tx);
        return tx;
      },
    },
  });
  return { source: { forSite: () => recording, forParanoia: () => recording }, transactions };
}
